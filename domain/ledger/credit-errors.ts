import { ConflictError, DomainError } from '../errors.ts';
import { formatRupees, toRupees, type Minor } from '../money.ts';
import type { CreditDecision } from './ledger.ts';

type Refusal = Extract<CreditDecision, { approved: false }>;

/**
 * The credit gate refused an authorization (402). The paise figures are kept as fields for
 * the domain; `details` carries the body fields the contract names, already in rupees,
 * because the HTTP edge spreads details into the error body unchanged.
 */
export class CreditDeniedError extends DomainError {
  override readonly name = 'CreditDeniedError';
  readonly reasonCode: Refusal['reasonCode'];
  readonly availableCredit: Minor;
  /** Paise the group is short by; present only for CREDIT_LIMIT_EXCEEDED. */
  readonly shortfall: Minor | undefined;

  constructor(refusal: Refusal) {
    const shortfall = refusal.reasonCode === 'CREDIT_LIMIT_EXCEEDED' ? refusal.shortfall : undefined;
    super(
      'CREDIT_DENIED',
      refusal.reasonCode === 'ACCOUNT_ON_HOLD'
        ? 'The agent group is on hold; no booking can be made on credit.'
        : `The booking exceeds the available credit by ${formatRupees(shortfall ?? 0)} INR.`,
      {
        reasonCode: refusal.reasonCode,
        ...(shortfall === undefined ? {} : { shortfall: toRupees(shortfall) }),
        availableCredit: toRupees(refusal.availableCredit),
      },
    );
    this.reasonCode = refusal.reasonCode;
    this.availableCredit = refusal.availableCredit;
    this.shortfall = shortfall;
  }
}

/** The same externalBookingId came back with different contents (409 without expectedTotal/breakup). */
export class IdempotencyConflictError extends ConflictError {
  constructor(readonly externalBookingId: string) {
    super('CONFLICT', `externalBookingId ${externalBookingId} was already used for a request with different contents; use a new externalBookingId.`);
  }
}

/** A ledger transition the entry's current status does not allow (posting twice to different bookings, releasing a posted charge). */
export class LedgerTransitionError extends ConflictError {}

import { assertMinor, type Minor } from '../money.ts';

export const LEDGER_ENTRY_TYPES = ['CHARGE', 'ADJUSTMENT', 'REFUND', 'PAYMENT'] as const;
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

export const LEDGER_ENTRY_STATUSES = ['AUTHORIZED', 'POSTED', 'RELEASED'] as const;
export type LedgerEntryStatus = (typeof LEDGER_ENTRY_STATUSES)[number];

/** The entry types the credit gate authorizes: only movements that raise what the group owes. */
export type GatedEntryType = Extract<LedgerEntryType, 'CHARGE' | 'ADJUSTMENT'>;

/**
 * One movement on an agent group's account. `amount` is signed from the partner's side:
 * positive grows what the group owes (charges, increasing adjustments), negative shrinks it
 * (refunds, payments, decreasing adjustments).
 */
export interface LedgerEntry {
  readonly id: string;
  readonly agentGroupId: string;
  readonly type: LedgerEntryType;
  readonly status: LedgerEntryStatus;
  readonly amount: Minor;
  readonly currency: 'INR';
  /** The property-system booking id; set only once the charge is POSTED. */
  readonly bookingId: string | null;
  /** The caller's own reference, set from authorization time. */
  readonly externalBookingId: string | null;
  readonly description: string;
  readonly occurredAt: string;
}

/** The group's terms the credit decision reads. */
export interface CreditTerms {
  readonly creditLimit: Minor;
  readonly onHold: boolean;
}

/**
 * The terms the credit gate decides on: the operator's limit, and a hold that is either the
 * operator's (`operatorHold`, on the group) or credit control's (`creditControlHold`, an
 * overdue invoice): either refuses every new authorization.
 */
export function creditTermsOf(creditLimit: Minor, operatorHold: boolean, creditControlHold: boolean): CreditTerms {
  return { creditLimit, onHold: operatorHold || creditControlHold };
}

/** The group's live credit figures, as GET /v1/ledger and /v1/statement report them. */
export interface CreditPosition {
  readonly creditLimit: Minor;
  readonly exposure: Minor;
  readonly availableCredit: Minor;
}

export type CreditDecision =
  | { readonly approved: true; readonly availableCreditAfter: Minor }
  | { readonly approved: false; readonly reasonCode: 'ACCOUNT_ON_HOLD'; readonly availableCredit: Minor }
  | { readonly approved: false; readonly reasonCode: 'CREDIT_LIMIT_EXCEEDED'; readonly shortfall: Minor; readonly availableCredit: Minor };

/** True when an entry counts toward exposure: everything but a released authorization. */
export function countsTowardExposure(entry: Pick<LedgerEntry, 'status'>): boolean {
  return entry.status !== 'RELEASED';
}

/**
 * Exposure of a set of entries: authorized and posted charges and adjustments less refunds
 * and payments. Signed amounts make that one sum; RELEASED entries count nowhere.
 */
export function exposureOf(entries: readonly Pick<LedgerEntry, 'status' | 'amount'>[]): Minor {
  return entries.reduce((sum, e) => (countsTowardExposure(e) ? sum + e.amount : sum), 0);
}

/** creditLimit − exposure; negative when a late-landing booking was posted past the limit. */
export function availableCredit(creditLimit: Minor, exposure: Minor): Minor {
  return creditLimit - exposure;
}

export function creditPosition(creditLimit: Minor, exposure: Minor): CreditPosition {
  return { creditLimit, exposure, availableCredit: availableCredit(creditLimit, exposure) };
}

/**
 * The credit gate's rule for a new authorization of `amount` paise: a group on hold is
 * refused whatever its headroom; otherwise the amount must fit in the available credit.
 */
export function decideCredit(terms: CreditTerms, exposure: Minor, amount: Minor): CreditDecision {
  assertMinor(amount);
  if (amount <= 0) throw new RangeError(`an authorization must be a positive amount of paise, got ${amount}`);
  const available = availableCredit(terms.creditLimit, exposure);
  if (terms.onHold) return { approved: false, reasonCode: 'ACCOUNT_ON_HOLD', availableCredit: available };
  if (amount > available) return { approved: false, reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: amount - available, availableCredit: available };
  return { approved: true, availableCreditAfter: available - amount };
}

export interface NewAuthorization {
  readonly agentGroupId: string;
  readonly type: GatedEntryType;
  readonly amount: Minor;
  readonly externalBookingId: string;
  readonly description: string;
}

/** The AUTHORIZED entry the gate writes for a new authorization; id and time come from the ports. */
export function authorizedEntry(cmd: NewAuthorization, id: string, at: Date): LedgerEntry {
  assertMinor(cmd.amount);
  return {
    id,
    agentGroupId: cmd.agentGroupId,
    type: cmd.type,
    status: 'AUTHORIZED',
    amount: cmd.amount,
    currency: 'INR',
    bookingId: null,
    externalBookingId: cmd.externalBookingId,
    description: cmd.description,
    occurredAt: at.toISOString(),
  };
}

/** The entry types written straight as POSTED, outside the credit gate. */
export type UngatedEntryType = Exclude<LedgerEntryType, 'CHARGE'>;

export interface NewPostedEntry {
  readonly agentGroupId: string;
  readonly type: UngatedEntryType;
  /** Signed paise: negative for refunds, payments and decreasing adjustments. */
  readonly amount: Minor;
  readonly bookingId: string | null;
  readonly externalBookingId: string | null;
  readonly description: string;
}

/**
 * Refunds and payments only ever shrink what the group owes; an adjustment may go either way
 * (an operator's correction) but never by nothing. A charge is never recorded this way: it
 * must pass the credit gate. Throws RangeError, because a caller breaking this is a bug.
 */
export function assertRecordable(entry: Pick<LedgerEntry, 'type' | 'status' | 'amount'>): void {
  assertMinor(entry.amount);
  if (entry.status !== 'POSTED') throw new RangeError(`only POSTED entries are recorded outside the gate, got ${entry.status}`);
  if (entry.type === 'CHARGE') throw new RangeError('a CHARGE is authorized through the credit gate, never recorded as posted');
  if (entry.amount === 0) throw new RangeError('a ledger entry moves a non-zero amount');
  if ((entry.type === 'REFUND' || entry.type === 'PAYMENT') && entry.amount > 0) {
    throw new RangeError(`a ${entry.type} shrinks what the group owes: its amount must be negative, got ${entry.amount}`);
  }
}

/** The POSTED entry for a refund, payment or adjustment; id and time come from the ports. */
export function postedEntry(cmd: NewPostedEntry, id: string, at: Date): LedgerEntry {
  const entry: LedgerEntry = {
    id,
    agentGroupId: cmd.agentGroupId,
    type: cmd.type,
    status: 'POSTED',
    amount: cmd.amount,
    currency: 'INR',
    bookingId: cmd.bookingId,
    externalBookingId: cmd.externalBookingId,
    description: cmd.description,
    occurredAt: at.toISOString(),
  };
  assertRecordable(entry);
  return entry;
}

/** The net POSTED position of some entries: what the group owes by them. AUTHORIZED and RELEASED count nowhere. */
export function postedBalance(entries: readonly Pick<LedgerEntry, 'status' | 'amount'>[]): Minor {
  return entries.reduce((sum, e) => (e.status === 'POSTED' ? sum + e.amount : sum), 0);
}

import { createHash } from 'node:crypto';
import type { Minor } from '../money.ts';

export const PAYMENT_SOURCES = ['GATEWAY', 'BANK_TRANSFER'] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

/** Money received from an agent group, as recorded. */
export interface Payment {
  readonly agentGroupId: string;
  readonly source: PaymentSource;
  /** The gateway's payment id, or the bank's transfer reference (UTR): unique per source. */
  readonly reference: string;
  /** Positive paise received. */
  readonly amount: Minor;
  /** The gateway order paid, when the payment came through one. */
  readonly gatewayOrderId: string | null;
  /** The invoice that order was opened for: allocated first. */
  readonly invoiceId: string | null;
  readonly receivedAt: string;
  readonly recordedAt: string;
  /** The POSTED PAYMENT ledger entry. */
  readonly ledgerEntryId: string;
  /** The gateway's event that announced it (`x-razorpay-event-id`), written with the payment; null when found by reconciliation or typed in. */
  readonly eventId?: string | null;
  /** The Smart Collect virtual account a bank transfer arrived in. */
  readonly virtualAccountId?: string | null;
  /**
   * The bank's reference (UTR) of a transfer: the reference of one typed in, the gateway's
   * `bank_reference` of one through Smart Collect. One payment per UTR, whichever way it came.
   */
  readonly bankReference?: string | null;
  /** Paise given back of it by processed refunds (and lost disputes); absent = none. */
  readonly refunded?: Minor;
}

/**
 * Money given back of a recorded gateway payment: a processed refund, once per refund id.
 * Its POSTED ADJUSTMENT (positive) undoes that much of the payment's entry; the group's
 * credit drops by it, taken from what is unallocated first, then back from the invoices it paid.
 */
export interface PaymentRefund {
  readonly agentGroupId: string;
  readonly refundId: string;
  /** The refunded payment (its gateway payment id). */
  readonly paymentId: string;
  readonly amount: Minor;
  /** The refunded payment's invoice: the first it re-opens. */
  readonly invoiceId: string | null;
  readonly refundedAt: string;
  readonly recordedAt: string;
  /** The POSTED ADJUSTMENT ledger entry. */
  readonly ledgerEntryId: string;
  readonly eventId: string | null;
}

/** Razorpay's dispute states in their order (razorpay.com/docs/api/disputes/entity, `status`): a state is applied once, and never after a later one. */
export const DISPUTE_STATES = ['open', 'under_review', 'won', 'lost', 'closed'] as const;
export const disputeRank = (status: string): number => Math.min(DISPUTE_STATES.indexOf(status as (typeof DISPUTE_STATES)[number]), 2);
/** Open and under review: the payment may still be taken back, operators are to answer by `respondBy`. */
export const isDisputeOpen = (status: string): boolean => status === 'open' || status === 'under_review';

/**
 * A dispute (chargeback) of a recorded gateway payment, as last seen: one per dispute id. Open,
 * it flags the payment's invoice for operators (`payments disputes`); lost, the amount deducted
 * is given back as a refund is (a PaymentRefund whose id is the dispute's); won or closed, the
 * flag is cleared.
 */
export interface PaymentDispute {
  readonly agentGroupId: string;
  readonly disputeId: string;
  readonly paymentId: string;
  /** The disputed payment's invoice. */
  readonly invoiceId: string | null;
  readonly amount: Minor;
  readonly amountDeducted: Minor;
  readonly status: string;
  readonly phase: string;
  readonly reasonCode: string;
  readonly respondBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly eventId: string | null;
}

/**
 * A gateway payment the service could not take as a group's money: its order or virtual
 * account is not ours, or it is not in INR. Kept once per payment id for operators
 * (`payments unmatched`); the gateway was answered 200 so it does not retry for days.
 */
export interface UnmatchedPayment {
  readonly paymentId: string;
  readonly eventId: string | null;
  readonly event: string;
  readonly orderId: string | null;
  readonly virtualAccountId: string | null;
  readonly amount: Minor;
  readonly currency: string;
  readonly reason: 'UNKNOWN_ORDER' | 'UNKNOWN_VIRTUAL_ACCOUNT' | 'CURRENCY';
  readonly createdAt: string;
  readonly keptAt: string;
}

/** A transfer's UTR as its claim is keyed: banks print them in either case. */
export const transferReferenceOf = (utr: string): string => utr.toUpperCase();

/** One key per payment: the gateway's payment id or the bank reference, within its source. */
export const paymentKey = (source: PaymentSource, reference: string): string => `${source}#${reference}`;

/**
 * The ledger entry id of a payment, derived from its key so every duplicate delivery of it
 * names the same entry (the store's "entry is new" condition then admits exactly one). UUID
 * form, because the ledger timeline's range bounds rely on ids of hex digits and '-'.
 */
export function paymentEntryId(agentGroupId: string, source: PaymentSource, reference: string): string {
  return entryIdOf(`payment\u0000${agentGroupId}\u0000${paymentKey(source, reference)}`);
}

/** The ledger entry id of a refund, derived from the refund id like a payment's. */
export const refundEntryId = (agentGroupId: string, refundId: string): string => entryIdOf(`refund\u0000${agentGroupId}\u0000${refundId}`);

function entryIdOf(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

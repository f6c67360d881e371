import type { AuditDraft } from '../audit/audit-event.ts';
import type { Booking } from '../bookings/booking.ts';
import type { LedgerEntry } from '../ledger/ledger.ts';
import type { Authorization, IdempotencyClaim } from './credit-ledger.ts';

/** The stored idempotency record of an externalBookingId. */
export interface BookingClaim {
  readonly contentHash: string;
  readonly bookingRef: string;
}

/**
 * What moves together with a booking's change, in the same transaction. Each is the
 * ledger or catalogue half of one workflow step; the booking half is the record itself.
 */
export type BookingEffect =
  /** The booking landed: its charge posts (from AUTHORIZED, or back from RELEASED when late) and its alias is written. */
  | { readonly kind: 'land'; readonly bookingId: string }
  /** The booking failed: its authorization is released. */
  | { readonly kind: 'release' }
  /** The booking was cancelled: a POSTED REFUND entry (negative) moves exposure. */
  | { readonly kind: 'refund'; readonly entry: LedgerEntry }
  /** The booked units leave (or, on cancellation, return to) the property's daily inventory. */
  | { readonly kind: 'inventory'; readonly direction: 'take' | 'return' };

/** Bookings on credit, always addressed through their agent group. */
export interface BookingStore {
  /**
   * The credit gate with the booking: one transaction writes the AUTHORIZED entry, the
   * idempotency claim, the exposure within the limit and the PROCESSING booking. A replay
   * (same key and hash) writes nothing and names the earlier booking. Refusals as
   * CreditLedger.authorize.
   */
  open(booking: Booking, entry: LedgerEntry, claim: IdempotencyClaim, audit: AuditDraft): Promise<Authorization>;
  get(agentGroupId: string, bookingRef: string): Promise<Booking | undefined>;
  findClaim(agentGroupId: string, externalBookingId: string): Promise<BookingClaim | undefined>;
  /**
   * Replaces `previous` by `next` (next.version = previous.version + 1) together with the
   * effect, only if the stored booking is still at previous.version. False when another
   * writer got there first: the caller re-reads and decides again. With `audit`, its event
   * is written in the same transaction (a partner's or operator's change, and the workflow's
   * steps that move money: landing and failing).
   */
  update(previous: Booking, next: Booking, effect?: BookingEffect, audit?: AuditDraft): Promise<boolean>;
  /** Bookings whose nextCheckAt is at or before `dueBefore`, oldest first (the sweeper's work); with `agentGroupId`, that group's only. */
  listDue(dueBefore: string, limit: number, agentGroupId?: string): Promise<Booking[]>;
}

/** "Look at booking R when it is due at D": the only thing the workflow queue carries. */
export interface BookingCheck {
  readonly agentGroupId: string;
  readonly bookingRef: string;
  /** The booking's nextCheckAt this message was sent for; a message for a superseded time is dropped. */
  readonly dueAt: string;
}

/** Carries booking checks to the workflow worker; a lost message is recovered by the sweeper. */
export interface BookingQueue {
  /** `delaySeconds` 0–900 (the SQS limit); longer waits are chained by the worker. */
  send(check: BookingCheck, delaySeconds: number): Promise<void>;
}

import type { AuditDraft, AuditOrigin } from '../audit/audit-event.ts';
import type { Booking } from '../bookings/booking.ts';

/** A booking as the erasure queue names it. */
export interface BookingAddress {
  readonly agentGroupId: string;
  readonly bookingRef: string;
}

/** Why guest data is erased, and on whose word: what the audit trail records of an erasure. */
export interface ErasureCause {
  readonly reason: 'retention' | 'request';
  /** A system origin for the daily job; the operator's for the admin tool. */
  readonly origin: AuditOrigin;
}

/**
 * The guest-data side of bookings (docs/personal-data.md): which bookings' retention has run
 * out, finding a booking without knowing its group, and the erasure's final write.
 */
export interface GuestDataStore {
  /**
   * Bookings whose stay ended on or before `endedOnOrBefore` and whose guest data is still held,
   * oldest end first, at most `limit` (a sparse index: only such bookings carry it).
   */
  listErasable(endedOnOrBefore: string, limit: number, agentGroupId?: string): Promise<BookingAddress[]>;
  /** The booking with this property-system id (or, failing that, this bookingRef, or this booking code `PB-…`) in any of the groups. */
  locate(bookingIdOrRef: string, agentGroupIds: readonly string[]): Promise<Booking | undefined>;
  /**
   * The erasure's final write: `next` (the booking with the marker) replaces `previous` only if
   * the stored booking is still at previous.version; false when another writer got there first.
   * Everything else holding the guest's data has been erased before this write, so a booking
   * that says erased is erased everywhere. The one place an erasure commits, with its audit
   * event in the same transaction: an erasure is recorded if and only if it is made.
   */
  eraseBooking(previous: Booking, next: Booking, audit: AuditDraft): Promise<boolean>;
  /**
   * Puts a settled booking that still holds guest data on the erasure index, if its stored
   * item is still at `b.version` and carries no index yet (a booking settled before the index
   * existed); false when it already has one or has moved on (its own write indexed it).
   */
  indexErasable(b: Booking): Promise<boolean>;
}

import type { LedgerEntry } from '../ledger/ledger.ts';

/** A booking with work a billing run may have to do, and the version of its index entry when read. */
export interface PendingBooking {
  readonly bookingId: string;
  /** Moves with every posting of the booking: a run takes the booking out only at the version it read. */
  readonly version: number;
}

/**
 * The index of a group's unbilled work (docs/invoicing.md, "What a run reads"): every booking
 * whose POSTED charges, adjustments or refunds may not all be invoiced yet. A posting enters
 * its booking in the same transaction as the ledger entry; a run takes a booking out once what
 * is invoiced for it equals what it owes. A run reads only these bookings, so its cost follows
 * the work that is new, not the group's history.
 */
export interface UnbilledWork {
  /**
   * The group's pending bookings (only those of `bookingIds` when given), and whether the index
   * is complete: until then (history from before it, not backfilled yet) it holds only what was
   * posted since, and a run reads the whole history instead.
   */
  pending(agentGroupId: string, bookingIds?: readonly string[]): Promise<{ readonly complete: boolean; readonly bookings: readonly PendingBooking[] }>;
  /** Every POSTED charge, adjustment and refund of these bookings, oldest first. */
  entriesOf(agentGroupId: string, bookingIds: readonly string[]): Promise<LedgerEntry[]>;
  /** Takes these bookings out, each only if no posting moved it since it was read. */
  settle(agentGroupId: string, done: readonly PendingBooking[]): Promise<void>;
  /**
   * Indexes history written before the index: each entry under its booking, `pending` as
   * pending, then the group marked complete. Idempotent; postings racing it index themselves.
   */
  backfill(agentGroupId: string, entries: readonly LedgerEntry[], pending: readonly string[]): Promise<void>;
  /** True once the group's index is complete. */
  isComplete(agentGroupId: string): Promise<boolean>;
}

import type { AuditDraft } from '../audit/audit-event.ts';
import type { Amendment } from '../bookings/amendment.ts';
import type { Booking } from '../bookings/booking.ts';
import type { CreditDecision, LedgerEntry } from '../ledger/ledger.ts';

/** Units of one property on one night: negative taken from the daily inventory, positive returned. */
export interface UnitMove {
  readonly propertyId: string;
  readonly date: string;
  readonly units: number;
}

/** The amendment in flight on a booking, held until it settles. */
export interface AmendmentLock {
  readonly amendmentId: string;
  readonly contentHash: string;
}

/** A write of the amendment with the booking: `moved` when either was no longer at the version read. */
export type RowsOutcome = 'done' | 'moved' | 'oversold';
/**
 * `done`: written; `moved`: the amendment or the booking was no longer at the version read;
 * `refused`: the credit gate said no to the increase; `failed`: the step after the channel could
 * not be completed, nothing written (the amendment is compensated as AMENDMENT_FAILED with
 * `reason`).
 */
export type AdjustOutcome =
  | { readonly kind: 'done' | 'moved' }
  | { readonly kind: 'refused'; readonly decision: Extract<CreditDecision, { approved: false }> }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * Amendments of bookings: each write is conditional on the amendment's version (and, where
 * the booking moves with it, the booking's), and a write that settles an amendment also
 * frees the booking for the next one.
 */
export interface AmendmentStore {
  /**
   * Writes the PENDING amendment and takes the booking's amendment lock, only while the
   * booking is still at `bookingVersion`: `locked` when another amendment holds it,
   * `moved` when the booking changed since it was read (both: re-quote).
   */
  begin(amendment: Amendment, bookingVersion: number, audit: AuditDraft): Promise<'created' | 'locked' | 'moved'>;
  get(agentGroupId: string, bookingRef: string, amendmentId: string): Promise<Amendment | undefined>;
  lockOf(agentGroupId: string, bookingRef: string): Promise<AmendmentLock | undefined>;
  /** A booking's amendments, oldest first. */
  list(agentGroupId: string, bookingRef: string): Promise<Amendment[]>;
  /** The amendment alone (next.version = previous.version + 1); false when it moved on. */
  save(previous: Amendment, next: Amendment): Promise<boolean>;
  /**
   * The amendment, the booking and the units in one transaction: `moves` are applied to
   * the daily inventory; with `refuseOverdraft` a night that would go below zero refuses
   * the whole write (`oversold`) instead of clamping.
   */
  rewrite(
    previous: Amendment,
    next: Amendment,
    booking: Booking,
    nextBooking: Booking,
    moves: readonly UnitMove[],
    refuseOverdraft: boolean,
  ): Promise<RowsOutcome>;
  /** The amendment, the booking and the ADJUSTMENT entry (through the credit gate when positive) in one transaction; no entry when null. */
  adjust(previous: Amendment, next: Amendment, booking: Booking, nextBooking: Booking, entry: LedgerEntry | null): Promise<AdjustOutcome>;
  /** Amendments whose nextCheckAt is at or before `dueBefore` (the sweeper's work); with `agentGroupId`, that group's only. */
  listDue(dueBefore: string, limit: number, agentGroupId?: string): Promise<Amendment[]>;
}

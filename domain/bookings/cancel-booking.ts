import type { AuditOrigin } from '../audit/audit-event.ts';
import { NotFoundError } from '../errors.ts';
import { bookingAudit } from './booking-audit.ts';
import type { LedgerEntry } from '../ledger/ledger.ts';
import type { Minor } from '../money.ts';
import { percentOf } from '../pricing/index.ts';
import type { BookingReads } from '../ports/booking-reads.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { indiaToday } from '../reads/date-window.ts';
import type { Booking, BookingCancellation } from './booking.ts';
import { BookingStateError } from './booking-errors.ts';
import { advanceBooking, scheduleCheck, type WorkflowDeps } from './workflow.ts';

/** What a cancellation on `today` gives back under the booking's cancellation policy. */
export interface CancellationQuote {
  readonly cancellable: boolean;
  /** Why not, when not cancellable. */
  readonly reason: string | null;
  readonly refundPercentage: number;
  readonly refundAmount: Minor;
  readonly chargedAmount: Minor;
  /** The policy step that applies: cancel on or before this date for this refund. */
  readonly appliesUntil: string | null;
  readonly label: string | null;
}

/**
 * The refund for cancelling on `today` (India): the first step of the policy whose
 * cancelBy is today or later; past the last step, nothing. A stay that has begun can no
 * longer be cancelled here (the policy's last step is check-in day itself).
 */
export function quoteCancellation(b: Booking, today: string): CancellationQuote {
  // What the group was charged, amendments included: the policy's percentage is of that.
  const charged = b.chargedTotal;
  const refusal = (reason: string): CancellationQuote => ({
    cancellable: false,
    reason,
    refundPercentage: 0,
    refundAmount: 0,
    chargedAmount: charged,
    appliesUntil: null,
    label: null,
  });
  if (b.status === 'CANCELLED') return refusal('The booking is already cancelled.');
  if (b.status !== 'CONFIRMED') return refusal(`A ${b.status} booking has nothing to cancel.`);
  if (today > b.checkIn) return refusal(`The stay began on ${b.checkIn}; a started stay cannot be cancelled.`);
  const policy = b.items[0]?.cancellationPolicy ?? [];
  const step = [...policy].sort((x, y) => (x.cancelBy < y.cancelBy ? -1 : x.cancelBy > y.cancelBy ? 1 : 0)).find((s) => s.cancelBy >= today);
  const percentage = step?.refundPercentage ?? 0;
  return {
    cancellable: true,
    reason: null,
    refundPercentage: percentage,
    refundAmount: percentOf(charged, percentage),
    chargedAmount: charged,
    appliesUntil: step?.cancelBy ?? null,
    label: step?.label ?? null,
  };
}

/** The workflow's dependencies, plus the read that finds a landed booking by its property-system id. */
export interface CancelDeps extends WorkflowDeps {
  readonly bookingReads: Pick<BookingReads, 'byBookingId'>;
}

export interface CancelResult {
  readonly booking: Booking;
  readonly cancellation: BookingCancellation;
  /** True when the booking was already cancelled before this call (the call changed nothing). */
  readonly alreadyCancelled: boolean;
}

async function landedBooking(deps: Pick<CancelDeps, 'bookingReads'>, principal: AgentGroupPrincipal, bookingId: string): Promise<Booking> {
  const booking = await deps.bookingReads.byBookingId(principal.agentGroupId, bookingId);
  if (!booking) throw new NotFoundError('Booking');
  return booking;
}

/** GET /v1/bookings/{bookingId}/cancellation-quote: what cancelling now would refund; changes nothing. */
export async function cancellationQuote(
  deps: Pick<CancelDeps, 'bookingReads' | 'clock'>,
  principal: AgentGroupPrincipal,
  bookingId: string,
): Promise<{ booking: Booking; quote: CancellationQuote }> {
  const booking = await landedBooking(deps, principal, bookingId);
  return { booking, quote: quoteCancellation(booking, indiaToday(deps.clock.now())) };
}

/**
 * POST /v1/bookings/{bookingId}/cancel. The property system is told first (idempotent);
 * then one transaction marks the booking CANCELLED with its refund and writes the POSTED
 * REFUND entry that lowers exposure. The workflow then returns the units and sends
 * booking.cancelled. Cancelling a cancelled booking answers the first cancellation again.
 */
export async function cancelBooking(
  deps: CancelDeps,
  principal: AgentGroupPrincipal,
  bookingId: string,
  reason: string | undefined,
  origin: AuditOrigin,
): Promise<CancelResult> {
  for (;;) {
    const booking = await landedBooking(deps, principal, bookingId);
    if (booking.status === 'CANCELLED' && booking.cancellation) return { booking, cancellation: booking.cancellation, alreadyCancelled: true };
    const now = deps.clock.now();
    const quote = quoteCancellation(booking, indiaToday(now));
    if (!quote.cancellable) throw new BookingStateError('CONFLICT', quote.reason ?? 'The booking cannot be cancelled.');
    if (booking.amendingId !== null) throw new BookingStateError('CONFLICT', 'An amendment of this booking is being applied; cancel again in a moment.');

    await deps.propertySystem.cancel(booking.bookingRef, now.toISOString());
    const at = now.toISOString();
    const refundEntryId = deps.derivedId(`${booking.bookingRef}:refund`);
    const cancellation: BookingCancellation = {
      cancelledAt: at,
      reason: reason ?? null,
      refundPercentage: quote.refundPercentage,
      refundAmount: quote.refundAmount,
      refundEntryId,
    };
    const next: Booking = { ...booking, status: 'CANCELLED', cancellation, nextCheckAt: at, updatedAt: at, version: booking.version + 1 };
    const entry: LedgerEntry = {
      id: refundEntryId,
      agentGroupId: booking.agentGroupId,
      type: 'REFUND',
      status: 'POSTED',
      amount: -quote.refundAmount,
      currency: 'INR',
      bookingId: booking.bookingId,
      externalBookingId: booking.externalBookingId,
      description: `Refund of ${quote.refundPercentage}% on cancelling booking ${booking.code}`,
      occurredAt: at,
    };
    // A cancellation with nothing to give back moves no money, so it writes no ledger line.
    const audit = bookingAudit(origin, deps.derivedId(`${booking.bookingRef}:cancel-audit`), at, 'booking.cancelled', booking, next);
    if (!(await deps.bookings.update(booking, next, quote.refundAmount > 0 ? { kind: 'refund', entry } : undefined, audit))) continue;
    await deps.afterStep?.('cancelled');
    // Queued before the steps run here, so a handler dying now leaves the worker, not only the sweeper, to finish them.
    await scheduleCheck(deps, next, at);
    const after = (await advanceBooking(deps, booking.agentGroupId, booking.bookingRef)) ?? next;
    return { booking: after, cancellation, alreadyCancelled: false };
  }
}

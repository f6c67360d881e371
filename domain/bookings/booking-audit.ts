import type { AuditDraft, AuditFields, AuditOrigin } from '../audit/audit-event.ts';
import type { Amendment } from './amendment.ts';
import type { Booking } from './booking.ts';

/**
 * What the audit trail records of a booking: ids, state, stay dates and money in paise.
 * Never its guests, special requests or a cancellation's free-text reason, which may name
 * people: those are erased after the stay, and a hashed event cannot be.
 */
export const bookingFigures = (b: Booking): AuditFields => ({
  status: b.status,
  bookingId: b.bookingId,
  externalBookingId: b.externalBookingId,
  listingId: b.listingId,
  checkIn: b.checkIn,
  checkOut: b.checkOut,
  chargedTotal: b.chargedTotal,
  ledgerEntryId: b.ledgerEntryId,
  refundAmount: b.cancellation?.refundAmount ?? null,
  refundPercentage: b.cancellation?.refundPercentage ?? null,
});

export const bookingTarget = (bookingRef: string): string => `booking:${bookingRef}`;

/** The event of a partner's change to a booking, from the record before and after. */
export function bookingAudit(origin: AuditOrigin, id: string, at: string, action: string, before: Booking | null, after: Booking): AuditDraft {
  return {
    id,
    at,
    origin,
    action,
    target: bookingTarget(after.bookingRef),
    account: after.agentGroupId,
    before: before && bookingFigures(before),
    after: bookingFigures(after),
  };
}

/** The event of an amendment asked for: the stay and the money it moves from and to. */
export function amendmentAudit(origin: AuditOrigin, id: string, a: Amendment): AuditDraft {
  const side = (s: Amendment['before'], total: number): AuditFields => ({ checkIn: s.checkIn, checkOut: s.checkOut, chargedTotal: total });
  return {
    id,
    at: a.createdAt,
    origin,
    action: 'booking.amendment-requested',
    target: bookingTarget(a.bookingRef),
    account: a.agentGroupId,
    before: { ...side(a.before, a.money.previousTotal), amendmentId: null },
    after: { ...side(a.after, a.money.newTotal), amendmentId: a.amendmentId, delta: a.money.delta },
  };
}

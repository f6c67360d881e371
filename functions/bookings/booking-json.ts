import type { CallbackDelivery } from '../../domain/deliveries/delivery.ts';
import type * as v from 'valibot';
import { bookingAmounts } from '../../domain/bookings/booking-amounts.ts';
import type { Booking, Guest } from '../../domain/bookings/booking.ts';
import type { Amendment } from '../../domain/bookings/amendment.ts';
import { toRupees, type Minor } from '../../domain/money.ts';
import type { BookingDetailSchema, BookingRowSchema } from '../contracts/booking-reads.ts';
import { itemInRupees, summaryInRupees } from '../../domain/pricing/rupees.ts';

export type BookingRowJson = v.InferOutput<typeof BookingRowSchema>;
export type BookingDetailJson = v.InferOutput<typeof BookingDetailSchema>;

/** The contract's Booking row, money in rupees. */
export function bookingRowJson(b: Booking, paid: Minor = 0): BookingRowJson {
  const amounts = bookingAmounts(b, paid);
  return {
    bookingId: b.bookingId,
    externalBookingId: b.externalBookingId,
    code: b.code,
    status: b.status,
    checkIn: b.checkIn,
    checkOut: b.checkOut,
    totalAmount: toRupees(amounts.total),
    outstandingAmount: toRupees(amounts.outstanding),
    paidAmount: toRupees(amounts.paid),
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
  };
}

/** Field by field, so nothing stored beside a guest ever reaches a response. */
const guestJson = (g: Guest): Guest => ({
  ...(g.guestId !== undefined && { guestId: g.guestId }),
  ...(g.salutation !== undefined && { salutation: g.salutation }),
  firstName: g.firstName,
  ...(g.lastName !== undefined && { lastName: g.lastName }),
  ...(g.email !== undefined && { email: g.email }),
  ...(g.phone !== undefined && { phone: g.phone }),
  ...(g.countryCode !== undefined && { countryCode: g.countryCode }),
  ...(g.city !== undefined && { city: g.city }),
  ...(g.dob !== undefined && { dob: g.dob }),
  ...(g.anniversary !== undefined && { anniversary: g.anniversary }),
  ...(g.position !== undefined && { position: g.position }),
});

/**
 * GET /v1/bookings/{bookingId}: the row plus what was booked. Built field by field from the
 * record: the callback URL, the workflow's own state and the ledger ids stay inside.
 */
export function bookingDetailJson(b: Booking, callbacks: readonly CallbackDelivery[], amendments: readonly Amendment[], paid: Minor = 0): BookingDetailJson {
  return {
    ...bookingRowJson(b, paid),
    listingId: b.listingId,
    orderId: b.orderId,
    items: b.items.map(itemInRupees),
    summary: summaryInRupees(b.summary),
    primaryGuest: guestJson(b.primaryGuest),
    additionalGuests: b.additionalGuests.map(guestJson),
    specialRequests: b.specialRequests,
    // A booking is of one listing, so its one item's policy is the booking's.
    cancellationPolicy: (b.items[0]?.cancellationPolicy ?? []).map((s) => ({ cancelBy: s.cancelBy, refundPercentage: s.refundPercentage, label: s.label })),
    amendments: amendments.map(amendmentSummaryJson),
    failure: b.failure && { reasonCode: b.failure.reasonCode, reason: b.failure.reason, failedAt: b.failure.failedAt },
    cancellation: b.cancellation && {
      cancelledAt: b.cancellation.cancelledAt,
      reason: b.cancellation.reason,
      refundPercentage: b.cancellation.refundPercentage,
      refundAmount: toRupees(b.cancellation.refundAmount),
    },
    // The URL is left out on purpose: it often carries the partner's token in its query string.
    callbacks: callbacks.map((d) => ({
      eventId: d.eventId,
      eventType: d.eventType,
      status: d.status,
      attempts: d.attempts.map((a) => ({ ...a })),
      nextAttemptAt: d.nextAttemptAt,
      failureReason: d.failureReason,
      createdAt: d.createdAt,
    })),
  };
}

/** One amendment in the booking detail: the stay and totals either side, and why it did not apply when it did not. */
export function amendmentSummaryJson(a: Amendment): BookingDetailJson['amendments'][number] {
  return {
    amendmentId: a.amendmentId,
    status: a.status,
    before: { checkIn: a.before.checkIn, checkOut: a.before.checkOut, total: toRupees(a.money.previousTotal) },
    after: { checkIn: a.after.checkIn, checkOut: a.after.checkOut, total: toRupees(a.money.newTotal) },
    previousTotal: toRupees(a.money.previousTotal),
    newTotal: toRupees(a.money.newTotal),
    delta: toRupees(a.money.delta),
    amendmentDelta: toRupees(a.money.amendmentDelta),
    rateDriftAbsorbed: toRupees(a.money.rateDriftAbsorbed),
    failure: a.failure && { reasonCode: a.failure.reasonCode, reason: a.failure.reason, failedAt: a.failure.failedAt },
    createdAt: a.createdAt,
    appliedAt: a.appliedAt,
  };
}

import type { Amendment, StaySnapshot } from '../bookings/amendment.ts';
import type { Booking, Guest } from '../bookings/booking.ts';
import type { CallbackDelivery } from '../deliveries/delivery.ts';
import { normalEmailOf } from '../bookings/guests.ts';
import { addDays } from '../catalogue/calendar.ts';
import { indiaToday } from '../reads/date-window.ts';

/**
 * The one marker erased guest data answers with (docs/personal-data.md "The marker"). Names
 * become this text because the contract requires a guest's firstName; every other personal
 * field (email, phone, dob, city, salutation, the partner's guestId) is dropped, which the
 * contract allows since each is optional. A guest keeps only its position.
 */
export const ERASED = '[erased]';

/** A guest as erasure leaves it: the marker as both names, the position (not personal) kept. */
export function erasedGuest(g: Pick<Guest, 'position'>): Guest {
  return { firstName: ERASED, lastName: ERASED, ...(g.position !== undefined && { position: g.position }) };
}

/** The marker guest the channel manager's copy is rewritten with. */
export const ERASED_GUEST: Guest = erasedGuest({});

/** True when the guest holds nothing but the marker (and its position). */
export const isErasedGuest = (g: Guest): boolean =>
  Object.entries(g).every(([k, v]) => (k === 'firstName' || k === 'lastName' ? v === ERASED : k === 'position'));

/** India's calendar date of an instant. */
const indiaDateOf = (instant: string): string => indiaToday(new Date(instant));

/**
 * The date the booking's purpose ended, from which its retention runs: a cancelled booking's
 * cancellation (India date), a failed one's failure, a confirmed one's check-out. Null while it
 * is PROCESSING: nothing has ended yet.
 */
export function stayEndedOn(b: Booking): string | null {
  switch (b.status) {
    case 'CANCELLED':
      return b.cancellation ? indiaDateOf(b.cancellation.cancelledAt) : indiaDateOf(b.updatedAt);
    case 'FAILED':
      return b.failure ? indiaDateOf(b.failure.failedAt) : indiaDateOf(b.updatedAt);
    case 'CONFIRMED':
      return b.checkOut;
    case 'PROCESSING':
      return null;
  }
}

/**
 * Whether the stay has ended (the rule for erasure on request): cancelled or failed, or
 * confirmed with its check-out date already past in India. On the check-out day itself the
 * guest is still at the property, and a dispute about the stay is still the stay's.
 */
export function stayHasEnded(b: Booking, now: Date): boolean {
  if (b.status === 'CANCELLED' || b.status === 'FAILED') return true;
  return b.status === 'CONFIRMED' && b.checkOut < indiaToday(now);
}

/** The last end date whose bookings are due for erasure today: the retention counted back from India's today. */
export const erasableEndedOnOrBefore = (now: Date, retentionDays: number): string => addDays(indiaToday(now), -retentionDays);

/** Whether the retention of the booking's guest data has run out (the daily job's rule). */
export function retentionHasRunOut(b: Booking, now: Date, retentionDays: number): boolean {
  const ended = stayEndedOn(b);
  return ended !== null && stayHasEnded(b, now) && ended <= erasableEndedOnOrBefore(now, retentionDays);
}

export const isGuestDataErased = (b: Booking): boolean => Boolean(b.guestDataErasedAt);

/**
 * The booking with its guest fields replaced by the marker: the primary guest, every
 * additional guest (their count and positions stay, so the party's size still reads right),
 * the special requests, which guests write in their own words, and the cancellation's reason.
 */
export function erasedBooking(b: Booking, at: string): Booking {
  return {
    ...b,
    primaryGuest: erasedGuest(b.primaryGuest),
    additionalGuests: b.additionalGuests.map(erasedGuest),
    specialRequests: b.specialRequests === null ? null : ERASED,
    // A cancellation's reason is the partner's own words, which may name the guest (an outside review found one that did).
    cancellation: b.cancellation?.reason ? { ...b.cancellation, reason: ERASED } : b.cancellation,
    guestDataErasedAt: at,
    // A partner polling updatedSince learns that its copy should be erased too.
    updatedAt: at,
    version: b.version + 1,
  };
}

const erasedSnapshot = (s: StaySnapshot): StaySnapshot => ({ ...s, additionalGuests: s.additionalGuests.map(erasedGuest) });

/** True when the amendment still holds a guest's data (its stay snapshots carry the additional guests either side). */
export const amendmentHoldsGuests = (a: Amendment): boolean => [...a.before.additionalGuests, ...a.after.additionalGuests].some((g) => !isErasedGuest(g));

/** The amendment with the guests of both its snapshots replaced by the marker. */
export function erasedAmendment(a: Amendment, at: string): Amendment {
  return { ...a, before: erasedSnapshot(a.before), after: erasedSnapshot(a.after), updatedAt: at, version: a.version + 1 };
}

/** Whether any guest of the booking has this e-mail, matched as guests are (docs/bookings.md). */
export const bookingHasGuestEmail = (b: Booking, email: string): boolean =>
  [b.primaryGuest, ...b.additionalGuests].some((g) => normalEmailOf(g.email) === normalEmailOf(email));

/**
 * A booking callback kept for resend as erasure leaves it: the body's `reason` (a cancellation's
 * free text, sent as the partner wrote it) becomes the marker, and so do the receiver's answers
 * kept on its attempts and its failure reason, which may quote the body back. Null when nothing
 * is left to erase. Ids, status, dates and totals stay: the delivery log still reads right.
 */
export function erasedCallback(d: CallbackDelivery): Pick<CallbackDelivery, 'payload' | 'attempts' | 'failureReason'> | null {
  const body = JSON.parse(d.payload) as Record<string, unknown>;
  const reasonHeld = typeof body.reason === 'string' && body.reason !== ERASED;
  const answersHeld = d.attempts.some((a) => a.error !== undefined && a.error !== ERASED) || (d.failureReason !== null && d.failureReason !== ERASED);
  if (!reasonHeld && !answersHeld) return null;
  return {
    payload: reasonHeld ? JSON.stringify({ ...body, reason: ERASED }) : d.payload,
    attempts: d.attempts.map((a) => (a.error === undefined ? a : { ...a, error: ERASED })),
    failureReason: d.failureReason === null ? null : ERASED,
  };
}

/** The order's free-text reference (a display name the partner chose, which may name the guest), erased with the booking it became. */
export const orderRefHeld = (externalRef: string | null): boolean => externalRef !== null && externalRef !== ERASED;

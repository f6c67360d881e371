import type { CallbackDelivery } from '../deliveries/delivery.ts';
import type { DeliveryStore } from '../ports/delivery-store.ts';
import { daysBetween } from '../catalogue/calendar.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { BookingFeedPosition, BookingFilter, BookingReads } from '../ports/booking-reads.ts';
import type { CursorCodec, CursorScope } from '../ports/cursor-codec.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { MAX_WINDOW_DATES } from '../reads/date-window.ts';
import { canonicalInstant } from '../reads/date-window.ts';
import { decodeKeysetPair, encodeKeysetPair } from '../reads/keyset-position.ts';
import { MAX_IDS } from '../reads/partner-reads.ts';
import type { Booking, BookingStatus } from './booking.ts';
import type { Amendment } from './amendment.ts';
import type { AmendmentStore } from '../ports/amendment-store.ts';

export interface BookingReadDeps {
  readonly bookingReads: BookingReads;
  readonly cursors: CursorCodec;
}

/** Page sizes of `GET /v1/bookings`. */
export const BOOKINGS_PAGE = { defaultSize: 20, maxSize: 100 } as const;
/** At most this many bookingIds, and this many externalBookingIds, per request. */
export const MAX_BOOKING_IDS = MAX_IDS;

export interface BookingsQuery {
  readonly bookingIds?: readonly string[];
  readonly externalBookingIds?: readonly string[];
  readonly status?: readonly BookingStatus[];
  readonly checkInFrom?: string;
  readonly checkInTo?: string;
  readonly updatedSince?: string;
  readonly cursor?: string;
  readonly size?: number;
}

export interface BookingsPage {
  readonly bookings: readonly Booking[];
  readonly nextCursor: string | null;
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Feed order: (updatedAt, bookingRef) as plain strings, exactly as the feed index sorts `<updatedAt>#<bookingRef>`. */
const compareFeed = (a: BookingFeedPosition, b: BookingFeedPosition): number =>
  byCodeUnits(a.updatedAt, b.updatedAt) || byCodeUnits(a.bookingRef, b.bookingRef);

/** Whether a booking passes every filter given (the in-memory twin of the adapter's feed FilterExpression). */
export function matchesBookingFilter(b: Booking, f: BookingFilter): boolean {
  return (
    (f.statuses === undefined || f.statuses.includes(b.status)) &&
    (f.checkInFrom === undefined || b.checkIn >= f.checkInFrom) &&
    (f.checkInTo === undefined || b.checkIn <= f.checkInTo) &&
    (f.updatedSince === undefined || b.updatedAt >= f.updatedSince)
  );
}

/** The check-in window is a bulk-read date window: reversed or longer than the limit is refused, never clamped. */
function checkInWindow(from: string | undefined, to: string | undefined): void {
  if (from === undefined || to === undefined) return;
  if (from > to) throw new ValidationError('checkInFrom', `checkInFrom (${from}) must not be after checkInTo (${to}).`);
  if (daysBetween(from, to) + 1 > MAX_WINDOW_DATES)
    throw new ValidationError('checkInTo', `checkInTo: the check-in window from ${from} to ${to} covers more than ${MAX_WINDOW_DATES} dates.`);
}

const sortedList = (ids: readonly string[] | undefined): string | null => (ids ? [...new Set(ids)].sort(byCodeUnits).join(',') : null);

/**
 * The cursor is bound to the group and every filter. Page size is left out on purpose: the
 * position is a keyset bound that means the same at any size, so size may change between pages.
 */
const bookingsScope = (group: AgentGroupPrincipal, f: BookingFilter, q: BookingsQuery): CursorScope => ({
  callerId: group.agentGroupId,
  query: JSON.stringify([
    'v1/bookings',
    sortedList(q.bookingIds),
    sortedList(q.externalBookingIds),
    f.statuses ? [...f.statuses].sort(byCodeUnits) : null,
    f.checkInFrom ?? null,
    f.checkInTo ?? null,
    f.updatedSince ?? null,
  ]),
});

/** A cursor's position is the last feed entry a page ended on (or, for a short page, the last one read). */
const encodePosition = (p: BookingFeedPosition): string => encodeKeysetPair([p.updatedAt, p.bookingRef]);

function decodePosition(position: string): BookingFeedPosition {
  const [updatedAt, bookingRef] = decodeKeysetPair(position);
  return { updatedAt, bookingRef };
}

/**
 * `GET /v1/bookings`: the group's bookings ordered by last change (updatedAt, then the
 * service's bookingRef), so updatedSince plus the cursor is a keyset walk forward. A booking
 * that changes while a caller pages moves behind the cursor and is served again on a later
 * page: a poller never misses a change, and may see a booking twice.
 *
 * Without id lists the feed index is read; with them the named bookings are fetched and
 * filtered, ordered and paged in memory the same way (the two lists AND, like every filter).
 * nextCursor is null exactly when nothing can follow; a filtered feed read has a budget, so
 * a page may come back short (even empty) with a cursor: follow it until it is null.
 */
export async function listBookings(deps: BookingReadDeps, group: AgentGroupPrincipal, q: BookingsQuery): Promise<BookingsPage> {
  checkInWindow(q.checkInFrom, q.checkInTo);
  const filter: BookingFilter = {
    statuses: q.status?.length ? [...new Set(q.status)] : undefined,
    checkInFrom: q.checkInFrom,
    checkInTo: q.checkInTo,
    updatedSince: q.updatedSince === undefined ? undefined : canonicalInstant(q.updatedSince, 'updatedSince'),
  };
  const size = q.size ?? BOOKINGS_PAGE.defaultSize;
  if (size < 1 || size > BOOKINGS_PAGE.maxSize) throw new ValidationError('size', `size must be from 1 to ${BOOKINGS_PAGE.maxSize}.`);
  for (const [param, ids] of [
    ['bookingIds', q.bookingIds],
    ['externalBookingIds', q.externalBookingIds],
  ] as const) {
    if (ids && ids.length > MAX_BOOKING_IDS) throw new ValidationError(param, `${param} may hold at most ${MAX_BOOKING_IDS} ids.`);
  }
  const scope = bookingsScope(group, filter, q);
  const after = q.cursor === undefined ? undefined : decodePosition(deps.cursors.decode(scope, q.cursor));

  if (!q.bookingIds && !q.externalBookingIds) {
    const page = await deps.bookingReads.feedPage(group.agentGroupId, { filter, after, limit: size });
    return { bookings: page.bookings, nextCursor: page.resumeAfter ? deps.cursors.encode(scope, encodePosition(page.resumeAfter)) : null };
  }

  // Fetch through one list and hold the other as a filter: the two lists AND, never OR.
  const external = q.externalBookingIds && new Set(q.externalBookingIds);
  const found = q.bookingIds
    ? (await deps.bookingReads.byBookingIds(group.agentGroupId, q.bookingIds)).filter((b) => !external || external.has(b.externalBookingId))
    : await deps.bookingReads.byExternalIds(group.agentGroupId, q.externalBookingIds!);
  const candidates = found.filter((b) => matchesBookingFilter(b, filter) && (after === undefined || compareFeed(b, after) > 0)).sort(compareFeed);
  const bookings = candidates.slice(0, size);
  const last = bookings.at(-1);
  return { bookings, nextCursor: last && candidates.length > size ? deps.cursors.encode(scope, encodePosition(last)) : null };
}

/**
 * `GET /v1/bookings/{bookingId}`, by the property-system id. Another group's booking is not
 * reachable (every read is under the caller's group) and reads exactly like an unknown id.
 */
export async function getBooking(deps: Pick<BookingReadDeps, 'bookingReads'>, group: AgentGroupPrincipal, bookingId: string): Promise<Booking> {
  const booking = await deps.bookingReads.byBookingId(group.agentGroupId, bookingId);
  if (!booking) throw new NotFoundError('Booking');
  return booking;
}

/**
 * GET /v1/bookings/{bookingId}: the booking and every callback sent for it with each
 * attempt, so a partner can see exactly what was sent and when without asking us.
 */
export async function getBookingDetail(
  deps: Pick<BookingReadDeps, 'bookingReads'> & {
    readonly deliveries: Pick<DeliveryStore, 'listForBooking'>;
    readonly amendments: Pick<AmendmentStore, 'list'>;
  },
  group: AgentGroupPrincipal,
  bookingId: string,
): Promise<{ booking: Booking; callbacks: CallbackDelivery[]; amendments: Amendment[] }> {
  const booking = await getBooking(deps, group, bookingId);
  const [callbacks, amendments] = await Promise.all([
    deps.deliveries.listForBooking(group.partnerId, booking.bookingRef),
    deps.amendments.list(group.agentGroupId, booking.bookingRef),
  ]);
  return { booking, callbacks, amendments };
}

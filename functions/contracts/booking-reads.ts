import * as v from 'valibot';
import { HORIZON_NOTE } from '../../domain/catalogue/calendar.ts';
import { BOOKING_FAILURE_REASONS, BOOKING_STATUSES, type BookingStatus } from '../../domain/bookings/booking.ts';
import { BOOKINGS_PAGE, MAX_BOOKING_IDS } from '../../domain/bookings/read-bookings.ts';
import { MAX_WINDOW_DATES } from '../../domain/reads/date-window.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema, instantSchema, pageSizeParam } from './common.ts';
import { ItemSchema, SummarySchema } from './orders.ts';
import { dateParam, idList } from './partner-reads.ts';

const TAG = ['Bookings'];

const Money = v.pipe(v.number(), v.description('Rupees, at most two decimals.'));
const STATUS_LIST = BOOKING_STATUSES.join(', ');
const isBookingStatus = (value: string): value is BookingStatus => (BOOKING_STATUSES as readonly string[]).includes(value);

/** Repeated or comma-separated like the id lists; any value outside the four statuses is a 400 naming status. */
const StatusListSchema = v.optional(
  v.pipe(
    v.string(),
    v.transform((s) => s.split(',').map((x) => x.trim())),
    v.array(v.string()),
    // A check on the whole list, not a picklist per element: the 400 then names `status`, not `status[2]`.
    v.check((values: string[]) => values.every(isBookingStatus), `status must be one or more of ${STATUS_LIST}.`),
    v.transform((values) => [...new Set(values.filter(isBookingStatus))]),
    v.description(`Comma-separated or repeated; any of ${STATUS_LIST}.`),
  ),
);

const SizeSchema = v.optional(
  pageSizeParam(BOOKINGS_PAGE.maxSize, `Page size, 1–${BOOKINGS_PAGE.maxSize}; default ${BOOKINGS_PAGE.defaultSize}. Never clamped: above the maximum is 400.`),
);

export const BookingsQuerySchema = v.strictObject({
  bookingIds: v.pipe(
    idList('bookingIds'),
    v.description(`Property-system booking ids (the bookingId of a row); comma-separated or repeated; at most ${MAX_BOOKING_IDS}.`),
  ),
  externalBookingIds: v.pipe(
    idList('externalBookingIds'),
    v.description(
      `Your own references from POST /v1/bookings; comma-separated or repeated; at most ${MAX_BOOKING_IDS}. The way to find a booking whose bookingId is still null.`,
    ),
  ),
  status: StatusListSchema,
  checkInFrom: dateParam('checkInFrom', 'Check-in on or after this date.'),
  checkInTo: dateParam('checkInTo', `Check-in on or before this date; with checkInFrom, a window of at most ${MAX_WINDOW_DATES} dates.`),
  updatedSince: v.optional(
    v.pipe(
      instantSchema('updatedSince'),
      v.description(`Only bookings updated at or after this instant. Pass the latest updatedAt you hold to poll for changes. ${HORIZON_NOTE}`),
    ),
  ),
  cursor: v.optional(
    v.pipe(v.string(), v.minLength(1, 'cursor must not be empty.'), v.description('nextCursor of the previous page, unchanged, with the same filters.')),
  ),
  size: SizeSchema,
});

export const BookingIdParamsSchema = v.object({
  bookingId: v.pipe(v.string(), v.minLength(1, 'bookingId must not be empty.'), v.maxLength(64, 'bookingId is at most 64 characters.')),
});

const rowFields = {
  bookingId: v.pipe(v.nullable(v.string()), v.description("The property system's booking id; null until the booking lands (PROCESSING, FAILED).")),
  externalBookingId: v.pipe(v.string(), v.description('Your reference from POST /v1/bookings.')),
  code: v.pipe(v.string(), v.description('Short human code, present from the start.')),
  status: v.picklist(BOOKING_STATUSES),
  checkIn: v.string(),
  checkOut: v.string(),
  totalAmount: v.pipe(Money, v.description('The grand total booked on credit.')),
  outstandingAmount: v.pipe(
    Money,
    v.description(
      'Still owed for this booking: CONFIRMED, total less paid; CANCELLED, total less the refund less paid; PROCESSING and FAILED, 0 (nothing is posted).',
    ),
  ),
  paidAmount: v.pipe(Money, v.description('Paid against this booking; payments are made against invoices, so this is 0 until invoices are paid.')),
  createdAt: DateTimeSchema,
  updatedAt: v.pipe(DateTimeSchema, v.description('Last change: the position in the feed. Pass the latest you hold as updatedSince.')),
};

export const BookingRowSchema = v.object(rowFields);

const GuestSchema = v.object({
  guestId: v.optional(v.string()),
  salutation: v.optional(v.string()),
  firstName: v.string(),
  lastName: v.optional(v.string()),
  email: v.optional(v.string()),
  phone: v.optional(v.string()),
  countryCode: v.optional(v.string()),
  city: v.optional(v.string()),
  dob: v.optional(v.string()),
  anniversary: v.optional(v.string()),
  position: v.optional(v.number()),
});

/** One amendment as the booking detail lists it. */
const AmendmentSummarySchema = v.object({
  amendmentId: v.string(),
  status: v.picklist(['PENDING', 'APPLIED', 'REFUSED', 'COMPENSATING', 'COMPENSATED']),
  before: v.object({ checkIn: v.string(), checkOut: v.string(), total: Money }),
  after: v.object({ checkIn: v.string(), checkOut: v.string(), total: Money }),
  previousTotal: Money,
  newTotal: Money,
  delta: Money,
  amendmentDelta: Money,
  rateDriftAbsorbed: Money,
  failure: v.nullable(v.object({ reasonCode: v.string(), reason: v.string(), failedAt: DateTimeSchema })),
  createdAt: DateTimeSchema,
  appliedAt: v.nullable(DateTimeSchema),
});

export const BookingDetailSchema = v.object({
  ...rowFields,
  listingId: v.string(),
  orderId: v.string(),
  items: v.array(ItemSchema),
  summary: SummarySchema,
  primaryGuest: GuestSchema,
  additionalGuests: v.array(GuestSchema),
  specialRequests: v.nullable(v.string()),
  cancellationPolicy: v.pipe(
    v.array(v.object({ cancelBy: v.string(), refundPercentage: v.number(), label: v.string() })),
    v.description("The policy booked (the item's): the refund a cancellation gets by date."),
  ),
  amendments: v.pipe(
    v.array(AmendmentSummarySchema),
    v.description(
      'Amendments of the booking, oldest first: APPLIED, REFUSED by the channel, or COMPENSATED (a later step failed; failure says why), with the stay and totals before and after.',
    ),
  ),
  failure: v.pipe(
    v.nullable(v.object({ reasonCode: v.picklist(BOOKING_FAILURE_REASONS), reason: v.string(), failedAt: DateTimeSchema })),
    v.description(
      "Why the booking failed; null unless it did: BOOKING_NOT_COMPLETED (the window closed unconfirmed; a booking that lands late becomes CONFIRMED) or CHANNEL_REFUSED (the property's channel manager refused the reservation; final).",
    ),
  ),
  cancellation: v.pipe(
    v.nullable(v.object({ cancelledAt: DateTimeSchema, reason: v.nullable(v.string()), refundPercentage: v.number(), refundAmount: Money })),
    v.description('What the cancellation did; null unless cancelled.'),
  ),
  callbacks: v.pipe(
    v.array(
      v.object({
        eventId: v.string(),
        eventType: v.string(),
        status: v.picklist(['PENDING', 'SUCCEEDED', 'FAILED']),
        attempts: v.array(
          v.object({
            attempt: v.number(),
            at: DateTimeSchema,
            outcome: v.string(),
            statusCode: v.optional(v.number()),
            error: v.optional(v.string()),
            durationMs: v.number(),
          }),
        ),
        nextAttemptAt: v.nullable(DateTimeSchema),
        failureReason: v.nullable(v.string()),
        createdAt: DateTimeSchema,
      }),
    ),
    v.description(
      'Every signed callback sent to your callbackUrl for this booking, oldest first, with each attempt (time, status code or error, duration). Empty without a callbackUrl.',
    ),
  ),
});

export const listBookingsRoute = defineRoute({
  operationId: 'listBookings',
  method: 'GET',
  path: '/v1/bookings',
  auth: 'v1',
  summary: "Your agent group's bookings",
  description: [
    "Your agent group's bookings ordered by updatedAt (then an internal id); another group's bookings are never returned, even with the same externalBookingId.",
    'All filters combine with AND, the two id lists too. Unknown ids are simply absent.',
    'To follow outcomes, store the latest updatedAt you have seen and ask with updatedSince; follow nextCursor until it is null.',
    'A booking that changes while you page moves to the end of the feed and is returned again on a later page.',
    'nextCursor is null when nothing can follow. A page may hold fewer rows than size (even none) and still carry a cursor when a filter matched little of what was read.',
    'A cursor is bound to your key and to every filter; a malformed, altered or foreign cursor is 400 naming cursor. size may change between pages.',
  ].join(' '),
  tags: TAG,
  query: BookingsQuerySchema,
  responses: {
    200: { description: 'One page.', schema: v.object({ data: v.array(BookingRowSchema), nextCursor: v.nullable(v.string()) }) },
    ...AUTHENTICATED_ERRORS,
  },
});

export const getBookingRoute = defineRoute({
  operationId: 'getBooking',
  method: 'GET',
  path: '/v1/bookings/{bookingId}',
  auth: 'v1',
  summary: 'One booking with its items, guests and policy',
  description:
    "By the property system's bookingId, so only landed bookings (bookingId not null) can be read here; find others with GET /v1/bookings?externalBookingIds=…. Another group's booking is 404, exactly like an unknown id.",
  tags: TAG,
  params: BookingIdParamsSchema,
  responses: {
    200: { description: 'The booking.', schema: BookingDetailSchema },
    404: { description: 'No such booking in your agent group.', schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

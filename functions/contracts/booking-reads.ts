import * as v from 'valibot';
import { HORIZON_NOTE } from '../../domain/catalogue/calendar.ts';
import { BOOKING_FAILURE_REASONS, BOOKING_STATUSES, type BookingStatus } from '../../domain/bookings/booking.ts';
import { BOOKINGS_PAGE, MAX_BOOKING_IDS } from '../../domain/bookings/read-bookings.ts';
import { MAX_WINDOW_DATES } from '../../domain/reads/date-window.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema, instantSchema, pageSizeParam } from './common.ts';
import { CancellationStepSchema, ItemSchema, SummarySchema } from './orders.ts';
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
  bookingId: v.pipe(
    v.string(),
    v.minLength(1, 'bookingId must not be empty.'),
    v.maxLength(64, 'bookingId is at most 64 characters.'),
    v.description("The property system's booking id (bookingId of a booking row); a booking still PROCESSING has none yet."),
  ),
});

/** What each guest field is, for the booking body and the booking read alike (the contract's Guest record). */
export const GUEST_NOTES = {
  guestId: 'Your own id for the guest, if you have one; kept as given (dropped when the guest is erased).',
  salutation: 'Mr, Ms, Dr and the like, as you write it.',
  firstName: 'Required for every guest.',
  lastName: 'Required for the primary guest.',
  email: 'The primary guest needs an email or a phone; guests of a replay are matched on it (any case).',
  phone: 'Digits, spaces, brackets or dashes, 5–20 characters; the primary guest needs a phone or an email.',
  countryCode: 'The dialling code of phone, such as +91.',
  city: 'Where the guest lives.',
  dob: 'Date of birth (yyyy-mm-dd), from 1900-01-01.',
  anniversary: 'Wedding anniversary (yyyy-mm-dd), from 1900-01-01.',
  position: "The guest's place in your list of the party, 0–100; kept as given.",
} as const;
const note = <S extends v.GenericSchema>(schema: S, field: keyof typeof GUEST_NOTES) => v.pipe(schema, v.description(GUEST_NOTES[field]));

const rowFields = {
  bookingId: v.pipe(v.nullable(v.string()), v.description("The property system's booking id; null until the booking lands (PROCESSING, FAILED).")),
  externalBookingId: v.pipe(v.string(), v.description('Your reference from POST /v1/bookings.')),
  code: v.pipe(v.string(), v.description('Short human code, present from the start.')),
  status: v.pipe(
    v.picklist(BOOKING_STATUSES),
    v.description('PROCESSING (charge authorized, outcome not known yet), CONFIRMED, FAILED (nothing charged) or CANCELLED.'),
  ),
  checkIn: v.pipe(v.string(), v.description('Arrival date (yyyy-mm-dd), as booked or last amended.')),
  checkOut: v.pipe(v.string(), v.description('Departure date (yyyy-mm-dd), as booked or last amended.')),
  totalAmount: v.pipe(Money, v.description('The grand total booked on credit.')),
  outstandingAmount: v.pipe(
    Money,
    v.description(
      'Still owed for this booking: CONFIRMED, total less paid; CANCELLED, total less the refund less paid; PROCESSING and FAILED, 0 (nothing is posted).',
    ),
  ),
  paidAmount: v.pipe(Money, v.description('Paid against this booking; payments are made against invoices, so this is 0 until invoices are paid.')),
  createdAt: v.pipe(DateTimeSchema, v.description('When the booking was requested.')),
  updatedAt: v.pipe(DateTimeSchema, v.description('Last change: the position in the feed. Pass the latest you hold as updatedSince.')),
};

export const BookingRowSchema = v.object(rowFields);

const GuestSchema = v.object({
  guestId: v.optional(note(v.string(), 'guestId')),
  salutation: v.optional(note(v.string(), 'salutation')),
  firstName: note(v.string(), 'firstName'),
  lastName: v.optional(note(v.string(), 'lastName')),
  email: v.optional(note(v.string(), 'email')),
  phone: v.optional(note(v.string(), 'phone')),
  countryCode: v.optional(note(v.string(), 'countryCode')),
  city: v.optional(note(v.string(), 'city')),
  dob: v.optional(note(v.string(), 'dob')),
  anniversary: v.optional(note(v.string(), 'anniversary')),
  position: v.optional(note(v.number(), 'position')),
});
const StayTotalSchema = (when: string) =>
  v.pipe(
    v.object({
      checkIn: v.pipe(v.string(), v.description(`Arrival date (yyyy-mm-dd) ${when}.`)),
      checkOut: v.pipe(v.string(), v.description(`Departure date (yyyy-mm-dd) ${when}.`)),
      total: v.pipe(Money, v.description(`The booking's total ${when}.`)),
    }),
    v.description(`The stay and total ${when}.`),
  );

/** One amendment as the booking detail lists it. */
const AmendmentSummarySchema = v.object({
  amendmentId: v.pipe(v.string(), v.description('The amendment id POST …/amendments answered with.')),
  status: v.pipe(
    v.picklist(['PENDING', 'APPLIED', 'REFUSED', 'COMPENSATING', 'COMPENSATED']),
    v.description(
      'PENDING while being applied; APPLIED; REFUSED by the channel; COMPENSATING and COMPENSATED when a later step failed and the change is undone.',
    ),
  ),
  before: StayTotalSchema('before the amendment'),
  after: StayTotalSchema('after the amendment'),
  previousTotal: v.pipe(Money, v.description("The booking's total before.")),
  newTotal: v.pipe(Money, v.description("The booking's total after.")),
  delta: v.pipe(Money, v.description('newTotal − previousTotal: the ADJUSTMENT on your ledger, a charge when positive and a refund when negative.')),
  amendmentDelta: v.pipe(Money, v.description("The change itself, at today's rates; newTotal = previousTotal + amendmentDelta.")),
  rateDriftAbsorbed: v.pipe(Money, v.description('Rates that moved since booking (current total − previousTotal), not passed on in either direction.')),
  failure: v.pipe(
    v.nullable(
      v.object({
        reasonCode: v.pipe(v.string(), v.description('Why, stable to switch on.')),
        reason: v.pipe(v.string(), v.description('Why, in words.')),
        failedAt: v.pipe(DateTimeSchema, v.description('When it failed.')),
      }),
    ),
    v.description('Why the amendment was refused or undone; null otherwise.'),
  ),
  createdAt: v.pipe(DateTimeSchema, v.description('When the amendment was asked for.')),
  appliedAt: v.pipe(v.nullable(DateTimeSchema), v.description('When it was applied; null unless APPLIED.')),
});

export const BookingDetailSchema = v.object({
  ...rowFields,
  listingId: v.pipe(v.string(), v.description('The listing booked.')),
  orderId: v.pipe(v.string(), v.description('The order booked.')),
  items: v.pipe(v.array(ItemSchema), v.description("The order's items as booked (after amendments).")),
  summary: SummarySchema,
  primaryGuest: v.pipe(GuestSchema, v.description('The guest the booking is in the name of.')),
  additionalGuests: v.pipe(v.array(GuestSchema), v.description('The rest of the party, as submitted and added by replays.')),
  specialRequests: v.pipe(v.nullable(v.string()), v.description('Your free-text requests for the property; null without.')),
  cancellationPolicy: v.pipe(v.array(CancellationStepSchema), v.description("The policy booked (the item's): the refund a cancellation gets by date.")),
  amendments: v.pipe(
    v.array(AmendmentSummarySchema),
    v.description(
      'Amendments of the booking, oldest first: APPLIED, REFUSED by the channel, or COMPENSATED (a later step failed; failure says why), with the stay and totals before and after.',
    ),
  ),
  failure: v.pipe(
    v.nullable(
      v.object({
        reasonCode: v.pipe(v.picklist(BOOKING_FAILURE_REASONS), v.description('Why, stable to switch on.')),
        reason: v.pipe(v.string(), v.description('Why, in words.')),
        failedAt: v.pipe(DateTimeSchema, v.description('When the booking failed.')),
      }),
    ),
    v.description(
      "Why the booking failed; null unless it did: BOOKING_NOT_COMPLETED (the window closed unconfirmed; a booking that lands late becomes CONFIRMED) or CHANNEL_REFUSED (the property's channel manager refused the reservation; final).",
    ),
  ),
  cancellation: v.pipe(
    v.nullable(
      v.object({
        cancelledAt: v.pipe(DateTimeSchema, v.description('When it was cancelled.')),
        reason: v.pipe(v.nullable(v.string()), v.description('The reason given with the cancellation; null without.')),
        refundPercentage: v.pipe(v.number(), v.description('The refund percentage of the policy step in force that day.')),
        refundAmount: v.pipe(Money, v.description('Credited back (a REFUND entry on your ledger).')),
      }),
    ),
    v.description('What the cancellation did; null unless cancelled.'),
  ),
  callbacks: v.pipe(
    v.array(
      v.object({
        eventId: v.pipe(v.string(), v.description('The callback id, sent as X-Service-Event-Id; the same on every attempt.')),
        eventType: v.pipe(v.string(), v.description('booking.confirmed, booking.failed, booking.cancelled and the like (docs/callbacks.md).')),
        status: v.pipe(
          v.picklist(['PENDING', 'SUCCEEDED', 'FAILED']),
          v.description('PENDING while attempts remain, SUCCEEDED once you answered 2xx, FAILED when the attempts ran out.'),
        ),
        attempts: v.pipe(
          v.array(
            v.object({
              attempt: v.pipe(v.number(), v.description('1 for the first attempt.')),
              at: v.pipe(DateTimeSchema, v.description('When it was sent.')),
              outcome: v.pipe(
                v.string(),
                v.description(
                  'success (2xx), retryable (tried again later), permanent (not retried), redirect (a 3xx, not followed) or blocked (the address was refused).',
                ),
              ),
              statusCode: v.optional(v.pipe(v.number(), v.description('The status your endpoint answered, when it answered.'))),
              error: v.optional(v.pipe(v.string(), v.description('What went wrong when no answer came.'))),
              durationMs: v.pipe(v.number(), v.description('Milliseconds until the answer or the failure.')),
            }),
          ),
          v.description('Every attempt, oldest first.'),
        ),
        nextAttemptAt: v.pipe(v.nullable(DateTimeSchema), v.description('When the next attempt is due; null when none is.')),
        failureReason: v.pipe(v.nullable(v.string()), v.description('Why the callback failed for good; null unless FAILED.')),
        createdAt: v.pipe(DateTimeSchema, v.description('When the callback was raised.')),
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
    200: {
      description: 'One page.',
      schema: v.object({
        data: v.pipe(v.array(BookingRowSchema), v.description('The bookings of this page, by updatedAt.')),
        nextCursor: v.pipe(v.nullable(v.string()), v.description('Pass as cursor for the next page; null when nothing can follow.')),
      }),
    },
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

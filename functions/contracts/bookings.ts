import * as v from 'valibot';
import { BOOKING_STATUSES } from '../../domain/bookings/booking.ts';
import { BOOKING_SCENARIOS } from '../../domain/sandbox/workflow-scenarios.ts';
import { isCalendarDate, PERSONAL_DATE_RULE, PERSONAL_HORIZON } from '../../domain/catalogue/calendar.ts';
import { parseRupees } from '../../domain/money.ts';
import { defineRoute } from '../http/route.ts';
import { BookingIdParamsSchema, GUEST_NOTES } from './booking-reads.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema } from './common.ts';
import { UnavailableNightSchema } from './orders.ts';

const TAG = ['Bookings'];

/** Limits of the booking body beyond the contract's externalBookingId ≤ 64. */
export const BOOKING_LIMITS = {
  externalBookingId: 64,
  additionalGuests: 50,
  specialRequests: 2000,
  callbackUrl: 2048,
  name: 100,
  email: 254,
} as const;

const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty.'), v.maxLength(max, `must be at most ${max} characters.`));
const PersonalDateSchema = v.pipe(
  v.string(),
  v.check((d) => isCalendarDate(d, PERSONAL_HORIZON), `must be ${PERSONAL_DATE_RULE}.`),
);

const note = <S extends v.GenericSchema>(schema: S, field: keyof typeof GUEST_NOTES) => v.pipe(schema, v.description(GUEST_NOTES[field]));

const guestFields = {
  guestId: v.optional(note(text(100), 'guestId')),
  salutation: v.optional(note(text(20), 'salutation')),
  firstName: note(text(BOOKING_LIMITS.name), 'firstName'),
  lastName: v.optional(note(text(BOOKING_LIMITS.name), 'lastName')),
  email: v.optional(
    note(
      v.pipe(
        v.string(),
        v.trim(),
        v.maxLength(BOOKING_LIMITS.email, `must be at most ${BOOKING_LIMITS.email} characters.`),
        v.email('must be an email address.'),
      ),
      'email',
    ),
  ),
  phone: v.optional(
    note(
      v.pipe(v.string(), v.trim(), v.regex(/^\+?[0-9][0-9 ()-]{4,19}$/, 'must be a phone number: digits, spaces, brackets or dashes, 5–20 characters.')),
      'phone',
    ),
  ),
  countryCode: v.optional(note(v.pipe(v.string(), v.trim(), v.regex(/^\+?[0-9]{1,4}$/, 'must be a dialling code such as +91.')), 'countryCode')),
  city: v.optional(note(text(BOOKING_LIMITS.name), 'city')),
  dob: v.optional(note(PersonalDateSchema, 'dob')),
  anniversary: v.optional(note(PersonalDateSchema, 'anniversary')),
  position: v.optional(
    note(v.pipe(v.number(), v.integer('must be a whole number.'), v.minValue(0, 'must be at least 0.'), v.maxValue(100, 'must be at most 100.')), 'position'),
  ),
};

/** Additional guests need a first name (docs/product-rules.md "Bookings"). */
export const GuestSchema = v.strictObject(guestFields);

/** The primary guest needs firstName, lastName and at least one of email or phone. */
export const PrimaryGuestSchema = v.pipe(
  v.strictObject({ ...guestFields, lastName: note(text(BOOKING_LIMITS.name), 'lastName') }),
  v.forward(
    v.partialCheck([['email'], ['phone']], (g) => g.email !== undefined || g.phone !== undefined, 'the primary guest needs an email or a phone.'),
    ['email'],
  ),
  v.description('The guest the booking is in the name of: firstName, lastName and an email or a phone.'),
);

const RupeesSchema = v.pipe(
  v.number(),
  v.check((n) => parseRupees(n) !== undefined, 'must be an amount in rupees with at most two decimals.'),
  v.minValue(0.01, 'must be positive.'),
);

export const BookingBodySchema = v.strictObject({
  orderId: v.pipe(v.string(), v.uuid('must be the UUID of one of your orders.'), v.description('The order to book (POST /v1/orders); it is priced again now.')),
  externalBookingId: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty.'),
    v.maxLength(BOOKING_LIMITS.externalBookingId, `must be at most ${BOOKING_LIMITS.externalBookingId} characters.`),
    v.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces.'),
    v.description('Your idempotency key, unique in your agent group. The same key with identical contents replays; with other contents it is a 409.'),
  ),
  acceptedTotal: v.pipe(
    RupeesSchema,
    v.description("The order's grandTotal you accept, in rupees; a different current total is a 409 with expectedTotal and breakup."),
  ),
  primaryGuest: PrimaryGuestSchema,
  additionalGuests: v.optional(
    v.pipe(
      v.array(GuestSchema),
      v.maxLength(BOOKING_LIMITS.additionalGuests, `may hold at most ${BOOKING_LIMITS.additionalGuests} guests.`),
      v.description(`The rest of the party, at most ${BOOKING_LIMITS.additionalGuests}; each needs a firstName.`),
    ),
  ),
  specialRequests: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(BOOKING_LIMITS.specialRequests, `must be at most ${BOOKING_LIMITS.specialRequests} characters.`),
      v.description('Free text for the property (late arrival, cot, diet).'),
    ),
  ),
  callbackUrl: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(BOOKING_LIMITS.callbackUrl, `must be at most ${BOOKING_LIMITS.callbackUrl} characters.`),
      v.url('must be an absolute https URL.'),
      v.description('https, resolving only to public addresses; checked now (400 otherwise). Terminal outcomes are POSTed here, signed (docs/callbacks.md).'),
    ),
  ),
});
export type BookingBody = v.InferOutput<typeof BookingBodySchema>;

export const BookingReplySchema = v.object({
  bookingId: v.pipe(v.nullable(v.string()), v.description("The property system's booking id; null while PROCESSING (and for a booking that failed).")),
  externalBookingId: v.pipe(v.string(), v.description('Your reference, as sent.')),
  status: v.pipe(
    v.picklist(['CREATED', 'ALREADY_EXISTS', 'PROCESSING']),
    v.description('CREATED (booked now), ALREADY_EXISTS (a replay of a resolved booking) or PROCESSING (the outcome is not known yet).'),
  ),
  bookingStatus: v.pipe(v.picklist(BOOKING_STATUSES), v.description("Our extension: the booking's own status, so a replay tells CONFIRMED from FAILED.")),
  code: v.pipe(v.string(), v.description('Our booking code, shown on booking rows from the start.')),
  chargedAmount: v.pipe(v.number(), v.description('Rupees authorized (PROCESSING) or posted (CONFIRMED) on credit; 0 once a failure released it.')),
  availableCreditAfter: v.pipe(v.number(), v.description('Rupees of credit left after this booking (live, for a replay).')),
});

const SCENARIOS = ['price-moved', ...BOOKING_SCENARIOS] as const;
export const BOOKING_SCENARIO_VALUES = SCENARIOS;

/** A credit refusal (402): the error body with why and the credit at the moment of decision; bookings and amendment increases alike. */
export const CreditDeniedSchema = v.object({
  ...ErrorBodySchema.entries,
  reasonCode: v.pipe(
    v.picklist(['CREDIT_LIMIT_EXCEEDED', 'ACCOUNT_ON_HOLD']),
    v.description(
      "CREDIT_LIMIT_EXCEEDED: the charge is more than the credit available. ACCOUNT_ON_HOLD: an invoice is overdue beyond your group's hold period; on hold until it is paid.",
    ),
  ),
  shortfall: v.optional(v.pipe(v.number(), v.description('CREDIT_LIMIT_EXCEEDED only: rupees the charge exceeds the available credit by.'))),
  availableCredit: v.pipe(v.number(), v.description('Rupees of credit available at the moment of decision.')),
});

const PriceMovedSchema = v.object({
  ...ErrorBodySchema.entries,
  expectedTotal: v.optional(
    v.pipe(v.number(), v.description('PRICE_MOVED only: the grandTotal the order has now, in rupees; send it as acceptedTotal to accept it.')),
  ),
  breakup: v.optional(v.pipe(v.record(v.string(), v.unknown()), v.description("PRICE_MOVED only: the order's current summary, figure by figure."))),
  unavailableNights: v.optional(
    v.pipe(
      v.array(UnavailableNightSchema),
      v.description("SOLD_OUT only: every rule that stops the stay from selling, per property and night (as in the order's items)."),
    ),
  ),
});

export const createBookingRoute = defineRoute({
  operationId: 'createBooking',
  method: 'POST',
  idempotencyKey: true,
  path: '/v1/bookings',
  auth: 'v1',
  summary: 'Book an order on credit',
  description: [
    'Re-prices the order; only if it still totals `acceptedTotal` does the credit gate run. The gate authorizes the charge, records your externalBookingId and keeps exposure within the limit in one step, then the booking is placed with the property.',
    'Resolved within a few seconds: 200 CREATED with bookingId. Otherwise 202 PROCESSING with bookingId null: poll `GET /v1/bookings?externalBookingIds=…`, re-POST the identical request, or wait for the signed callback.',
    'A replay with identical contents is 200 ALREADY_EXISTS (202 PROCESSING while unresolved) and charges nothing again; guests are matched on phone or email, never edited, and only new ones are added.',
    `Sandbox stages only: header \`X-Test-Scenario\` (${SCENARIOS.join(', ')}) forces a moved price, a booking that resolves after the call returns, a failure, or a late landing (docs/sandbox.md); production ignores it.`,
  ].join('\n\n'),
  tags: TAG,
  body: BookingBodySchema,
  responses: {
    200: { description: 'CREATED, or ALREADY_EXISTS for a replay of a resolved booking.', schema: BookingReplySchema },
    202: { description: 'PROCESSING: the charge is authorized, the outcome not known yet; bookingId is null.', schema: BookingReplySchema },
    ...AUTHENTICATED_ERRORS,
    402: {
      description:
        'Credit refused: reasonCode CREDIT_LIMIT_EXCEEDED (with shortfall) or ACCOUNT_ON_HOLD, and availableCredit at the moment of decision. Nothing was written.',
      schema: CreditDeniedSchema,
    },
    404: { description: "No such order in your agent group (another group's order reads the same).", schema: ErrorBodySchema },
    409: {
      description:
        'PRICE_MOVED: the order no longer totals acceptedTotal (expectedTotal and breakup present). CONFLICT: externalBookingId already used with other contents (no expectedTotal). SOLD_OUT: a night can no longer be sold; the message names the rule (minimum stay, stop-sell, closed to arrival, …) and `unavailableNights` lists them.',
      schema: PriceMovedSchema,
      codes: ['PRICE_MOVED', 'CONFLICT', 'SOLD_OUT'],
    },
  },
});

/** The body is optional: no body (or `{}`) cancels without a reason. */
export const CancelBodySchema = v.optional(
  v.strictObject({
    reason: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(500, 'must be at most 500 characters.'),
        v.description('Free text, kept with the cancellation and sent in booking.cancelled.'),
      ),
    ),
  }),
);

const CancellationSchema = v.object({
  cancelledAt: v.pipe(DateTimeSchema, v.description('When it was cancelled (the first cancellation, on a repeat).')),
  reason: v.pipe(v.nullable(v.string()), v.description('The reason given; null without.')),
  refundPercentage: v.pipe(v.number(), v.description('The refund percentage of the policy step in force on the day (India).')),
  refundAmount: v.pipe(v.number(), v.description('Rupees credited back (a REFUND entry on your ledger).')),
});

export const CancelReplySchema = v.object({
  bookingId: v.pipe(v.string(), v.description("The property system's booking id.")),
  externalBookingId: v.pipe(v.string(), v.description('Your reference from POST /v1/bookings.')),
  status: v.pipe(v.literal('CANCELLED'), v.description('Always CANCELLED.')),
  chargedAmount: v.pipe(v.number(), v.description('Rupees the booking charged, amendments included, before the refund.')),
  cancellation: v.pipe(CancellationSchema, v.description('What the cancellation did.')),
  alreadyCancelled: v.pipe(v.boolean(), v.description('True when this call found the booking already cancelled and changed nothing.')),
});

const STATE_CONFLICT = {
  409: {
    description:
      'CONFLICT: the booking cannot be cancelled (its stay has begun, or an amendment is being applied). CHANNEL_REFUSED: the channel manager refused the cancellation; nothing changed.',
    schema: ErrorBodySchema,
    codes: ['CONFLICT', 'CHANNEL_REFUSED'],
  },
} as const;
const NOT_FOUND = { 404: { description: "No such booking in your agent group (another group's booking reads the same).", schema: ErrorBodySchema } };

export const cancelBookingRoute = defineRoute({
  operationId: 'cancelBooking',
  method: 'POST',
  path: '/v1/bookings/{bookingId}/cancel',
  auth: 'v1',
  summary: 'Cancel a confirmed booking',
  description:
    "Refunds per the booking's cancellation policy on today's date (India), as GET …/cancellation-quote shows; the refund is a REFUND entry on your ledger, and booking.cancelled is sent to the callbackUrl. Cancelling a cancelled booking returns the first cancellation again.",
  tags: TAG,
  params: BookingIdParamsSchema,
  body: CancelBodySchema,
  bodyOptional: true,
  responses: { 200: { description: 'The booking is cancelled.', schema: CancelReplySchema }, ...AUTHENTICATED_ERRORS, ...NOT_FOUND, ...STATE_CONFLICT },
});

export const CancellationQuoteSchema = v.object({
  bookingId: v.pipe(v.string(), v.description("The property system's booking id.")),
  status: v.pipe(v.picklist(BOOKING_STATUSES), v.description("The booking's status now.")),
  cancellable: v.pipe(v.boolean(), v.description('Whether a cancellation now would be accepted; reason says why not.')),
  reason: v.pipe(v.nullable(v.string()), v.description('Why not, when not cancellable.')),
  chargedAmount: v.pipe(v.number(), v.description('Rupees the booking charged, amendments included.')),
  refundPercentage: v.pipe(v.number(), v.description('The refund percentage a cancellation today (India) would get.')),
  refundAmount: v.pipe(v.number(), v.description('Rupees a cancellation today would credit back.')),
  appliesUntil: v.pipe(v.nullable(v.string()), v.description('The policy step in force: cancel on or before this date for this refund.')),
  label: v.pipe(v.nullable(v.string()), v.description('The policy step in force, in words; null when not cancellable.')),
  quotedAt: v.pipe(DateTimeSchema, v.description('When this quote was made.')),
});

export const cancellationQuoteRoute = defineRoute({
  operationId: 'getCancellationQuote',
  method: 'GET',
  path: '/v1/bookings/{bookingId}/cancellation-quote',
  auth: 'v1',
  summary: 'What cancelling now would refund',
  description: "Our extension: the refund a cancellation today would give under the booking's cancellation policy. Changes nothing.",
  tags: TAG,
  params: BookingIdParamsSchema,
  responses: { 200: { description: 'The quote.', schema: CancellationQuoteSchema }, ...AUTHENTICATED_ERRORS, ...NOT_FOUND },
});

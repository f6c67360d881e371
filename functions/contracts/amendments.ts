import * as v from 'valibot';
import { HORIZON_NOTE } from '../../domain/catalogue/calendar.ts';
import { AMENDMENT_SCENARIOS } from '../../domain/bookings/amendment.ts';
import { defineRoute } from '../http/route.ts';
import { BookingIdParamsSchema } from './booking-reads.ts';
import { BOOKING_LIMITS, GuestSchema } from './bookings.ts';
import { AUTHENTICATED_ERRORS, ErrorBodySchema } from './common.ts';
import { count, DateSchema, list, MealSelectionSchema, ORDER_LIMITS, VasSelectionSchema } from './orders.ts';

const TAG = ['Amendments'];

/**
 * The body of both amendment operations: every field optional, omitted = unchanged. A list
 * given replaces the booking's wholesale ([] clears it); a scalar given as null is refused
 * by name, as is any unknown field.
 */
export const AmendmentBodySchema = v.strictObject({
  checkIn: v.optional(v.pipe(DateSchema, v.description(`New check-in: tomorrow (India) or later. ${HORIZON_NOTE}`))),
  checkOut: v.optional(v.pipe(DateSchema, v.description(`New check-out: after checkIn. ${HORIZON_NOTE}`))),
  adults: v.optional(v.pipe(count(1, ORDER_LIMITS.guests), v.description('At least 1.'))),
  children: v.optional(count(0, ORDER_LIMITS.guests)),
  infants: v.optional(count(0, ORDER_LIMITS.guests)),
  meals: v.optional(
    v.pipe(
      list(MealSelectionSchema, ORDER_LIMITS.selections),
      v.description("Replaces the meals; [] clears them. Left out while the dates move: the booking's meals follow the stay (see the operation)."),
    ),
  ),
  vas: v.optional(
    v.pipe(
      list(VasSelectionSchema, ORDER_LIMITS.selections),
      v.description(
        "Replaces the value-added services; [] clears them. Left out while the dates move: the booking's services follow the stay (see the operation).",
      ),
    ),
  ),
  guests: v.optional(
    v.pipe(
      v.array(GuestSchema),
      v.maxLength(BOOKING_LIMITS.additionalGuests, `may hold at most ${BOOKING_LIMITS.additionalGuests} guests.`),
      v.description(
        'Replaces the additional guests (each needs firstName); [] clears them. The primary guest is not changed here. Changes neither price nor availability.',
      ),
    ),
  ),
});
export type AmendmentBody = v.InferOutput<typeof AmendmentBodySchema>;

const Money = v.pipe(v.number(), v.description('Rupees, at most two decimals.'));
const BreakdownSchema = v.pipe(
  v.object({ stay: Money, discount: Money, meals: Money, vas: Money, tax: Money, total: Money }),
  v.description('stay − discount + meals + vas + tax = total, exactly.'),
);

/** Whether the amended stay's nights are open: in a quote, and in an apply's 409 NOT_AMENDABLE (reasonCode UNAVAILABLE). */
const AmendmentAvailabilitySchema = v.object({
  status: v.picklist(['AVAILABLE', 'PARTIALLY_AVAILABLE', 'UNAVAILABLE']),
  nightsRequested: v.number(),
  unavailableNights: v.array(v.string()),
  shortfalls: v.array(v.object({ date: v.string(), propertyId: v.string(), requiredUnits: v.number(), availableUnits: v.number() })),
  minimumStayViolations: v.array(v.object({ propertyId: v.string(), minimumNights: v.number(), requestedNights: v.number() })),
});

export const AmendmentEvaluationSchema = v.object({
  bookingId: v.string(),
  amendable: v.boolean(),
  reason: v.pipe(
    v.nullable(v.picklist(['UNAVAILABLE', 'MINIMUM_STAY', 'NO_CHANGE', 'CHANNEL_CANNOT_MODIFY', 'INVOICED'])),
    v.description('Why not, when amendable is false; null otherwise.'),
  ),
  checkIn: DateSchema,
  checkOut: DateSchema,
  availability: AmendmentAvailabilitySchema,
  pricing: v.pipe(
    v.nullable(
      v.object({ currency: v.literal('INR'), current: BreakdownSchema, amended: BreakdownSchema, delta: BreakdownSchema, warnings: v.array(v.string()) }),
    ),
    v.description(
      "null unless availability is AVAILABLE. current: the booked stay at today's rates; amended: the amended stay at today's rates; delta = amended − current.",
    ),
  ),
  chargedTotal: v.pipe(
    Money,
    v.description(
      'What you have been charged for the booking so far (charge plus earlier adjustments); pricing.current.total − chargedTotal is the rate drift.',
    ),
  ),
  guests: v.pipe(v.array(v.record(v.string(), v.unknown())), v.description('Our extension: the additional guests as they would stand, echoed.')),
});

export const AmendmentAppliedSchema = v.object({
  bookingId: v.string(),
  amendmentId: v.pipe(v.string(), v.uuid()),
  checkIn: DateSchema,
  checkOut: DateSchema,
  previousTotal: v.pipe(Money, v.description('chargedTotal before the amendment.')),
  newTotal: v.pipe(Money, v.description('previousTotal + amendmentDelta: what you are charged for the booking now.')),
  delta: v.pipe(Money, v.description('newTotal − previousTotal: the ADJUSTMENT on your ledger (none when 0).')),
  amendmentDelta: v.pipe(Money, v.description("pricing.delta.total: the change at today's rates.")),
  rateDriftAbsorbed: v.pipe(Money, v.description('pricing.current.total − previousTotal: rate movement since booking, not passed on.')),
  warnings: v.array(v.string()),
  alreadyApplied: v.pipe(v.boolean(), v.description('True when this is an identical resend of an applied amendment: nothing moved again.')),
});

const RefusalSchema = v.object({
  ...ErrorBodySchema.entries,
  reasonCode: v.optional(v.string()),
  amendmentId: v.optional(v.string()),
  availability: v.pipe(
    v.optional(AmendmentAvailabilitySchema),
    v.description('With NOT_AMENDABLE and reasonCode UNAVAILABLE or MINIMUM_STAY: the nights and properties short, as the quote shows them.'),
  ),
});
const CreditDeniedSchema = v.object({
  ...ErrorBodySchema.entries,
  reasonCode: v.picklist(['CREDIT_LIMIT_EXCEEDED', 'ACCOUNT_ON_HOLD']),
  shortfall: v.optional(v.number()),
  availableCredit: v.number(),
});
/** Moving the dates with meals or services left out (docs/amendments.md "Moving the dates"): partner-visible on both operations. */
const MOVING_DATES =
  "Moving the dates (checkIn or checkOut) without meals or vas keeps the booking's meals and services: a selection with unsureOfDates, or dated on every night of the booked stay, is charged on every night of the new stay (a departure-day serving moves to the new departure day); one dated on some nights stays as it is while its dates lie in the new stay. One with a date the new stay leaves out (or a dateQuantities date the new stay no longer charges) is a 400 whose param names the list to send again with the new dates, meals or vas. A list in the body always replaces the booking's.";
const BAD_REQUEST = {
  400: {
    description:
      'Validation failure; `param` names the offending parameter. A move of the dates that a booked meal or service cannot follow: `param` `meals` or `vas`, the list to restate, and the message names the selection and its dates.',
    schema: ErrorBodySchema,
  },
};
const NOT_FOUND = { 404: { description: "No such booking in your agent group (another group's booking reads the same).", schema: ErrorBodySchema } };
const STATE_CONFLICT = 'CONFLICT with reasonCode BOOKING_CANCELLED, BOOKING_NOT_CONFIRMED, STAY_STARTED (check-in today or earlier, India) or STAY_ENDED.';

export const AMENDMENT_SCENARIO_VALUES = AMENDMENT_SCENARIOS;

export const quoteAmendmentRoute = defineRoute({
  operationId: 'quoteAmendment',
  method: 'PATCH',
  path: '/v1/bookings/{bookingId}',
  auth: 'v1',
  summary: 'Quote an amendment of a booking',
  description: [
    "Read-only: no row, no channel-manager call, no credit. Availability per night with the booking's own units credited back; the booked and the amended stay priced at today's rates through the same pricing as orders; whether the amendment can be made (`amendable`, `reason`).",
    MOVING_DATES,
    '200 means the question was answered: check `amendable`. docs/amendments.md has the rules and a worked money example.',
  ].join('\n\n'),
  tags: TAG,
  params: BookingIdParamsSchema,
  body: AmendmentBodySchema,
  responses: {
    200: { description: 'The quote.', schema: AmendmentEvaluationSchema },
    ...AUTHENTICATED_ERRORS,
    ...BAD_REQUEST,
    ...NOT_FOUND,
    409: { description: `The booking cannot be amended at all: ${STATE_CONFLICT}`, schema: RefusalSchema },
  },
});

export const applyAmendmentRoute = defineRoute({
  operationId: 'applyAmendment',
  method: 'POST',
  path: '/v1/bookings/{bookingId}/amendments',
  auth: 'v1',
  summary: 'Apply an amendment to a booking',
  description: [
    'Same body and refusals as the PATCH, then the change is made: an increase is credit-checked first (402, nothing written, the channel manager never told); the channel manager is told (a refusal is a 409 and nothing changes); the booking, its units and its stay are rewritten in one transaction; the difference is an ADJUSTMENT on your ledger. A failure after the channel step pushes the original stay back and restores the rows; the amendment then shows COMPENSATED in GET /v1/bookings/{bookingId}.',
    MOVING_DATES,
    'Idempotent: an identical resend returns the amendment again with alreadyApplied true and moves no money. Two amendments racing on one booking: one applies, the other is a 409 AMENDMENT_CONFLICT (quote again).',
    `Sandbox stages only: header \`X-Test-Scenario\` (${AMENDMENT_SCENARIOS.join(', ')}) forces a channel refusal or a failure after the channel step (docs/sandbox.md); production ignores it.`,
  ].join('\n\n'),
  tags: TAG,
  params: BookingIdParamsSchema,
  body: AmendmentBodySchema,
  responses: {
    200: { description: 'Applied (or an identical resend of an applied amendment, alreadyApplied true).', schema: AmendmentAppliedSchema },
    ...AUTHENTICATED_ERRORS,
    ...BAD_REQUEST,
    402: {
      description:
        'The increase would breach the credit limit (CREDIT_LIMIT_EXCEEDED with shortfall) or the group is on hold (ACCOUNT_ON_HOLD), with availableCredit. Nothing changed.',
      schema: CreditDeniedSchema,
    },
    ...NOT_FOUND,
    409: {
      description: [
        'NOT_AMENDABLE (reasonCode UNAVAILABLE with availability, MINIMUM_STAY, NO_CHANGE); BOOKING_INVOICED (on an issued invoice: credit note and a fresh booking); CHANNEL_CANNOT_MODIFY (cancel and rebook);',
        'CHANNEL_REFUSED (the channel manager refused; nothing changed); AMENDMENT_CONFLICT (another amendment applied or is in progress, or a night sold meanwhile: quote again); AMENDMENT_FAILED (a step after the channel failed; the original stay was restored);',
        STATE_CONFLICT,
      ].join(' '),
      schema: RefusalSchema,
      codes: ['NOT_AMENDABLE', 'BOOKING_INVOICED', 'CHANNEL_CANNOT_MODIFY', 'CHANNEL_REFUSED', 'AMENDMENT_CONFLICT', 'AMENDMENT_FAILED', 'CONFLICT'],
    },
  },
});

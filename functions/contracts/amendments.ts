import * as v from 'valibot';
import { HORIZON_NOTE } from '../../domain/catalogue/calendar.ts';
import { AMENDMENT_SCENARIOS } from '../../domain/sandbox/workflow-scenarios.ts';
import { defineRoute } from '../http/route.ts';
import { BookingIdParamsSchema } from './booking-reads.ts';
import { BOOKING_LIMITS, CreditDeniedSchema, GuestSchema } from './bookings.ts';
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
  children: v.optional(v.pipe(count(0, ORDER_LIMITS.guests), v.description('The new number of children.'))),
  infants: v.optional(v.pipe(count(0, ORDER_LIMITS.guests), v.description('The new number of infants; free and outside capacity.'))),
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
  v.object({
    stay: v.pipe(Money, v.description('The stay at the channel rates.')),
    discount: v.pipe(Money, v.description('The cancellation-plan discount plus the bank offer.')),
    meals: v.pipe(Money, v.description('The meals.')),
    vas: v.pipe(Money, v.description('The value-added services.')),
    tax: v.pipe(Money, v.description('GST.')),
    total: v.pipe(Money, v.description('stay − discount + meals + vas + tax.')),
  }),
  v.description('stay − discount + meals + vas + tax = total, exactly.'),
);

/** Whether the amended stay's nights are open: in a quote, and in an apply's 409 NOT_AMENDABLE (reasonCode UNAVAILABLE). */
const AmendmentAvailabilitySchema = v.object({
  status: v.pipe(
    v.picklist(['AVAILABLE', 'PARTIALLY_AVAILABLE', 'UNAVAILABLE']),
    v.description(
      'AVAILABLE; PARTIALLY_AVAILABLE (some nights cannot be sold); UNAVAILABLE (none can, or a minimum stay is broken). Never applied to only the nights that fit.',
    ),
  ),
  nightsRequested: v.pipe(v.number(), v.description('Nights of the amended stay.')),
  unavailableNights: v.pipe(v.array(v.string()), v.description('Exactly the nights (yyyy-mm-dd) that cannot be sold.')),
  shortfalls: v.pipe(
    v.array(
      v.object({
        date: v.pipe(v.string(), v.description('The night (yyyy-mm-dd).')),
        propertyId: v.pipe(v.string(), v.description('The property (unit type) short.')),
        requiredUnits: v.pipe(v.number(), v.description('Units the amended stay needs that night.')),
        availableUnits: v.pipe(v.number(), v.description("Units open that night, the booking's own credited back.")),
      }),
    ),
    v.description('Per date and property, where fewer units are open than needed.'),
  ),
  minimumStayViolations: v.pipe(
    v.array(
      v.object({
        propertyId: v.pipe(v.string(), v.description('The property whose minimum stay is broken.')),
        minimumNights: v.pipe(v.number(), v.description('Its minimum stay, in nights.')),
        requestedNights: v.pipe(v.number(), v.description('Nights of the amended stay.')),
      }),
    ),
    v.description('Per property, a minimum stay the amended stay is shorter than.'),
  ),
});

export const AmendmentEvaluationSchema = v.object({
  bookingId: v.pipe(v.string(), v.description("The property system's booking id.")),
  amendable: v.pipe(v.boolean(), v.description('Whether POST …/amendments with this body would be applied now; reason says why not.')),
  reason: v.pipe(
    v.nullable(v.picklist(['UNAVAILABLE', 'MINIMUM_STAY', 'NO_CHANGE', 'CHANNEL_CANNOT_MODIFY', 'INVOICED'])),
    v.description('Why not, when amendable is false; null otherwise.'),
  ),
  checkIn: v.pipe(DateSchema, v.description('Check-in of the amended stay.')),
  checkOut: v.pipe(DateSchema, v.description('Check-out of the amended stay.')),
  availability: v.pipe(AmendmentAvailabilitySchema, v.description("Whether the amended stay's nights are open, the booking's own units credited back first.")),
  pricing: v.pipe(
    v.nullable(
      v.object({
        currency: v.pipe(v.literal('INR'), v.description('ISO 4217; INR.')),
        current: BreakdownSchema,
        amended: BreakdownSchema,
        delta: BreakdownSchema,
        warnings: v.pipe(v.array(v.string()), v.description('An offer that no longer applies to the amended stay is dropped and named here; never an error.')),
      }),
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
  bookingId: v.pipe(v.string(), v.description("The property system's booking id; unchanged by the amendment.")),
  amendmentId: v.pipe(v.string(), v.uuid(), v.description('The amendment id, listed in the booking read.')),
  checkIn: v.pipe(DateSchema, v.description('Check-in of the booking now.')),
  checkOut: v.pipe(DateSchema, v.description('Check-out of the booking now.')),
  previousTotal: v.pipe(Money, v.description('chargedTotal before the amendment.')),
  newTotal: v.pipe(Money, v.description('previousTotal + amendmentDelta: what you are charged for the booking now.')),
  delta: v.pipe(Money, v.description('newTotal − previousTotal: the ADJUSTMENT on your ledger (none when 0).')),
  amendmentDelta: v.pipe(Money, v.description("pricing.delta.total: the change at today's rates.")),
  rateDriftAbsorbed: v.pipe(Money, v.description('pricing.current.total − previousTotal: rate movement since booking, not passed on.')),
  warnings: v.pipe(v.array(v.string()), v.description('What was dropped on the way, such as an offer that no longer applies.')),
  alreadyApplied: v.pipe(v.boolean(), v.description('True when this is an identical resend of an applied amendment: nothing moved again.')),
});

const RefusalSchema = v.object({
  ...ErrorBodySchema.entries,
  reasonCode: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Why, more precisely: with NOT_AMENDABLE UNAVAILABLE, MINIMUM_STAY or NO_CHANGE; with CONFLICT BOOKING_CANCELLED, BOOKING_NOT_CONFIRMED, STAY_STARTED or STAY_ENDED; with AMENDMENT_CONFLICT or AMENDMENT_FAILED the failure reason.',
      ),
    ),
  ),
  amendmentId: v.optional(
    v.pipe(v.string(), v.description('With AMENDMENT_CONFLICT or AMENDMENT_FAILED: the amendment that failed, as the booking read lists it.')),
  ),
  availability: v.pipe(
    v.optional(AmendmentAvailabilitySchema),
    v.description('With NOT_AMENDABLE and reasonCode UNAVAILABLE or MINIMUM_STAY: the nights and properties short, as the quote shows them.'),
  ),
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

import * as v from 'valibot';
import { CALENDAR_DATE_RULE, HORIZON_NOTE, isCalendarDate } from '../../domain/catalogue/calendar.ts';
import { MEAL_PLANS } from '../../domain/catalogue/day.ts';
import { DISCOUNT_TYPES } from '../../domain/catalogue/offers.ts';
import { SANDBOX_SCENARIOS } from '../../domain/sandbox/order-scenarios.ts';
import { MAX_ADD_ON_QUANTITY, MAX_STAY_NIGHTS, MAX_UNITS_PER_PROPERTY, SOLD_OUT_REASONS } from '../../domain/pricing/index.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema } from './common.ts';

const TAG = ['Orders'];

/** Limits of the order body. Pricing enforces capacity; these only bound what one request may carry. */
export const ORDER_LIMITS = {
  /** Per guest count (adults, children, infants, and a meal's adults and children). */
  guests: 100,
  /** Entries in selectedProperties, meals and vas. */
  selections: 50,
  /** Dates in one meal or service selection: every date from check-in to check-out. */
  dates: MAX_STAY_NIGHTS + 1,
  externalRef: 100,
  id: 100,
  bankOfferCode: 32,
} as const;

const Id = (what: string) =>
  v.pipe(v.string(), v.minLength(1, `must be a non-empty ${what} id.`), v.maxLength(ORDER_LIMITS.id, `must be at most ${ORDER_LIMITS.id} characters.`));
export const DateSchema = v.pipe(v.string(), v.check(isCalendarDate, `must be ${CALENDAR_DATE_RULE}.`));
export const count = (min: number, max: number) =>
  v.pipe(v.number(), v.integer('must be a whole number.'), v.minValue(min, `must be at least ${min}.`), v.maxValue(max, `must be at most ${max}.`));
export const list = <S extends v.GenericSchema>(item: S, max: number) => v.pipe(v.array(item), v.maxLength(max, `may hold at most ${max} entries.`));

export const SelectedPropertySchema = v.strictObject({
  propertyId: v.pipe(Id('property'), v.description('A property (unit type) of the listing, as the availability and listing reads name it.')),
  quantity: v.pipe(count(1, MAX_UNITS_PER_PROPERTY), v.description(`Units of this property, 1–${MAX_UNITS_PER_PROPERTY}.`)),
});

export const MealSelectionSchema = v.strictObject({
  mealId: v.pipe(Id('meal'), v.description("One of the listing's meals, as the listing read names it.")),
  dates: v.optional(v.pipe(list(DateSchema, ORDER_LIMITS.dates), v.description('checkIn…checkOut inclusive, no repeats; ignored with unsureOfDates.'))),
  unsureOfDates: v.optional(v.pipe(v.boolean(), v.description('Serve on every night of the stay.'))),
  adults: v.optional(v.pipe(count(0, ORDER_LIMITS.guests), v.description('Default: every adult of the order.'))),
  children: v.optional(v.pipe(count(0, ORDER_LIMITS.guests), v.description('Default: every child of the order.'))),
  chefOnCall: v.optional(v.pipe(v.boolean(), v.description("Add the meal's chef-on-call surcharge once per serving (per date); default false."))),
});

export const VasSelectionSchema = v.strictObject({
  vasId: v.pipe(Id('service'), v.description("One of the listing's value-added services, as the listing read names it.")),
  variantId: v.pipe(Id('variant'), v.description('The variant of that service to buy (its price and charging basis: per stay, per night or per unit).')),
  dates: v.optional(
    v.pipe(
      list(DateSchema, ORDER_LIMITS.dates),
      v.description('Dates (yyyy-mm-dd) within the stay, no repeats; needed for per-night and per-unit services unless unsureOfDates.'),
    ),
  ),
  unsureOfDates: v.optional(
    v.pipe(v.boolean(), v.description('Dates not known yet: a per-night service is charged every night of the stay, a per-unit one once, undated.')),
  ),
  quantity: v.optional(v.pipe(count(0, MAX_ADD_ON_QUANTITY), v.description(`Default 1; 0–${MAX_ADD_ON_QUANTITY}.`))),
  dateQuantities: v.optional(
    v.pipe(
      list(
        v.strictObject({
          date: v.pipe(DateSchema, v.description('One of the dates the selection is charged on; no repeats.')),
          quantity: v.pipe(count(0, MAX_ADD_ON_QUANTITY), v.description(`The quantity on that date, 0–${MAX_ADD_ON_QUANTITY}.`)),
        }),
        ORDER_LIMITS.dates,
      ),
      v.description('Per-date quantities that override `quantity` on their dates.'),
    ),
  ),
});

/** The body of POST /v1/orders and POST /v1/orders/preview. Unknown fields are refused by name. */
export const OrderBodySchema = v.pipe(
  v.strictObject({
    listingId: v.pipe(Id('listing'), v.description('A listing sold on your channel; any other id is a 400 naming listingId.')),
    checkIn: v.pipe(DateSchema, v.description(`Today (India) or later. ${HORIZON_NOTE}`)),
    checkOut: v.pipe(DateSchema, v.description(`After checkIn; at most ${MAX_STAY_NIGHTS} nights. ${HORIZON_NOTE}`)),
    adults: v.optional(v.pipe(count(1, ORDER_LIMITS.guests), v.description('Default 1.'))),
    children: v.optional(v.pipe(count(0, ORDER_LIMITS.guests), v.description('Default 0.'))),
    infants: v.optional(v.pipe(count(0, ORDER_LIMITS.guests), v.description('Default 0; free and outside capacity.'))),
    selectedProperties: v.optional(
      v.pipe(
        list(SelectedPropertySchema, ORDER_LIMITS.selections),
        v.description('Omit or empty for a listing-level booking: the units are chosen for the party.'),
      ),
    ),
    mealPlan: v.optional(
      v.pipe(
        v.picklist(MEAL_PLANS, `must be one of ${MEAL_PLANS.join(', ')}.`),
        v.description('Our extension: the occupancy rate plan; default EP (room only).'),
      ),
    ),
    meals: v.optional(v.pipe(list(MealSelectionSchema, ORDER_LIMITS.selections), v.description('Meals to add to the stay; not channel-adjusted.'))),
    vas: v.optional(
      v.pipe(list(VasSelectionSchema, ORDER_LIMITS.selections), v.description('Value-added services (transfers, experiences) to add; not channel-adjusted.')),
    ),
    bankOfferCode: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1, 'must not be empty.'),
        v.maxLength(ORDER_LIMITS.bankOfferCode, `must be at most ${ORDER_LIMITS.bankOfferCode} characters.`),
        v.description('An offer on your channel; wins over applyBestBankOffer. Unknown, off-channel or ineligible: 400.'),
      ),
    ),
    applyBestBankOffer: v.optional(v.pipe(v.boolean(), v.description('Pick the richest eligible offer on your channel; none eligible: no offer, no error.'))),
    cancellationPlanId: v.optional(v.pipe(Id('cancellation plan'), v.description("One of the listing's plans; default its default plan."))),
    externalRef: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(ORDER_LIMITS.externalRef, `must be at most ${ORDER_LIMITS.externalRef} characters.`),
        v.description('Display name only; never used for lookup.'),
      ),
    ),
  }),
  v.forward(
    v.partialCheck([['checkIn'], ['checkOut']], (b) => b.checkOut > b.checkIn, 'must be after checkIn.'),
    ['checkOut'],
  ),
);
export type OrderBody = v.InferOutput<typeof OrderBodySchema>;

export const OrderIdParamsSchema = v.object({
  orderId: v.pipe(v.string(), v.uuid('must be a UUID.'), v.description('The orderId POST /v1/orders answered with.')),
});

/** An amount in rupees (at most two decimals), described by what it is. */
const money = (what: string) => v.pipe(v.number(), v.description(`${what} Rupees, at most two decimals.`));

/** One step of a cancellation policy (docs/pricing.md "Cancellation plan"). */
export const CancellationStepSchema = v.object({
  cancelBy: v.pipe(v.string(), v.description("Last date (yyyy-mm-dd) a cancellation gets this refund: check-in minus the step's days before check-in.")),
  refundPercentage: v.pipe(v.number(), v.description('Percent of the charge refunded by a cancellation on or before cancelBy.')),
  label: v.pipe(v.string(), v.description('The step in words, for people.')),
});

export const ItemSchema = v.object({
  listingId: v.pipe(v.string(), v.description('The listing priced.')),
  checkIn: v.pipe(v.string(), v.description('Arrival date (yyyy-mm-dd).')),
  checkOut: v.pipe(v.string(), v.description('Departure date (yyyy-mm-dd).')),
  nights: v.pipe(v.number(), v.integer(), v.description('Nights of the stay: checkOut − checkIn.')),
  soldOut: v.pipe(v.boolean(), v.description('A night lacks inventory, is stop-sold, breaks a stay limit or has no rate; a booking would be refused.')),
  itemSubtotal: money("The item's stay after the cancellation plan, plus its meals and services; before the bank offer and GST."),
  cancellationPlanId: v.pipe(v.string(), v.description('The cancellation plan priced: the one asked for, else the listing default.')),
  cancellationPlanDiscount: money("The cancellation plan's discount on this item's stay."),
  cancellationPolicy: v.pipe(
    v.array(CancellationStepSchema),
    v.description(
      'The refund schedule, earliest step first; a cancellation on day D gets the first step whose cancelBy is D or later. Ends with a 0 % step at check-in.',
    ),
  ),
});

export const UnavailableNightSchema = v.object({
  date: v.pipe(v.string(), v.description('The night (yyyy-mm-dd) the rule applies to; for CLOSED_TO_DEPARTURE the check-out date.')),
  propertyId: v.pipe(v.string(), v.description('The property (unit type) of the listing that cannot be sold.')),
  reason: v.pipe(
    v.picklist(SOLD_OUT_REASONS),
    v.description(
      'NO_INVENTORY: no inventory loaded. NOT_ENOUGH_UNITS: sold out (fewer open units than the stay needs). STOP_SELL: closed to sale. MINIMUM_STAY / MAXIMUM_STAY: the stay is shorter / longer than `stayLimit`. NO_RATE: no rate for the occupancy and meal plan. CLOSED_TO_ARRIVAL: the stay cannot start that day. CLOSED_TO_DEPARTURE: the stay cannot end that day.',
    ),
  ),
  requiredUnits: v.pipe(v.number(), v.integer(), v.description('Units of this property the stay needs each night.')),
  availableUnits: v.pipe(v.number(), v.integer(), v.description('Units open that night (0 without inventory).')),
  stayLimit: v.optional(v.pipe(v.number(), v.integer(), v.description('The stay limit in nights, for MINIMUM_STAY and MAXIMUM_STAY.'))),
  message: v.pipe(v.string(), v.description('The rule in words, for people; match on `reason`, never on this text.')),
});

/** An order's Item: the contract's Item plus why it cannot be sold (additive). */
export const OrderItemSchema = v.object({
  ...ItemSchema.entries,
  unavailableNights: v.pipe(
    v.array(UnavailableNightSchema),
    v.description('Our extension: every rule that stops the stay from selling, per property and night; empty exactly when soldOut is false.'),
  ),
});

export const BankOfferResultSchema = v.pipe(
  v.object({
    code: v.pipe(v.string(), v.description('The offer code.')),
    title: v.pipe(v.string(), v.description("The offer's title, for people.")),
    discountType: v.pipe(v.picklist(DISCOUNT_TYPES), v.description('PERCENTAGE of the order value (capped at the offer maximum) or a FLAT amount.')),
    discount: money('The discount the offer takes off the order value (stay after the plan, meals and services); never more than that value.'),
    applied: v.pipe(v.boolean(), v.description('Always true: an offer that cannot apply is refused (bankOfferCode) or not chosen (applyBestBankOffer).')),
    reason: v.pipe(v.string(), v.description('Whether the offer was requested or chosen as the best, and whether its cap applied.')),
  }),
  v.description('A bank offer applied to an order (docs/pricing.md "Bank offers").'),
);

export const SummarySchema = v.pipe(
  v.object({
    baseSubtotal: money('Every unit on every night at the channel rate, before any discount.'),
    mealsSubtotal: money('The meals.'),
    vasSubtotal: money('The value-added services.'),
    cancellationPlanDiscount: money("The cancellation plan's discount: its percentage of baseSubtotal (the stay only), rounded half up."),
    stayAfterCancellationPlan: money('baseSubtotal − cancellationPlanDiscount.'),
    bankOffer: v.pipe(v.nullable(BankOfferResultSchema), v.description('The bank offer applied; null when none was asked for or none is eligible.')),
    priceAfterBankOffer: money('stayAfterCancellationPlan + mealsSubtotal + vasSubtotal − bankOffer.discount.'),
    offersDiscount: money('Every discount of the order: cancellationPlanDiscount + bankOffer.discount.'),
    taxableSubtotal: money('The value GST is charged on; equals priceAfterBankOffer.'),
    gst: money('GST: the sum of the per-line GST, each rounded half up to the paisa.'),
    grandTotal: money('What the booking charges to your credit: taxableSubtotal + gst.'),
  }),
  v.description('The totals of the order: taxableSubtotal + gst = grandTotal (docs/pricing.md).'),
);

const pricedFields = {
  currency: v.pipe(v.string(), v.description('ISO 4217; INR.')),
  items: v.pipe(v.array(OrderItemSchema), v.description('One item: the stay priced, with why it cannot be sold if it cannot.')),
  summary: SummarySchema,
};

/** The preview: an Order without orderId and validUntil. */
export const OrderQuoteSchema = v.object(pricedFields);

export const OrderSchema = v.object({
  orderId: v.pipe(v.string(), v.uuid(), v.description('The order id to book with POST /v1/bookings.')),
  validUntil: v.pipe(DateTimeSchema, v.description('Courtesy expiry of this price; no inventory is held.')),
  ...pricedFields,
});

const SCENARIO_NOTE = `Sandbox stages only: header \`X-Test-Scenario\` (${SANDBOX_SCENARIOS.join(', ')}) forces a scenario (docs/sandbox.md); production ignores it.`;
const NOT_FOUND = { 404: { description: "No such order in your agent group (another group's order reads the same).", schema: ErrorBodySchema } };
const NOT_PRICEABLE = {
  409: {
    description:
      'The stored order can no longer be priced (listing withdrawn from your channel, check-in passed, an add-on withdrawn); `param` names the field. Create a new order.',
    schema: ErrorBodySchema,
  },
};

export const previewOrderRoute = defineRoute({
  operationId: 'previewOrder',
  method: 'POST',
  path: '/v1/orders/preview',
  auth: 'v1',
  summary: 'Price an order without creating it',
  description: `Same body, pricing and refusals as POST /v1/orders; persists nothing (no order, ledger entry, credit authorization or hold). ${SCENARIO_NOTE}`,
  tags: TAG,
  body: OrderBodySchema,
  responses: { 200: { description: 'The priced order, without orderId and validUntil.', schema: OrderQuoteSchema }, ...AUTHENTICATED_ERRORS },
});

export const createOrderRoute = defineRoute({
  operationId: 'createOrder',
  method: 'POST',
  idempotencyKey: true,
  path: '/v1/orders',
  auth: 'v1',
  summary: 'Create and price an order',
  description: `Prices through the same path as the preview (identical input, identical pricing fields) and stores the order for your agent group. No inventory is held. ${SCENARIO_NOTE}`,
  tags: TAG,
  body: OrderBodySchema,
  responses: { 200: { description: 'The order.', schema: OrderSchema }, ...AUTHENTICATED_ERRORS },
});

export const getOrderRoute = defineRoute({
  operationId: 'getOrder',
  method: 'GET',
  path: '/v1/orders/{orderId}',
  auth: 'v1',
  summary: "Read an order at today's price",
  description:
    "Re-prices the stored request against today's catalogue and returns that price; stores nothing (validUntil is the stored one). POST …/reprice stores a re-confirmed price.",
  tags: TAG,
  params: OrderIdParamsSchema,
  responses: { 200: { description: 'The order at its current price.', schema: OrderSchema }, ...NOT_FOUND, ...NOT_PRICEABLE, ...AUTHENTICATED_ERRORS },
});

export const repriceOrderRoute = defineRoute({
  operationId: 'repriceOrder',
  method: 'POST',
  path: '/v1/orders/{orderId}/reprice',
  auth: 'v1',
  summary: 'Re-confirm an order against the current catalogue',
  description: `No body. Re-prices the stored request, stores the new price and restarts the courtesy window (validUntil); holds no inventory. ${SCENARIO_NOTE}`,
  tags: TAG,
  params: OrderIdParamsSchema,
  responses: { 200: { description: 'The order at its re-confirmed price.', schema: OrderSchema }, ...NOT_FOUND, ...NOT_PRICEABLE, ...AUTHENTICATED_ERRORS },
});

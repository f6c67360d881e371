import * as v from 'valibot';
import { ID_PATTERN } from '../admin.ts';
import { BILLING_CYCLES } from '../tenants.ts';
import { MEAL_TYPES, VAS_PRICING } from '../catalogue/add-ons.ts';
import { PLAN_TYPES } from '../catalogue/cancellation.ts';
import { MAX_RATE_ADJUSTMENT_PERCENT, MIN_RATE_ADJUSTMENT_PERCENT } from '../catalogue/channel.ts';
import { CALENDAR_DATE_RULE, isCalendarDate, WEEKDAYS } from '../catalogue/calendar.ts';
import { MEAL_PLANS, type MealPlan } from '../catalogue/day.ts';
import { LISTING_STATUSES } from '../catalogue/listing.ts';
import { DISCOUNT_TYPES } from '../catalogue/offers.ts';
import { SIMULATOR_MODES } from '../catalogue/simulator.ts';
import { parseRupees } from '../money.ts';
import { formatPath, WorldValidationError, type WorldIssue } from './world-validation-error.ts';

/**
 * The world file: one JSON document describing tenants, keys, channels, the catalogue,
 * GST data and simulator behaviour. Money is in rupees here and paise after parsing.
 * Every object is strict, so a misspelt field is an error rather than silently ignored.
 * docs/world-file.md describes every field.
 */
export const WORLD_FORMAT_VERSION = 1;

const int = (min: number, max: number) =>
  v.pipe(
    v.number(),
    v.integer(`must be a whole number from ${min} to ${max}`),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

const IdSchema = v.pipe(v.string(), v.regex(ID_PATTERN, "must be 2–63 characters of a–z, 0–9 and '-', starting with a letter or digit"));
const TextSchema = v.pipe(
  v.string(),
  v.check((s) => s.trim().length > 0, 'must not be empty'),
  v.maxLength(500, 'must be at most 500 characters'),
);
const UrlSchema = v.pipe(v.string(), v.url('must be an absolute URL'));
const DateSchema = v.pipe(v.string(), v.check(isCalendarDate, `must be ${CALENDAR_DATE_RULE}`));

/** Rupees ≥ 0 with at most two decimals → paise. */
const RupeesSchema = v.pipe(
  v.number(),
  v.check((x) => x >= 0 && parseRupees(x) !== undefined, 'must be an amount in rupees, at least 0, with at most two decimals'),
  v.transform((x) => parseRupees(x)!),
);
/**
 * A nightly rate: rupees with at most two decimals (a channel manager prices to the paisa) up to
 * 10,000,000 → paise. Partners are sold it through channelRate, whole rupees (int32 in the contract).
 */
const RateRupeesSchema = v.pipe(
  v.number(),
  v.check((x) => x >= 0 && x <= 10_000_000 && parseRupees(x) !== undefined, 'must be rupees from 0 to 10,000,000 with at most two decimals'),
  v.transform((x) => parseRupees(x)!),
);
/** Whole rupees → paise; extra-person rates are int32 rupees in the contract. */
const WholeRupeesSchema = v.pipe(
  int(0, 10_000_000),
  v.transform((x) => x * 100),
);

const LatitudeSchema = v.pipe(v.number(), v.minValue(-90, 'must be a latitude'), v.maxValue(90, 'must be a latitude'));
const LongitudeSchema = v.pipe(v.number(), v.minValue(-180, 'must be a longitude'), v.maxValue(180, 'must be a longitude'));

const AddressSchema = v.strictObject({
  line1: TextSchema,
  line2: v.optional(v.string()),
  city: TextSchema,
  state: TextSchema,
  postalCode: TextSchema,
  country: TextSchema,
});

export const PartnerSchema = v.strictObject({ partnerId: IdSchema, name: TextSchema, channelId: IdSchema });

export const AgentGroupSchema = v.strictObject({
  agentGroupId: IdSchema,
  partnerId: IdSchema,
  name: TextSchema,
  channelId: IdSchema,
  creditLimit: RupeesSchema,
  onHold: v.optional(v.boolean(), false),
  distributionEnabled: v.optional(v.boolean(), true),
  billingCycle: v.picklist(BILLING_CYCLES),
  billingAnchorDay: v.number(),
  paymentTermsDays: v.optional(v.number()),
  overdueHoldDays: v.optional(v.nullable(v.number())),
  gstin: v.optional(v.nullable(v.string()), null),
  legalName: TextSchema,
  address: AddressSchema,
});

export const WorldKeySchema = v.strictObject({
  owner: v.strictObject({ kind: v.picklist(['partner', 'agent-group']), id: IdSchema }),
  key: v.optional(v.string()),
  keyHash: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'must be a lowercase hex SHA-256'))),
  keyPrefix: v.optional(v.pipe(v.string(), v.regex(/^[\x21-\x39\x3b-\x7e]{1,12}$/, 'must be 1–12 printable characters'))),
  label: v.optional(v.nullable(v.string()), null),
  rateLimit: v.optional(v.nullable(v.strictObject({ perMinute: v.number(), burst: v.number() })), null),
  signingSecret: v.optional(v.string()),
});

export const ChannelSchema = v.strictObject({
  channelId: IdSchema,
  name: TextSchema,
  rateAdjustmentPercent: v.optional(int(MIN_RATE_ADJUSTMENT_PERCENT, MAX_RATE_ADJUSTMENT_PERCENT), 0),
});

export const CancellationPlanSchema = v.strictObject({
  planId: IdSchema,
  name: TextSchema,
  planType: v.picklist(PLAN_TYPES),
  discountPercent: v.optional(int(0, 100), 0),
  schedule: v.array(v.strictObject({ daysBeforeCheckIn: int(0, 365), refundPercentage: int(0, 100), label: TextSchema })),
});

const UspSchema = v.strictObject({ id: int(0, 1_000_000), name: TextSchema, description: v.string(), isDifferentiator: v.optional(v.boolean(), false) });
const BadgeSchema = v.strictObject({ label: TextSchema, type: TextSchema, placement: TextSchema });

export const PropertySchema = v.strictObject({
  id: IdSchema,
  name: TextSchema,
  /** Defaults to name. */
  title: v.optional(TextSchema),
  /** Defaults to the listing's brand. */
  brand: v.optional(TextSchema),
  type: TextSchema,
  bedrooms: int(0, 50),
  bathrooms: int(0, 50),
  numberOfBeds: int(0, 100),
  maxAdults: int(1, 100),
  maxChildren: int(0, 100),
  applicableAdult: int(1, 100),
  applicableChild: int(0, 100),
  extraAdultRate: WholeRupeesSchema,
  extraChildRate: WholeRupeesSchema,
  quantity: int(1, 1000),
  isPetFriendly: v.optional(v.boolean(), false),
  numberOfPets: v.optional(int(0, 20), 0),
  isStressed: v.optional(v.boolean(), false),
  isHighDemand: v.optional(v.boolean(), false),
  imageUrl: UrlSchema,
  photos: v.optional(v.array(v.strictObject({ url: UrlSchema, name: v.string() })), []),
  amenities: v.optional(v.array(v.strictObject({ icon: v.string(), name: TextSchema, category: TextSchema })), []),
  /** Defaults to the listing's locality. */
  location: v.optional(TextSchema),
  /** Default to the listing's coordinates. */
  latitude: v.optional(LatitudeSchema),
  longitude: v.optional(LongitudeSchema),
  basePrice: RupeesSchema,
});

export const MealSchema = v.strictObject({
  mealId: IdSchema,
  name: TextSchema,
  mealType: v.picklist(MEAL_TYPES),
  adultPrice: RupeesSchema,
  childPrice: RupeesSchema,
  chefOnCallPrice: v.optional(RupeesSchema, 0),
});

export const VasSchema = v.strictObject({
  vasId: IdSchema,
  name: TextSchema,
  pricing: v.picklist(VAS_PRICING),
  variants: v.pipe(v.array(v.strictObject({ variantId: IdSchema, name: TextSchema, price: RupeesSchema })), v.minLength(1, 'needs at least one variant')),
});

export const SimulatorSchema = v.strictObject({
  mode: v.picklist(SIMULATOR_MODES),
  confirmAfterSeconds: v.optional(int(0, 86_400), 0),
  refusesChanges: v.optional(v.boolean(), false),
  cannotModify: v.optional(v.boolean(), false),
  /** `channex`: the listing is connected to Channex; its bookings go out through the Channex adapter when the stage has Channex settings. */
  channelManager: v.optional(v.picklist(['channex'])),
});

export const ListingSchema = v.strictObject({
  id: IdSchema,
  title: TextSchema,
  type: TextSchema,
  status: v.optional(v.picklist(LISTING_STATUSES), 'ACTIVE'),
  brand: TextSchema,
  locality: TextSchema,
  city: TextSchema,
  state: TextSchema,
  country: v.optional(TextSchema, 'India'),
  addressLine: TextSchema,
  latitude: LatitudeSchema,
  longitude: LongitudeSchema,
  maxAdults: int(1, 500),
  maxChildren: int(0, 500),
  basePrice: RupeesSchema,
  amenities: v.optional(v.array(TextSchema), []),
  tags: v.optional(v.array(TextSchema), []),
  coverPicture: UrlSchema,
  rating: v.optional(v.pipe(v.number(), v.minValue(0, 'must be 0–5'), v.maxValue(5, 'must be 0–5')), 0),
  reviewCount: v.optional(int(0, 10_000_000), 0),
  usps: v.optional(v.array(UspSchema), []),
  badges: v.optional(v.array(BadgeSchema), []),
  /** Channels that distribute this listing; empty = on no channel. */
  channelIds: v.array(IdSchema),
  cancellationPlanIds: v.pipe(v.array(IdSchema), v.minLength(1, 'needs at least one cancellation plan')),
  defaultCancellationPlanId: IdSchema,
  properties: v.pipe(v.array(PropertySchema), v.minLength(1, 'needs at least one property')),
  meals: v.optional(v.array(MealSchema), []),
  vas: v.optional(v.array(VasSchema), []),
  /** Property-system simulator behaviour; omitted = confirm at once, accept changes. */
  simulator: v.optional(SimulatorSchema),
});

export const BankOfferSchema = v.strictObject({
  channelId: IdSchema,
  code: v.pipe(v.string(), v.regex(/^[A-Z0-9][A-Z0-9_-]{1,31}$/, 'must be 2–32 characters of A–Z, 0–9, _ and -')),
  title: TextSchema,
  discountType: v.picklist(DISCOUNT_TYPES),
  percent: v.optional(int(1, 100)),
  flatAmount: v.optional(RupeesSchema),
  maxDiscount: v.optional(v.nullable(RupeesSchema), null),
  minOrderValue: v.optional(RupeesSchema, 0),
  stayFrom: v.optional(v.nullable(DateSchema), null),
  stayTo: v.optional(v.nullable(DateSchema), null),
  minNights: v.optional(int(1, 365), 1),
  validFrom: v.optional(v.nullable(DateSchema), null),
  validTo: v.optional(v.nullable(DateSchema), null),
});

const DaysOfWeekSchema = v.optional(v.pipe(v.array(v.picklist(WEEKDAYS)), v.minLength(1, 'must name at least one day, or be left out')));

/** One rate plan's restrictions on the range's dates; each field set replaces the room's for that plan (docs/world-file.md). */
const PlanRestrictionsSchema = v.strictObject({
  stopSell: v.optional(v.boolean()),
  minimumStay: v.optional(int(1, 365)),
  maximumStay: v.optional(int(1, 365)),
  closedToArrival: v.optional(v.boolean()),
  closedToDeparture: v.optional(v.boolean()),
  minimumStayArrival: v.optional(int(1, 365)),
});

const RatePlansSchema = v.strictObject({
  EP: v.optional(PlanRestrictionsSchema),
  CP: v.optional(PlanRestrictionsSchema),
  MAP: v.optional(PlanRestrictionsSchema),
  AP: v.optional(PlanRestrictionsSchema),
} satisfies Record<MealPlan, unknown>);

export const InventoryRangeSchema = v.strictObject({
  propertyId: IdSchema,
  from: DateSchema,
  to: DateSchema,
  daysOfWeek: DaysOfWeekSchema,
  quantity: int(0, 1000),
  minimumStay: v.optional(int(1, 365), 1),
  maximumStay: v.optional(int(1, 365), 30),
  stopSell: v.optional(v.boolean(), false),
  closedToArrival: v.optional(v.boolean()),
  closedToDeparture: v.optional(v.boolean()),
  minimumStayArrival: v.optional(int(1, 365)),
  ratePlans: v.optional(RatePlansSchema),
});

export const RateRangeSchema = v.strictObject({
  propertyId: IdSchema,
  from: DateSchema,
  to: DateSchema,
  daysOfWeek: DaysOfWeekSchema,
  mealPlan: v.picklist(MEAL_PLANS),
  adults: v.record(v.pipe(v.string(), v.regex(/^[1-9][0-9]?$/, 'adult counts are keys "1"…"99"')), RateRupeesSchema),
});

export const GstRegistrationSchema = v.strictObject({
  state: TextSchema,
  stateCode: v.pipe(v.string(), v.regex(/^[0-9]{2}$/, 'must be the two-digit GST state code')),
  gstin: v.string(),
  legalName: TextSchema,
  address: TextSchema,
  eInvoicing: v.optional(v.boolean(), false),
  irpReportingWindow: v.optional(v.boolean(), false),
});

export const GstSlabTableSchema = v.strictObject({
  effectiveFrom: DateSchema,
  slabs: v.pipe(
    v.array(v.strictObject({ upToPerUnitNight: v.nullable(RupeesSchema), ratePercent: v.pipe(v.number(), v.minValue(0), v.maxValue(100)) })),
    v.minLength(1, 'needs at least one slab'),
  ),
});

export const WorldSchema = v.strictObject({
  version: v.literal(WORLD_FORMAT_VERSION, `must be ${WORLD_FORMAT_VERSION}`),
  tenants: v.optional(v.strictObject({ partners: v.optional(v.array(PartnerSchema), []), agentGroups: v.optional(v.array(AgentGroupSchema), []) }), {}),
  keys: v.optional(v.array(WorldKeySchema), []),
  channels: v.optional(v.array(ChannelSchema), []),
  catalogue: v.optional(
    v.strictObject({
      cancellationPlans: v.optional(v.array(CancellationPlanSchema), []),
      listings: v.optional(v.array(ListingSchema), []),
      offers: v.optional(v.array(BankOfferSchema), []),
      inventory: v.optional(v.array(InventoryRangeSchema), []),
      rates: v.optional(v.array(RateRangeSchema), []),
    }),
    {},
  ),
  gst: v.optional(
    v.strictObject({
      registrations: v.optional(v.array(GstRegistrationSchema), []),
      slabTables: v.optional(v.array(GstSlabTableSchema), []),
    }),
    {},
  ),
});

/** The world file as written (rupees). */
export type WorldInput = v.InferInput<typeof WorldSchema>;
/** The world file after parsing (paise, defaults filled in). */
export type WorldDocument = v.InferOutput<typeof WorldSchema>;
export type WorldListing = WorldDocument['catalogue']['listings'][number];
export type WorldProperty = WorldListing['properties'][number];

function issueOf(issue: v.BaseIssue<unknown>): WorldIssue {
  const segments = (issue.path ?? []).map((p) => p.key as string | number);
  const unknownField = issue.type === 'strict_object' && issue.expected === 'never';
  return { path: formatPath(segments), message: unknownField ? 'is not a field of the world format' : issue.message };
}

/** Shape and types only; references between entities are checked by checkWorld. */
export function parseWorldShape(document: unknown): WorldDocument {
  const parsed = v.safeParse(WorldSchema, document);
  if (!parsed.success) throw new WorldValidationError(parsed.issues.map(issueOf));
  return parsed.output;
}

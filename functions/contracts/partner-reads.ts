import * as v from 'valibot';
import { CALENDAR_DATE_RULE, HORIZON_NOTE, isCalendarDate } from '../../domain/catalogue/calendar.ts';
import { LISTINGS_PAGE, MAX_IDS } from '../../domain/reads/partner-reads.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema } from './common.ts';

const TAG = ['Partner read API'];

const intParam = (name: string, min: number, max: number, fallback: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d{1,9}$/, `${name} must be a whole number.`),
    v.transform(Number),
    v.number(),
    v.minValue(min, `${name} must be at least ${min}.`),
    v.maxValue(max, `${name} must be at most ${max}.`),
  );

/** Repeated (`?ids=a&ids=b`) and comma-separated (`?ids=a,b`) forms arrive identically in payload 2.0. */
export const idList = (name: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.split(',').map((x) => x.trim())),
      v.array(v.pipe(v.string(), v.minLength(1, `${name} must not contain empty ids.`), v.maxLength(64, `${name} ids are at most 64 characters.`))),
      v.maxLength(MAX_IDS, `${name} may hold at most ${MAX_IDS} ids.`),
      v.transform((ids) => [...new Set(ids)]),
      v.description(`Comma-separated or repeated; at most ${MAX_IDS}.`),
    ),
  );

export const dateParam = (name: string, description: string) =>
  v.optional(v.pipe(v.string(), v.check(isCalendarDate, `${name} must be ${CALENDAR_DATE_RULE}.`), v.description(`${description} ${HORIZON_NOTE}`)));

export const ListingsQuerySchema = v.strictObject({
  page: v.pipe(intParam('page', 1, 1_000_000, 1), v.description('1-based; default 1.')),
  size: v.pipe(
    intParam('size', 1, LISTINGS_PAGE.maxSize, LISTINGS_PAGE.defaultSize),
    v.description(`Default ${LISTINGS_PAGE.defaultSize}, at most ${LISTINGS_PAGE.maxSize}.`),
  ),
});

export const BulkQuerySchema = v.strictObject({
  listingIds: idList('listingIds'),
  propertyIds: idList('propertyIds'),
  from: dateParam('from', 'Inclusive; default today (India).'),
  to: dateParam('to', 'Inclusive; default 30 dates from `from`; at most 365 dates in all.'),
});

const PropertyDetailsSchema = v.object({
  id: v.string(),
  title: v.string(),
  bedrooms: v.number(),
  bathrooms: v.number(),
  numberOfPets: v.number(),
  isPetFriendly: v.boolean(),
  isStressed: v.boolean(),
  isHighDemand: v.boolean(),
  brand: v.string(),
  quantity: v.number(),
  price: v.number(),
  city: v.string(),
  state: v.string(),
  country: v.string(),
  location: v.string(),
  latitude: v.number(),
  longitude: v.number(),
  name: v.string(),
  applicableAdult: v.number(),
  applicableChild: v.number(),
  extraAdultRate: v.number(),
  extraChildRate: v.number(),
  maxAdults: v.number(),
  numberOfBeds: v.number(),
  maxChildren: v.number(),
  imageUrl: v.string(),
  photos: v.pipe(v.string(), v.description('Photo URLs joined with ", ".')),
  amenities: v.pipe(v.string(), v.description('Amenity names joined with ", ".')),
});

export const ListingWithPropertiesSchema = v.object({
  id: v.string(),
  title: v.string(),
  maxAdults: v.number(),
  maxChildren: v.number(),
  latitude: v.number(),
  longitude: v.number(),
  locality: v.string(),
  city: v.string(),
  state: v.string(),
  status: v.string(),
  country: v.string(),
  addressLine: v.string(),
  price: v.number(),
  amenities: v.array(v.string()),
  tags: v.array(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  properties: v.array(PropertyDetailsSchema),
});

const PlanRestrictionsSchema = v.object({
  stopSell: v.boolean(),
  minimumStay: v.pipe(v.number(), v.integer()),
  maximumStay: v.pipe(v.number(), v.integer()),
  closedToArrival: v.pipe(v.boolean(), v.description('No stay on this plan may start on this date.')),
  closedToDeparture: v.pipe(v.boolean(), v.description('No stay on this plan may check out on this date.')),
  minimumStayArrival: v.optional(v.pipe(v.number(), v.integer(), v.description('Nights, for stays on this plan arriving on this date.'))),
});

/** The additive per-meal-plan restrictions of a day: the plans whose restrictions differ from the day's, each as sold. */
export const ratePlansSchema = <T extends v.ObjectEntries>(extra: T) => {
  const plan = v.object({ ...PlanRestrictionsSchema.entries, ...extra });
  return v.optional(
    v.pipe(
      v.object({ EP: v.optional(plan), CP: v.optional(plan), MAP: v.optional(plan), AP: v.optional(plan) }),
      v.description(
        "Meal plans (mealPlan of orders and search) with restrictions of their own on this date, as a channel manager sets them per rate plan; each entry is that plan's restrictions as sold, which replace the day's for stays on that plan. Absent when every plan follows the day's fields.",
      ),
    ),
  );
};

export const InventorySchema = v.object({
  id: v.string(),
  date: v.string(),
  quantity: v.number(),
  propertyId: v.string(),
  minimumStay: v.number(),
  maximumStay: v.number(),
  stopSell: v.boolean(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  ratePlans: ratePlansSchema({}),
});

export const RateRowSchema = v.object({ propertyId: v.string(), date: v.string(), mealPlan: v.string(), adults: v.number(), rate: v.number() });

const LARGE = 'Large responses are gzip-compressed when the request sends `Accept-Encoding: gzip`; send it for long windows.';

export const listListingsRoute = defineRoute({
  operationId: 'listListings',
  method: 'GET',
  path: '/api/listings',
  auth: 'api',
  summary: "The partner channel's listings with their properties",
  description: `Offset paging ordered by listing id. size at most ${LISTINGS_PAGE.maxSize}. A page past the end is empty; total counts every listing.`,
  tags: TAG,
  query: ListingsQuerySchema,
  responses: {
    200: {
      description: 'One page.',
      schema: v.object({ data: v.array(ListingWithPropertiesSchema), total: v.number(), page: v.number(), size: v.number() }),
    },
    ...AUTHENTICATED_ERRORS,
  },
});

export const listInventoriesRoute = defineRoute({
  operationId: 'listInventories',
  method: 'GET',
  path: '/api/inventories',
  auth: 'api',
  summary: 'Daily inventory per property',
  description: `Filters combine with AND; ids outside your catalogue are simply absent. Without ids the whole catalogue is read (refused above 100 listings). ${LARGE}`,
  tags: TAG,
  query: BulkQuerySchema,
  responses: { 200: { description: 'Rows ordered by property, then date.', schema: v.array(InventorySchema) }, ...AUTHENTICATED_ERRORS },
});

export const listRatesRoute = defineRoute({
  operationId: 'listRates',
  method: 'GET',
  path: '/api/rates',
  auth: 'api',
  summary: 'Occupancy rates per property, date, meal plan and adult count',
  description: `Rates are your channel's, in whole rupees per unit per night. Filters as for /api/inventories. ${LARGE}`,
  tags: TAG,
  query: BulkQuerySchema,
  responses: { 200: { description: 'Rows ordered by property, date, meal plan, adults.', schema: v.array(RateRowSchema) }, ...AUTHENTICATED_ERRORS },
});

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

/** What the listing fields of the catalogue reads mean (docs/world-file.md "catalogue.listings"). */
export const LISTING_NOTES = {
  id: 'The listing id.',
  title: "The listing's title.",
  type: 'The kind of listing, such as VILLA or HAVELI.',
  status: 'ACTIVE or INACTIVE.',
  locality: 'Locality (area within the city).',
  city: 'City.',
  state: 'Indian state; the GST place of supply.',
  country: 'Country.',
  addressLine: 'Street address.',
  latitude: 'Degrees north.',
  longitude: 'Degrees east.',
  maxAdults: 'Adults the whole listing sleeps.',
  maxChildren: 'Children the whole listing sleeps.',
  price: "Indicative nightly price in rupees at your channel's rates.",
  amenities: 'Amenity names.',
  tags: 'Catalogue tags.',
  createdAt: 'When the listing was created.',
  updatedAt: 'Last change of the listing or any of its properties.',
} as const;

/** What the property (unit type) fields of the catalogue reads mean (docs/world-file.md "Properties"). */
export const PROPERTY_NOTES = {
  id: 'The property id: one kind of unit of the listing.',
  title: "The property's title; defaults to its name.",
  name: "The property's name.",
  type: 'The kind of unit, such as ENTIRE_HOME or ROOM.',
  brand: 'The brand the property is sold under.',
  bedrooms: 'Bedrooms of one unit.',
  bathrooms: 'Bathrooms of one unit.',
  numberOfBeds: 'Beds of one unit.',
  numberOfPets: 'Pets one unit takes; 0 unless pet friendly.',
  isPetFriendly: 'Whether pets are allowed.',
  isStressed: 'Catalogue flag, as the operator set it; informational, not used in pricing or availability.',
  isHighDemand: 'Catalogue flag: the property is in high demand, as the operator set it; informational, not used in pricing.',
  quantity: 'Units of this kind the listing has.',
  price: 'Indicative nightly price in rupees of one unit.',
  city: 'City.',
  state: 'Indian state.',
  country: 'Country.',
  location: "Where the property is; defaults to the listing's locality.",
  latitude: 'Degrees north.',
  longitude: 'Degrees east.',
  applicableAdult: "Adults included in one unit's occupancy rate.",
  applicableChild: "Children included in one unit's occupancy rate.",
  extraAdultRate: 'Whole rupees per night for each adult beyond applicableAdult, where the day lists no rate for that count.',
  extraChildRate: 'Whole rupees per night for each child beyond applicableChild.',
  maxAdults: 'Most adults one unit takes.',
  maxChildren: 'Most children one unit takes.',
  imageUrl: 'URL of the main picture.',
} as const;

const noted =
  <N extends Record<string, string>>(notes: N) =>
  <S extends v.GenericSchema>(field: keyof N & string, schema: S) =>
    v.pipe(schema, v.description(notes[field]!));
/** `listing('city', v.string())`: the schema described as the catalogue describes that listing field. */
export const listing = noted(LISTING_NOTES);
/** `property('quantity', v.number())`: likewise for a property field. */
export const property = noted(PROPERTY_NOTES);

/** Where a property is: the same six fields in both catalogue reads. */
export const PROPERTY_PLACE = {
  city: property('city', v.string()),
  state: property('state', v.string()),
  country: property('country', v.string()),
  location: property('location', v.string()),
  latitude: property('latitude', v.number()),
  longitude: property('longitude', v.number()),
};

const PropertyDetailsSchema = v.object({
  id: property('id', v.string()),
  title: property('title', v.string()),
  bedrooms: property('bedrooms', v.number()),
  bathrooms: property('bathrooms', v.number()),
  numberOfPets: property('numberOfPets', v.number()),
  isPetFriendly: property('isPetFriendly', v.boolean()),
  isStressed: property('isStressed', v.boolean()),
  isHighDemand: property('isHighDemand', v.boolean()),
  brand: property('brand', v.string()),
  quantity: property('quantity', v.number()),
  price: property('price', v.number()),
  ...PROPERTY_PLACE,
  name: property('name', v.string()),
  applicableAdult: property('applicableAdult', v.number()),
  applicableChild: property('applicableChild', v.number()),
  extraAdultRate: property('extraAdultRate', v.number()),
  extraChildRate: property('extraChildRate', v.number()),
  maxAdults: property('maxAdults', v.number()),
  numberOfBeds: property('numberOfBeds', v.number()),
  maxChildren: property('maxChildren', v.number()),
  imageUrl: property('imageUrl', v.string()),
  photos: v.pipe(v.string(), v.description('Photo URLs joined with ", ".')),
  amenities: v.pipe(v.string(), v.description('Amenity names joined with ", ".')),
});

export const ListingWithPropertiesSchema = v.object({
  id: listing('id', v.string()),
  title: listing('title', v.string()),
  maxAdults: listing('maxAdults', v.number()),
  maxChildren: listing('maxChildren', v.number()),
  latitude: listing('latitude', v.number()),
  longitude: listing('longitude', v.number()),
  locality: listing('locality', v.string()),
  city: listing('city', v.string()),
  state: listing('state', v.string()),
  status: listing('status', v.string()),
  country: listing('country', v.string()),
  addressLine: listing('addressLine', v.string()),
  price: listing('price', v.number()),
  amenities: listing('amenities', v.array(v.string())),
  tags: listing('tags', v.array(v.string())),
  createdAt: listing('createdAt', DateTimeSchema),
  updatedAt: listing('updatedAt', DateTimeSchema),
  properties: v.pipe(v.array(PropertyDetailsSchema), v.description('The kinds of unit of the listing.')),
});

const PlanRestrictionsSchema = v.object({
  stopSell: v.pipe(v.boolean(), v.description('Sales on this plan closed on this date.')),
  minimumStay: v.pipe(v.number(), v.integer(), v.description('Fewest nights for a stay on this plan touching this date.')),
  maximumStay: v.pipe(v.number(), v.integer(), v.description('Most nights for a stay on this plan touching this date.')),
  closedToArrival: v.pipe(v.boolean(), v.description('No stay on this plan may start on this date.')),
  closedToDeparture: v.pipe(v.boolean(), v.description('No stay on this plan may check out on this date.')),
  minimumStayArrival: v.optional(v.pipe(v.number(), v.integer(), v.description('Nights, for stays on this plan arriving on this date.'))),
});

/** The additive per-meal-plan restrictions of a day: the plans whose restrictions differ from the day's, each as sold. */
export const ratePlansSchema = <T extends v.ObjectEntries>(extra: T) => {
  const plan = v.object({ ...PlanRestrictionsSchema.entries, ...extra });
  return v.optional(
    v.pipe(
      v.object({
        EP: v.optional(v.pipe(plan, v.description('Room only.'))),
        CP: v.optional(v.pipe(plan, v.description('With breakfast.'))),
        MAP: v.optional(v.pipe(plan, v.description('With breakfast and one main meal.'))),
        AP: v.optional(v.pipe(plan, v.description('With every meal.'))),
      }),
      v.description(
        "Meal plans (mealPlan of orders and search) with restrictions of their own on this date, as a channel manager sets them per rate plan; each entry is that plan's restrictions as sold, which replace the day's for stays on that plan. Absent when every plan follows the day's fields.",
      ),
    ),
  );
};

export const InventorySchema = v.object({
  id: v.pipe(v.string(), v.description('The row id.')),
  date: v.pipe(v.string(), v.description('The date (yyyy-mm-dd) the row is for.')),
  quantity: v.pipe(v.number(), v.description('Units of the property open for sale on that date.')),
  propertyId: v.pipe(v.string(), v.description('The property (unit type).')),
  minimumStay: v.pipe(v.number(), v.description('Fewest nights for a stay touching this date.')),
  maximumStay: v.pipe(v.number(), v.description('Most nights for a stay touching this date.')),
  stopSell: v.pipe(v.boolean(), v.description('Sales closed on this date, whatever the quantity.')),
  createdAt: v.pipe(DateTimeSchema, v.description('When the row was first loaded.')),
  updatedAt: v.pipe(DateTimeSchema, v.description('When the row last changed.')),
  ratePlans: ratePlansSchema({}),
});

export const RateRowSchema = v.object({
  propertyId: v.pipe(v.string(), v.description('The property (unit type).')),
  date: v.pipe(v.string(), v.description('The night (yyyy-mm-dd).')),
  mealPlan: v.pipe(v.string(), v.description('EP (room only), CP (breakfast), MAP (breakfast and one meal) or AP (every meal).')),
  adults: v.pipe(v.number(), v.description('The occupancy the rate is for.')),
  rate: v.pipe(v.number(), v.description("Rupees for one unit that night at your channel's rates.")),
});

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
      schema: v.object({
        data: v.pipe(v.array(ListingWithPropertiesSchema), v.description('The listings of this page, by id.')),
        total: v.pipe(v.number(), v.description('Every listing of your channel, on all pages.')),
        page: v.pipe(v.number(), v.description('This page, from 1.')),
        size: v.pipe(v.number(), v.description('Page size.')),
      }),
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

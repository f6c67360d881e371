import * as v from 'valibot';
import { MAX_UNITS_PER_PROPERTY } from '../../domain/pricing/index.ts';
import { GROUP_RADIUS_METERS, PROXIMITY_BANDS } from '../../domain/search/geo.ts';
import { MAX_COMBINED_GROUPS, MAX_GROUP_LISTINGS } from '../../domain/search/combine.ts';
import { FILTER_NAMES, SEARCH_PAGE, SEARCH_SORTS, SELECTION_TYPES } from '../../domain/search/search-query.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS } from './common.ts';

const TAG = ['Distribution API'];

/** Bounds on what one search body may carry; the filter rules themselves live in domain/search. */
export const SEARCH_LIMITS = { rawParams: 30, filterValues: 100, text: 100, selections: 20, id: 100 } as const;

const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `must be at most ${max} characters.`));
const count = (min: number, max: number) =>
  v.pipe(v.number(), v.integer('must be a whole number.'), v.minValue(min, `must be at least ${min}.`), v.maxValue(max, `must be at most ${max}.`));
const list = <S extends v.GenericSchema>(item: S, max: number) => v.pipe(v.array(item), v.maxLength(max, `may hold at most ${max} entries.`));

export const RawParamSchema = v.strictObject({
  filterName: v.pipe(text(SEARCH_LIMITS.text), v.description(`One of ${FILTER_NAMES.join(', ')} (docs/search.md); anything else is a 400 naming it.`)),
  filterValues: v.pipe(
    list(text(SEARCH_LIMITS.text), SEARCH_LIMITS.filterValues),
    v.description('Strings, even for numbers and dates; single-valued filters take exactly one.'),
  ),
});

export const SearchSelectionSchema = v.strictObject({
  date: v.optional(v.pipe(v.string(), v.description('Optional; when given it must be the checkIn (a PROPERTY selection covers the whole stay).'))),
  type: v.pipe(
    v.string(),
    v.description(`One of ${SELECTION_TYPES.join(', ')}: pins a property (id) and its quantity; the search is narrowed to the pinned listings.`),
  ),
  id: v.pipe(text(SEARCH_LIMITS.id), v.description('A property id of a listing on your channel.')),
  adults: v.optional(v.pipe(count(0, 100), v.description('Not used by PROPERTY selections: the party comes from rawParams.'))),
  children: v.optional(v.pipe(count(0, 100), v.description('Not used by PROPERTY selections.'))),
  quantity: v.optional(v.pipe(count(1, MAX_UNITS_PER_PROPERTY), v.description(`Units of the property, 1–${MAX_UNITS_PER_PROPERTY}; default 1.`))),
});

export const SearchBodySchema = v.strictObject({
  rawParams: v.pipe(list(RawParamSchema, SEARCH_LIMITS.rawParams), v.description('Filters; checkIn and checkOut are required. Echoed back unchanged.')),
  selections: v.optional(list(SearchSelectionSchema, SEARCH_LIMITS.selections)),
  selectedCancellationPlanId: v.optional(
    v.pipe(text(SEARCH_LIMITS.id), v.description("The plan prices use where a listing offers it; elsewhere the listing's default. An unknown plan is a 400.")),
  ),
});

export const SearchPriceSchema = v.object({
  perNight: v.number(),
  perNightBeforeDiscount: v.number(),
  total: v.number(),
  totalBeforeDiscount: v.number(),
  totalSaving: v.number(),
  discountPercent: v.number(),
});

export const SearchListingSchema = v.object({
  listingId: v.string(),
  title: v.string(),
  coverPicture: v.string(),
  encodedId: v.pipe(v.string(), v.description('The listing id as base64url, safe in URLs and paths.')),
  propertyType: v.string(),
  brand: v.string(),
  badges: v.array(v.object({ label: v.string(), type: v.string(), placement: v.string() })),
  adults: v.pipe(v.number(), v.description('Adults the whole listing sleeps (every unit of every property); likewise beds, bathrooms, bedrooms, unitCount.')),
  beds: v.number(),
  bathrooms: v.number(),
  bedrooms: v.number(),
  unitCount: v.number(),
  locality: v.string(),
  city: v.string(),
  state: v.string(),
  rating: v.number(),
  reviewCount: v.number(),
  overallRating: v.pipe(v.number(), v.description('Same as rating (one review source).')),
  totalReviews: v.pipe(v.number(), v.description('Same as reviewCount.')),
  tags: v.array(v.string()),
  usps: v.array(v.object({ id: v.number(), name: v.string(), description: v.string(), isDifferentiator: v.boolean() })),
  selectedProperties: v.pipe(
    v.array(v.object({ propertyId: v.string(), title: v.string(), quantity: v.number() })),
    v.description('The units priced, all open on every night; pass them as selectedProperties to the order preview for the same price.'),
  ),
  price: v.pipe(SearchPriceSchema, v.description('Indicative, before GST, with the cancellation plan chosen; the order preview is authoritative.')),
  offerTitles: v.pipe(v.array(v.string()), v.description("Your channel's bank offers this stay is eligible for; not applied to price.")),
  cancellationPlans: v.array(
    v.object({
      id: v.string(),
      name: v.string(),
      planType: v.string(),
      cancellationSummary: v.string(),
      hasDiscount: v.boolean(),
      totalAfterDiscount: v.number(),
      perNightAfterDiscount: v.number(),
      totalSaving: v.number(),
      discountPercent: v.number(),
    }),
  ),
});

export const SearchResultSchema = v.object({
  singleListings: v.array(SearchListingSchema),
  combinedGroups: v.pipe(
    v.array(
      v.object({
        groupId: v.string(),
        totalAdultCapacity: v.number(),
        totalChildrenCapacity: v.number(),
        listingCount: v.number(),
        maxPairwiseDistanceMeters: v.number(),
        proximityLabel: v.pipe(v.string(), v.description(PROXIMITY_BANDS.map((b) => `${b.label} (≤ ${b.upToMeters} m)`).join(', '))),
        listings: v.array(SearchListingSchema),
        price: SearchPriceSchema,
      }),
    ),
    v.description(
      `Only when no single listing can take the party: up to ${MAX_COMBINED_GROUPS} groups of ${MAX_GROUP_LISTINGS} listings at most, every pair within ${GROUP_RADIUS_METERS} m.`,
    ),
  ),
  nights: v.number(),
  requiredAdults: v.number(),
  requiredChildren: v.number(),
  page: v.number(),
  size: v.number(),
  totalSingleListings: v.number(),
  totalPages: v.number(),
  rawParams: v.array(v.object({ filterName: v.string(), filterValues: v.array(v.string()) })),
});

export const searchListingsRoute = defineRoute({
  operationId: 'searchListings',
  method: 'POST',
  path: '/v1/listings/search',
  auth: 'v1',
  summary: 'Availability- and filter-aware search on your channel',
  description: [
    'A listing is in singleListings only if open units hold the party on every night (no stop-sell, minimum and maximum stay met).',
    `Filters (rawParams filterName): ${FILTER_NAMES.join(', ')}; sort: ${SEARCH_SORTS.join(', ')}.`,
    `page (default 1) and size (default ${SEARCH_PAGE.defaultSize}, at most ${SEARCH_PAGE.maxSize}) travel in rawParams. Unknown filters, bad values and size above ${SEARCH_PAGE.maxSize} are 400s naming e.g. rawParams[2].filterValues[0].`,
    'Prices are indicative and before GST; see docs/search.md.',
  ].join(' '),
  tags: TAG,
  body: SearchBodySchema,
  responses: {
    200: { description: 'One page of single listings, and combined groups when no single listing can take the party.', schema: SearchResultSchema },
    ...AUTHENTICATED_ERRORS,
  },
});

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
  selections: v.optional(
    v.pipe(
      list(SearchSelectionSchema, SEARCH_LIMITS.selections),
      v.description('Properties to pin, with their quantities; the search is narrowed to their listings.'),
    ),
  ),
  selectedCancellationPlanId: v.optional(
    v.pipe(text(SEARCH_LIMITS.id), v.description("The plan prices use where a listing offers it; elsewhere the listing's default. An unknown plan is a 400.")),
  ),
});

/** Indicative rupees of a search result: before GST, after the cancellation plan, without meals, services or bank offers (docs/search.md "Prices"). */
export const SearchPriceSchema = v.object({
  perNight: v.pipe(v.number(), v.description('total ÷ nights, rounded half up; what minPrice and maxPrice bound and price sorts use.')),
  perNightBeforeDiscount: v.pipe(v.number(), v.description('totalBeforeDiscount ÷ nights, rounded half up.')),
  total: v.pipe(v.number(), v.description("The stay after the cancellation plan's discount, before GST.")),
  totalBeforeDiscount: v.pipe(v.number(), v.description('The stay at the channel rates, before any discount.')),
  totalSaving: v.pipe(v.number(), v.description('totalBeforeDiscount − total: the discounts taken.')),
  discountPercent: v.pipe(v.number(), v.description('totalSaving as a whole percentage of totalBeforeDiscount, rounded down.')),
});

export const SearchListingSchema = v.object({
  listingId: v.pipe(v.string(), v.description('The listing id; pass it as listingId to the order preview.')),
  title: v.pipe(v.string(), v.description("The listing's title.")),
  coverPicture: v.pipe(v.string(), v.description('URL of the cover picture, from the catalogue.')),
  encodedId: v.pipe(v.string(), v.description('The listing id as base64url, safe in URLs and paths.')),
  propertyType: v.pipe(v.string(), v.description("The listing's type.")),
  brand: v.pipe(v.string(), v.description('The brand the listing is sold under, from the catalogue.')),
  badges: v.pipe(
    v.array(
      v.object({
        label: v.pipe(v.string(), v.description('The badge text.')),
        type: v.pipe(v.string(), v.description('The kind of badge, from the catalogue.')),
        placement: v.pipe(v.string(), v.description('Where a card shows it, from the catalogue.')),
      }),
    ),
    v.description('Badges for a result card, from the catalogue.'),
  ),
  adults: v.pipe(v.number(), v.description('Adults the whole listing sleeps (every unit of every property); likewise beds, bathrooms, bedrooms, unitCount.')),
  beds: v.pipe(v.number(), v.description('Beds of the whole listing.')),
  bathrooms: v.pipe(v.number(), v.description('Bathrooms of the whole listing.')),
  bedrooms: v.pipe(v.number(), v.description('Bedrooms of the whole listing.')),
  unitCount: v.pipe(v.number(), v.description('Units of every property of the listing.')),
  locality: v.pipe(v.string(), v.description('Locality (area within the city).')),
  city: v.pipe(v.string(), v.description('City.')),
  state: v.pipe(v.string(), v.description('Indian state.')),
  rating: v.pipe(v.number(), v.description('Average guest rating, 0–5.')),
  reviewCount: v.pipe(v.number(), v.description('Reviews behind rating.')),
  overallRating: v.pipe(v.number(), v.description('Same as rating (one review source).')),
  totalReviews: v.pipe(v.number(), v.description('Same as reviewCount.')),
  tags: v.pipe(v.array(v.string()), v.description('Catalogue tags of the listing.')),
  usps: v.pipe(
    v.array(
      v.object({
        id: v.pipe(v.number(), v.description('The selling point id.')),
        name: v.pipe(v.string(), v.description('Its name.')),
        description: v.pipe(v.string(), v.description('It in a sentence.')),
        isDifferentiator: v.pipe(v.boolean(), v.description('Whether it sets the listing apart (show it first).')),
      }),
    ),
    v.description('Unique selling points, from the catalogue.'),
  ),
  selectedProperties: v.pipe(
    v.array(
      v.object({
        propertyId: v.pipe(v.string(), v.description('A property (unit type) of the listing.')),
        title: v.pipe(v.string(), v.description("The property's name.")),
        quantity: v.pipe(v.number(), v.description('Units of it priced.')),
      }),
    ),
    v.description('The units priced, all open on every night; pass them as selectedProperties to the order preview for the same price.'),
  ),
  price: v.pipe(SearchPriceSchema, v.description('Indicative, before GST, with the cancellation plan chosen; the order preview is authoritative.')),
  offerTitles: v.pipe(v.array(v.string()), v.description("Your channel's bank offers this stay is eligible for; not applied to price.")),
  cancellationPlans: v.pipe(
    v.array(
      v.object({
        id: v.pipe(v.string(), v.description('The plan id: selectedCancellationPlanId here, cancellationPlanId on an order.')),
        name: v.pipe(v.string(), v.description("The plan's name.")),
        planType: v.pipe(v.string(), v.description('The kind of plan, from the catalogue.')),
        cancellationSummary: v.pipe(v.string(), v.description('The refund schedule in one line, built from the schedule an order carries.')),
        hasDiscount: v.pipe(v.boolean(), v.description('Whether the plan takes a percentage off the stay.')),
        totalAfterDiscount: v.pipe(v.number(), v.description("The stay's total under this plan (its price.total).")),
        perNightAfterDiscount: v.pipe(v.number(), v.description('Per night under this plan (its price.perNight).')),
        totalSaving: v.pipe(v.number(), v.description('What this plan saves.')),
        discountPercent: v.pipe(v.number(), v.description("The plan's saving as a whole percentage, rounded down.")),
      }),
    ),
    v.description('Every plan the listing offers, quoted for the same units.'),
  ),
});

export const SearchResultSchema = v.object({
  singleListings: v.pipe(
    v.array(SearchListingSchema),
    v.description('Listings that hold the party alone on every night, in the sort order; this page of them.'),
  ),
  combinedGroups: v.pipe(
    v.array(
      v.object({
        groupId: v.pipe(v.string(), v.description('An id for this group within this answer.')),
        totalAdultCapacity: v.pipe(v.number(), v.description('Adults the chosen units hold.')),
        totalChildrenCapacity: v.pipe(v.number(), v.description('Children the chosen units hold.')),
        listingCount: v.pipe(v.number(), v.description('Listings in the group.')),
        maxPairwiseDistanceMeters: v.pipe(v.number(), v.description('The greatest distance between two of its listings, in metres.')),
        proximityLabel: v.pipe(v.string(), v.description(PROXIMITY_BANDS.map((b) => `${b.label} (≤ ${b.upToMeters} m)`).join(', '))),
        listings: v.pipe(v.array(SearchListingSchema), v.description('The members, each with its share of the party priced.')),
        price: v.pipe(SearchPriceSchema, v.description("The sum of the members' prices (per night and discount percent recomputed on the sums).")),
      }),
    ),
    v.description(
      `Only when no single listing can take the party: up to ${MAX_COMBINED_GROUPS} groups of ${MAX_GROUP_LISTINGS} listings at most, every pair within ${GROUP_RADIUS_METERS} m.`,
    ),
  ),
  nights: v.pipe(v.number(), v.description('Nights of the stay searched.')),
  requiredAdults: v.pipe(v.number(), v.description('Adults of the party searched.')),
  requiredChildren: v.pipe(v.number(), v.description('Children of the party searched.')),
  page: v.pipe(v.number(), v.description('This page, from 1.')),
  size: v.pipe(v.number(), v.description('Page size.')),
  totalSingleListings: v.pipe(v.number(), v.description('Every single listing found, on all pages.')),
  totalPages: v.pipe(v.number(), v.description('⌈totalSingleListings ÷ size⌉; 0 when nothing is found.')),
  rawParams: v.pipe(
    v.array(
      v.object({
        filterName: v.pipe(v.string(), v.description('The filter, as sent.')),
        filterValues: v.pipe(v.array(v.string()), v.description('Its values, as sent.')),
      }),
    ),
    v.description('The filters, echoed back unchanged.'),
  ),
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

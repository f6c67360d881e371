import * as v from 'valibot';
import { HORIZON_NOTE } from '../../domain/catalogue/calendar.ts';
import { MAX_WINDOW_DATES } from '../../domain/reads/date-window.ts';
import { FEED_PAGE, MAX_LISTING_IDS } from '../../domain/reads/distribution-reads.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema, instantSchema, pageSizeParam } from './common.ts';
import { dateParam, idList, listing, PROPERTY_PLACE, property, ratePlansSchema } from './partner-reads.ts';

const TAG = ['Distribution API'];

const ListingIdsSchema = idList('listingIds');

const FeedSizeSchema = v.optional(
  pageSizeParam(
    FEED_PAGE.maxSize,
    `Page size, 1–${FEED_PAGE.maxSize}. Default ${FEED_PAGE.defaultSize}; with listingIds, the number of ids given, so the page holds the whole set.`,
  ),
);

export const ListingsFeedQuerySchema = v.strictObject({
  listingIds: ListingIdsSchema,
  updatedSince: v.optional(
    v.pipe(
      instantSchema('updatedSince'),
      v.description(`Only listings updated at or after this instant (a listing counts as updated when it or one of its properties changed). ${HORIZON_NOTE}`),
    ),
  ),
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1, 'cursor must not be empty.'),
      v.description('nextCursor of the previous page, unchanged, with the same listingIds and updatedSince.'),
    ),
  ),
  size: FeedSizeSchema,
});

export const ListingIdParamsSchema = v.object({
  listingId: v.pipe(
    v.string(),
    v.minLength(1, 'listingId must not be empty.'),
    v.maxLength(64, 'listingId is at most 64 characters.'),
    v.description('A listing id of your channel.'),
  ),
});

/**
 * A strict object whose only required key is listingIds: valibot reports a missing key
 * with the object's message, and parseInput prefixes the key's name.
 */
export const AvailabilityQuerySchema = v.strictObject(
  {
    listingIds: v.pipe(ListingIdsSchema.wrapped, v.description(`Required. Comma-separated or repeated; at most ${MAX_LISTING_IDS}.`)),
    from: dateParam('from', 'Inclusive; default today (India).'),
    to: dateParam('to', `Inclusive; default 30 dates from \`from\`; at most ${MAX_WINDOW_DATES} dates in all.`),
  },
  'is required.',
);

export const DistributionPropertySchema = v.object({
  id: property('id', v.string()),
  name: property('name', v.string()),
  brand: property('brand', v.string()),
  type: property('type', v.string()),
  ...PROPERTY_PLACE,
  maxAdults: property('maxAdults', v.pipe(v.number(), v.integer())),
  maxChildren: property('maxChildren', v.pipe(v.number(), v.integer())),
  applicableAdult: property('applicableAdult', v.pipe(v.number(), v.integer())),
  applicableChild: property('applicableChild', v.pipe(v.number(), v.integer())),
  numberOfBeds: property('numberOfBeds', v.pipe(v.number(), v.integer())),
  quantity: v.pipe(v.number(), v.integer(), v.description('Units of this type the listing has.')),
  price: v.pipe(v.number(), v.description("Indicative nightly price in rupees at your channel's rates.")),
  isPetFriendly: property('isPetFriendly', v.boolean()),
  photos: v.pipe(
    v.array(v.object({ url: v.pipe(v.string(), v.description('URL of the photo.')), name: v.pipe(v.string(), v.description('What it shows.')) })),
    v.description('Photos of the property.'),
  ),
  amenities: v.pipe(
    v.array(
      v.object({
        icon: v.pipe(v.string(), v.description('An icon name for the amenity.')),
        name: v.pipe(v.string(), v.description('The amenity.')),
        category: v.pipe(v.string(), v.description('Its group, such as kitchen or outdoors.')),
      }),
    ),
    v.description('Amenities of the property.'),
  ),
});

export const DistributionListingSchema = v.object({
  id: listing('id', v.string()),
  title: listing('title', v.string()),
  status: v.pipe(v.string(), v.description('ACTIVE or INACTIVE.')),
  type: listing('type', v.string()),
  city: listing('city', v.string()),
  state: listing('state', v.string()),
  country: listing('country', v.string()),
  locality: listing('locality', v.string()),
  latitude: listing('latitude', v.number()),
  longitude: listing('longitude', v.number()),
  maxAdults: listing('maxAdults', v.pipe(v.number(), v.integer())),
  maxChildren: listing('maxChildren', v.pipe(v.number(), v.integer())),
  price: v.pipe(v.number(), v.description("Indicative nightly price in rupees at your channel's rates.")),
  createdAt: listing('createdAt', DateTimeSchema),
  updatedAt: v.pipe(
    DateTimeSchema,
    v.description('Last change of the listing or any of its properties: its position in the feed. Pass the latest you hold as updatedSince.'),
  ),
  properties: v.pipe(v.array(DistributionPropertySchema), v.description('Ordered by id.')),
});

export const AvailabilityDaySchema = v.object({
  date: v.pipe(v.string(), v.description('The date (yyyy-mm-dd).')),
  unitsAvailable: v.pipe(v.number(), v.integer(), v.description('Units that can be sold on this date: 0 when sold out or stop-sold.')),
  stopSell: v.pipe(v.boolean(), v.description('Sales closed on this date whatever the units; unitsAvailable is then 0.')),
  minimumStay: v.pipe(v.number(), v.integer(), v.description('Nights; applies to every stay touching this date.')),
  maximumStay: v.pipe(v.number(), v.integer(), v.description('Nights; applies to every stay touching this date.')),
  ratePlans: ratePlansSchema({
    unitsAvailable: v.pipe(v.number(), v.integer(), v.description('Units that can be sold on this plan: 0 when the plan is stop-sold.')),
  }),
});

export const AvailabilitySchema = v.object({
  from: v.pipe(v.string(), v.description('First date of the window (yyyy-mm-dd).')),
  to: v.pipe(v.string(), v.description('Last date of the window (yyyy-mm-dd).')),
  data: v.pipe(
    v.array(
      v.object({
        listingId: v.pipe(v.string(), v.description('A listing asked for.')),
        properties: v.pipe(
          v.array(
            v.object({
              propertyId: v.pipe(v.string(), v.description('A property (unit type) of the listing.')),
              days: v.pipe(v.array(AvailabilityDaySchema), v.description('Ordered by date. A date without loaded inventory is absent and cannot be booked.')),
            }),
          ),
          v.description('Its properties, by id.'),
        ),
      }),
    ),
    v.description('Each listing asked for on your channel, by id.'),
  ),
});

export const listDistributionListingsRoute = defineRoute({
  operationId: 'listDistributionListings',
  method: 'GET',
  path: '/v1/listings',
  auth: 'v1',
  summary: "Your channel's catalogue feed",
  description: [
    'Listings distributed to your channel, ordered by updatedAt, then id. All filters combine with AND; listingIds outside your channel are simply absent.',
    'To keep a copy in sync, store the latest updatedAt you have seen and ask with updatedSince; follow nextCursor until it is null.',
    'nextCursor is returned whenever the page came back full (the next page may be empty) and is null on the last page.',
    'A cursor is bound to your key and to listingIds and updatedSince; a malformed, altered or foreign cursor is 400 naming cursor. size may change between pages.',
    'A listing that changes while you page moves to the end of the feed and is returned again.',
  ].join(' '),
  tags: TAG,
  query: ListingsFeedQuerySchema,
  responses: {
    200: {
      description: 'One page.',
      schema: v.object({
        data: v.pipe(v.array(DistributionListingSchema), v.description('The listings of this page, by updatedAt, then id.')),
        nextCursor: v.pipe(v.nullable(v.string()), v.description('Pass as cursor for the next page; null on the last page.')),
      }),
    },
    ...AUTHENTICATED_ERRORS,
  },
});

export const getDistributionListingRoute = defineRoute({
  operationId: 'getDistributionListing',
  method: 'GET',
  path: '/v1/listings/{listingId}',
  auth: 'v1',
  summary: 'One listing of your channel',
  description: 'The bulk form (GET /v1/listings?listingIds=…) is preferred. A listing not distributed to your channel is 404, exactly like an unknown id.',
  tags: TAG,
  params: ListingIdParamsSchema,
  responses: {
    200: { description: 'The listing.', schema: DistributionListingSchema },
    404: { description: 'No such listing on your channel.', schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

export const readAvailabilityRoute = defineRoute({
  operationId: 'readAvailability',
  method: 'GET',
  path: '/v1/availability',
  auth: 'v1',
  summary: 'Daily availability per property',
  description: [
    `Per listing, property and date of the window (at most ${MAX_WINDOW_DATES} dates, from and to inclusive): units that can be sold, stop-sell, minimum and maximum stay.`,
    `listingIds is required (at most ${MAX_LISTING_IDS}); ids outside your channel are simply absent. Listings and properties are ordered by id.`,
    'Large responses are gzip-compressed when the request sends `Accept-Encoding: gzip`.',
  ].join(' '),
  tags: TAG,
  query: AvailabilityQuerySchema,
  responses: { 200: { description: 'The window and each listing asked for.', schema: AvailabilitySchema }, ...AUTHENTICATED_ERRORS },
});

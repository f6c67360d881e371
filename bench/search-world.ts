import { diffCatalogue, emptyStoredCatalogue } from '../domain/catalogue/catalogue-diff.ts';
import type { BankOffer } from '../domain/catalogue/offers.ts';
import type { Stored } from '../domain/catalogue/versioned.ts';
import type { ListingView } from '../domain/ports/catalogue-reader.ts';
import { buildPlace, headOfPlaces, monthStrings, PROJECTION_VERSION, shardName, type BuiltPlace, type MonthStrings } from '../domain/search/projection.ts';
import { worldCatalogue } from '../domain/world/world-catalogue.ts';
import { parseWorldShape, type WorldInput } from '../domain/world/world-schema.ts';
import { operatorConfig } from '../infra/aws-client.ts';
import type { Services } from '../infra/container.ts';
import { putAll } from '../infra/dynamo/batch-write.ts';
import { createDocumentClient } from '../infra/dynamo/client.ts';
import { itemsOfWrites } from '../infra/dynamo/dynamo-catalogue-store.ts';
import { ATTR, headItem, shardItems } from '../infra/dynamo/dynamo-search-projection.ts';
import { inParallel } from '../infra/dynamo/in-parallel.ts';
import { keys } from '../infra/dynamo/keys.ts';
import { addDays } from '../domain/catalogue/calendar.ts';

/** Listings per town: a one-town search finds about this many, whatever the channel's size. */
export const LISTINGS_PER_TOWN = 100;

/** Where the generated listings stand: one town per LISTINGS_PER_TOWN listings, each listing within about 2 km of its town's centre. */
const townsOf = (listings: number) =>
  Array.from({ length: Math.max(1, Math.ceil(listings / LISTINGS_PER_TOWN)) }, (_, t) => ({
    city: `Town ${String(t).padStart(3, '0')}`,
    state: ['Goa', 'Maharashtra', 'Karnataka', 'Kerala', 'Himachal Pradesh'][t % 5]!,
    latitude: 9 + (t % 10) * 2.1,
    longitude: 73 + Math.floor(t / 10) * 1.3,
  }));
const TAGS = ['beach', 'pool', 'mountain-view', 'heritage', 'pet-friendly', 'workation'];

/**
 * A catalogue for the search benchmark: `listings` listings spread over towns of
 * LISTINGS_PER_TOWN (5,000 listings: 50 towns, so a city filter leaves 2 %), each with a whole villa (8 adults) and two cottages (3
 * adults each), `days` days of inventory and EP/CP rates from `from`, and a stop-sell
 * night every 10 days on every tenth listing so availability has something to refuse.
 */
export function searchWorld(opts: {
  channelId: string;
  listings: number;
  from: string;
  days: number;
  idPrefix?: string;
  only?: (i: number) => boolean;
}): WorldInput {
  const plans = ['sb-flexible', 'sb-nonref'];
  const TOWNS = townsOf(opts.listings);
  const to = addDays(opts.from, opts.days - 1);
  const listings = Array.from({ length: opts.listings }, (_, i) => i)
    .filter(opts.only ?? (() => true))
    .map((i) => {
      const town = TOWNS[i % TOWNS.length]!;
      const slot = Math.floor(i / TOWNS.length);
      const id = `${opts.idPrefix ?? 'sb-l'}${String(i).padStart(5, '0')}`;
      const latitude = Number((town.latitude + ((slot % 10) - 5) * 0.003).toFixed(5));
      const longitude = Number((town.longitude + (Math.floor(slot / 10) - 5) * 0.003).toFixed(5));
      const property = (
        key: string,
        over: { maxAdults: number; applicableAdult: number; quantity: number; bedrooms: number; basePrice: number; isPetFriendly?: boolean },
      ) => ({
        id: `${id}-${key}`,
        name: key === 'villa' ? 'Whole villa' : 'Garden cottage',
        type: key === 'villa' ? 'ENTIRE_HOME' : 'COTTAGE',
        bathrooms: over.bedrooms,
        numberOfBeds: over.bedrooms,
        maxChildren: 2,
        applicableChild: 1,
        extraAdultRate: 1_200,
        extraChildRate: 600,
        imageUrl: 'https://images.example.com/sb.jpg',
        ...over,
      });
      return {
        id,
        title: `Search Villa ${i}`,
        type: i % 3 === 0 ? 'BUNGALOW' : 'VILLA',
        brand: `Brand ${i % 7}`,
        locality: `Ward ${slot % 5}`,
        city: town.city,
        state: town.state,
        addressLine: `${i} Search Road`,
        latitude,
        longitude,
        maxAdults: 14,
        maxChildren: 6,
        basePrice: 9_000,
        amenities: ['Wi-Fi', ...(i % 2 ? ['Private pool'] : []), ...(i % 5 ? [] : ['Barbecue'])],
        tags: TAGS.filter((_, k) => (i + k) % 3 === 0),
        coverPicture: 'https://images.example.com/sb-cover.jpg',
        rating: Number((3.5 + ((i * 37) % 15) / 10).toFixed(1)),
        reviewCount: (i * 53) % 400,
        channelIds: [opts.channelId],
        cancellationPlanIds: plans,
        defaultCancellationPlanId: plans[0]!,
        properties: [
          property('villa', { maxAdults: 8, applicableAdult: 6, quantity: 1, bedrooms: 4, basePrice: 9_000 + (i % 40) * 250, isPetFriendly: i % 4 === 0 }),
          property('cottage', { maxAdults: 3, applicableAdult: 2, quantity: 2, bedrooms: 1, basePrice: 3_500 + (i % 30) * 100 }),
        ],
      };
    });
  const properties = listings.flatMap((l) => l.properties.map((p) => ({ ...p, listing: l })));
  const stopSells = (propertyId: string, i: number) =>
    i % 10 === 0
      ? Array.from({ length: Math.floor(opts.days / 10) }, (_, k) => ({
          propertyId,
          from: addDays(opts.from, k * 10 + 5),
          to: addDays(opts.from, k * 10 + 5),
          quantity: 0,
          stopSell: true,
        }))
      : [];
  return {
    version: 1,
    channels: [{ channelId: opts.channelId, name: 'Search bench channel' }],
    catalogue: {
      cancellationPlans: [
        { planId: plans[0]!, name: 'Flexible', planType: 'FLEXIBLE', schedule: [{ daysBeforeCheckIn: 7, refundPercentage: 100, label: 'Full refund' }] },
        { planId: plans[1]!, name: 'Non-refundable', planType: 'NON_REFUNDABLE', discountPercent: 12, schedule: [] },
      ],
      listings,
      inventory: properties.flatMap((p) => [
        { propertyId: p.id, from: opts.from, to, quantity: p.quantity, minimumStay: 1, maximumStay: 30 },
        ...stopSells(p.id, Number(p.listing.id.slice(-5))),
      ]),
      rates: properties.flatMap((p) =>
        (['EP'] as const).map((mealPlan, k) => ({
          propertyId: p.id,
          from: opts.from,
          to,
          mealPlan,
          adults: Object.fromEntries(
            Array.from({ length: p.applicableAdult }, (_, a) => [String(a + 1), Math.round(p.basePrice * (0.7 + 0.1 * a)) + k * 400 * (a + 1)]),
          ),
        })),
      ),
    },
  };
}

/**
 * Writes the generated world straight to the table, town by town, with batch writes, and
 * the channel's search projection built per town by the same code as a rebuild
 * (buildPlace). The admin import is the bottleneck at this size: it reads back every
 * month it might replace and checks every row, about 10 minutes for 5,000 listings × 365
 * days on the 2-core machine, most of it spent on the 130,000 month items. By default this
 * writes what a search reads (channel, plans, listing views, the projection); `full` also
 * writes the records an import would (listings, properties, owners, distributions,
 * months, locators), for runs that need the whole catalogue.
 */
export async function writeSearchWorld(
  svc: Services,
  opts: { channelId: string; listings: number; from: string; days: number; idPrefix?: string; full?: boolean },
): Promise<{ items: number }> {
  // Set-up, not measured: 16 lanes of 25-item batches keep DynamoDB Local busy for longer than
  // the service's 1.5 s request timeout (sized for a partner's request), which would abort the run.
  const db = createDocumentClient(operatorConfig(svc.config));
  const table = svc.config.tableName;
  const now = new Date().toISOString();
  const towns = Math.max(1, Math.ceil(opts.listings / LISTINGS_PER_TOWN));
  const built: BuiltPlace[] = [];
  const planIds = new Set<string>();
  const offers = new Map<string, Stored<BankOffer>>();
  let count = 0;
  for (let t = 0; t < towns; t++) {
    const doc = parseWorldShape(searchWorld({ ...opts, only: (i) => i % towns === t }));
    const writes = diffCatalogue(emptyStoredCatalogue(), worldCatalogue(doc), now).writes;
    const views: ListingView[] = writes.listings.map((listing) => ({
      listing,
      properties: writes.properties.filter((p) => p.listingId === listing.id).sort((a, b) => a.id.localeCompare(b.id)),
    }));
    const strings = new Map<string, MonthStrings[]>();
    for (const m of writes.months) strings.set(m.propertyId, [...(strings.get(m.propertyId) ?? []), { month: m.month, ...monthStrings(m) }]);
    const place = buildPlace(views, (id) => strings.get(id) ?? []);
    built.push(place);
    for (const v of views) for (const id of v.listing.cancellationPlanIds) planIds.add(id);
    for (const o of writes.offers) if (o.channelId === opts.channelId) offers.set(o.code, o);
    const { first, last } = itemsOfWrites(
      opts.full ? writes : { ...emptyStoredCatalogue(), channels: t === 0 ? writes.channels : [], cancellationPlans: t === 0 ? writes.cancellationPlans : [] },
    );
    const items = [
      ...first,
      ...views.map((v) => ({
        ...keys.listingView(v.listing.id),
        entity: 'ListingView',
        listingId: v.listing.id,
        listing: v.listing,
        properties: v.properties,
      })),
      ...shardItems(opts.channelId, place),
      ...(opts.full
        ? [
            ...writes.properties.map((p) => ({ ...keys.propertyOwner(p.id), entity: 'PropertyOwner', propertyId: p.id, listingId: p.listingId })),
            ...[...place.locators].map(([propertyId, at]) => ({
              ...keys.searchLocator(propertyId),
              entity: 'SearchLocator',
              listingId: at.listingId,
              v: PROJECTION_VERSION,
              [`${ATTR.channel}${opts.channelId}`]: shardName(at.shard),
            })),
          ]
        : []),
      ...last,
    ];
    await putInLanes(db, table, items);
    count += items.length;
  }
  await putInLanes(db, table, [headItem(opts.channelId, headOfPlaces(built, planIds, [...offers.values()]))]);
  db.destroy();
  return { items: count + 1 };
}

async function putInLanes(db: ReturnType<typeof createDocumentClient>, table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  await inParallel(batches, 16, (batch) => putAll(db, table, batch));
}

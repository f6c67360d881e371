import { diffCatalogue, emptyStoredCatalogue } from '../domain/catalogue/catalogue-diff.ts';
import { addDays } from '../domain/catalogue/calendar.ts';
import type { ListingView } from '../domain/ports/catalogue-reader.ts';
import { buildPlace, headOfPlaces, monthStrings, type BuiltPlace, type MonthStrings } from '../domain/search/projection.ts';
import { searchListings } from '../domain/search/search-listings.ts';
import { worldCatalogue } from '../domain/world/world-catalogue.ts';
import { parseWorldShape } from '../domain/world/world-schema.ts';
import { itemsOfWrites } from '../infra/dynamo/dynamo-catalogue-store.ts';
import { DynamoSearchCatalogue } from '../infra/dynamo/dynamo-search-catalogue.ts';
import { headItem, shardItems } from '../infra/dynamo/dynamo-search-projection.ts';
import { marshall } from '@aws-sdk/util-dynamodb';
import { searchWorld } from './search-world.ts';

/**
 * The search bench's 5,000-listing world held in memory behind a fake BatchGet, so the
 * CPU cost of one search can be profiled (node --cpu-prof) and timed without DynamoDB.
 * `npx tsx bench/search-cpu.ts [runs]`; SEARCH_CPU_LISTINGS and SEARCH_CPU_DAYS resize it.
 */
const LISTINGS = Number(process.env.SEARCH_CPU_LISTINGS ?? 5_000);
const DAYS = Number(process.env.SEARCH_CPU_DAYS ?? 60);
const channelId = 'search-cpu';
const today = '2027-01-10';
const items = new Map<string, Record<string, unknown>>();
const views = new Map<string, ListingView>();
const put = (item: Record<string, unknown>) => items.set(`${item.PK}|${item.SK}`, item);
const towns = Math.ceil(LISTINGS / 100);
const built: BuiltPlace[] = [];
const planIds = new Set<string>();
for (let t = 0; t < towns; t++) {
  const doc = parseWorldShape(searchWorld({ channelId, listings: LISTINGS, from: today, days: DAYS, only: (i) => i % towns === t }));
  const writes = diffCatalogue(emptyStoredCatalogue(), worldCatalogue(doc), '2027-01-01T00:00:00.000Z').writes;
  const here: ListingView[] = writes.listings.map((listing) => ({
    listing,
    properties: writes.properties.filter((p) => p.listingId === listing.id).sort((a, b) => a.id.localeCompare(b.id)),
  }));
  const strings = new Map<string, MonthStrings[]>();
  for (const m of writes.months) strings.set(m.propertyId, [...(strings.get(m.propertyId) ?? []), { month: m.month, ...monthStrings(m) }]);
  const place = buildPlace(here, (id) => strings.get(id) ?? []);
  built.push(place);
  for (const v of here) views.set(v.listing.id, v);
  for (const v of here) for (const id of v.listing.cancellationPlanIds) planIds.add(id);
  const { first, last } = itemsOfWrites({
    ...emptyStoredCatalogue(),
    channels: t === 0 ? writes.channels : [],
    cancellationPlans: t === 0 ? writes.cancellationPlans : [],
  });
  for (const item of [...first, ...shardItems(channelId, place), ...last]) put(item);
}
put(headItem(channelId, headOfPlaces(built, planIds, [])));

const table = 'cpu';
// Raw BatchGetItem (keys as { S }) gets its items as DynamoDB sends them; the document client's gets them plain.
const db = {
  send: async (cmd: { input: { RequestItems: Record<string, { Keys: { PK: string | { S: string }; SK: string | { S: string } }[] }> } }) => {
    const text = (v: string | { S: string }) => (typeof v === 'string' ? v : v.S);
    const found = cmd.input.RequestItems[table]!.Keys.map((k) => ({ raw: typeof k.PK !== 'string', item: items.get(`${text(k.PK)}|${text(k.SK)}`) }));
    return {
      Responses: { [table]: found.filter((f) => f.item !== undefined).map((f) => (f.raw ? marshall(f.item, { removeUndefinedValues: true }) : f.item)) },
    };
  },
};
const store = { listOffers: async () => [], getListingViews: async (ids: readonly string[]) => ids.map((id) => views.get(id)!).filter(Boolean) };
const catalogue = new DynamoSearchCatalogue(db as never, table, store as never, undefined as never);
const clock = { now: () => new Date(`${today}T06:00:00.000Z`) };
const principal = { kind: 'agent-group' as const, agentGroupId: 'g', partnerId: 'p', channelId, keyId: 'k', keyPrefix: 'k' };
const checkIn = addDays(today, 30);
const body = {
  rawParams: [
    { filterName: 'checkIn', filterValues: [checkIn] },
    { filterName: 'checkOut', filterValues: [addDays(checkIn, 2)] },
    { filterName: 'adults', filterValues: ['2'] },
  ],
};

const runs = Number(process.argv[2] ?? 15);
const times: number[] = [];
let found = 0;
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  const r = await searchListings({ catalogue, clock }, principal, body);
  times.push(performance.now() - t);
  found = r.totalSingleListings;
}
times.sort((a, b) => a - b);
console.log(
  `${LISTINGS} listings, unfiltered, ${found} found: median ${times[Math.floor(runs / 2)]!.toFixed(1)} ms, min ${times[0]!.toFixed(1)} ms (${runs} runs)`,
);

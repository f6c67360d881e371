import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { importWorld } from '../../domain/world/import-world.ts';
import type { WorldInput } from '../../domain/world/world-schema.ts';
import { adminDeps } from '../../infra/container.ts';
import { seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { expectContract } from '../support/contract.ts';
import { call, newAgentGroup, testServices, uniqueId, type GroupFixture } from '../support/stack.ts';

interface RawParam {
  filterName: string;
  filterValues: string[];
}
interface SearchListing {
  listingId: string;
  encodedId: string;
  selectedProperties: { propertyId: string; title: string; quantity: number }[];
  price: { perNight: number; total: number };
  cancellationPlans: { id: string }[];
}
interface SearchResult {
  singleListings: SearchListing[];
  combinedGroups: {
    groupId: string;
    listingCount: number;
    proximityLabel: string;
    maxPairwiseDistanceMeters: number;
    listings: SearchListing[];
    price: { total: number };
  }[];
  totalSingleListings: number;
  totalPages: number;
  page: number;
  size: number;
  nights: number;
  rawParams: RawParam[];
}

/** The fixture's days run 2027-03-01…10, with every property stop-sold on 2027-03-05. */
const stay = (checkIn = '2027-03-02', checkOut = '2027-03-04', ...more: [string, ...string[]][]): RawParam[] => [
  { filterName: 'checkIn', filterValues: [checkIn] },
  { filterName: 'checkOut', filterValues: [checkOut] },
  ...more.map(([filterName, ...filterValues]) => ({ filterName, filterValues })),
];
const ids = (r: SearchResult) => r.singleListings.map((l) => l.listingId).sort();

let fx: CatalogueFixture;
let groupA: GroupFixture;
let groupB: GroupFixture;
const search = (group: GroupFixture, body: unknown) => call<SearchResult>('POST', '/v1/listings/search', { key: group.apiKey, body });

beforeAll(async () => {
  fx = await seedCatalogue();
  [groupA, groupB] = await Promise.all([newAgentGroup({ channelId: fx.channelA }), newAgentGroup({ channelId: fx.channelB })]);
}, 120_000);

describe('POST /v1/listings/search', () => {
  it("finds only the caller's channel's listings, at that channel's rates", async () => {
    const [a, b] = await Promise.all([
      search(groupA, { rawParams: stay(undefined, undefined, ['adults', '2']) }),
      search(groupB, { rawParams: stay(undefined, undefined, ['adults', '2']) }),
    ]);

    expect(a.status).toBe(200);
    expectContract(a, 'searchListings');
    expectContract(b, 'searchListings');
    expect(ids(a.body)).toEqual([fx.both, fx.onlyA].sort());
    expect(ids(b.body)).toEqual([fx.both, fx.onlyB].sort());
    const onA = a.body.singleListings.find((l) => l.listingId === fx.both)!;
    const onB = b.body.singleListings.find((l) => l.listingId === fx.both)!;
    // Two adults fit the smaller suite (2 adults at ₹5,000); channel B sells 10 % below base.
    expect(onA.selectedProperties).toEqual([{ propertyId: fx.propertiesOf[fx.both]![0], title: 'Suite 1', quantity: 1 }]);
    expect(onA.price).toMatchObject({ perNight: 5000, total: 10000 });
    expect(onB.price).toMatchObject({ perNight: 4500, total: 9000 });
    expect(onA.cancellationPlans.map((p) => p.id)).toEqual([`flex-${fx.both.split('-').slice(1).join('-')}`]);
    expect(Buffer.from(onA.encodedId, 'base64url').toString()).toBe(fx.both);
    expect(a.body).toMatchObject({ nights: 2, page: 1, size: 20, totalSingleListings: 2, totalPages: 1, combinedGroups: [] });
  });

  it('echoes rawParams exactly as sent', async () => {
    const rawParams = stay(undefined, undefined, ['city', ' GOA'], ['tags', 'Beach'], ['sort', 'price_asc']);
    const res = await search(groupA, { rawParams });
    expect(res.status).toBe(200);
    expect(res.body.rawParams).toEqual(rawParams);
    expect(ids(res.body)).toEqual([fx.both, fx.onlyA].sort());
  });

  it.each([
    [['city', 'Pune'], []],
    [['tags', 'mountains'], []],
    [['amenities', 'wi-fi', 'pool'], 'all'],
    [['maxPrice', '4999'], []],
    [['minPrice', '5000'], 'all'],
    [['minBedrooms', '7'], []],
    [['propertyType', 'VILLA'], 'all'],
  ] as [[string, ...string[]], string[] | 'all'][])('filters %j', async (filter, expected) => {
    const res = await search(groupA, { rawParams: stay(undefined, undefined, ['adults', '2'], filter) });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected === 'all' ? [fx.both, fx.onlyA].sort() : expected);
  });

  it('leaves out listings with a stop-sell night in the stay', async () => {
    const res = await search(groupA, { rawParams: stay('2027-03-04', '2027-03-06') });
    expect(res.status).toBe(200);
    expectContract(res, 'searchListings');
    expect(res.body).toMatchObject({ singleListings: [], totalSingleListings: 0, totalPages: 0, combinedGroups: [] });
  });

  it('pages with page and size from rawParams', async () => {
    const first = await search(groupA, { rawParams: stay(undefined, undefined, ['size', '1'], ['sort', 'price_asc']) });
    const second = await search(groupA, { rawParams: stay(undefined, undefined, ['size', '1'], ['page', '2'], ['sort', 'price_asc']) });
    expect(first.body).toMatchObject({ page: 1, size: 1, totalSingleListings: 2, totalPages: 2 });
    expect(second.body).toMatchObject({ page: 2, size: 1, totalSingleListings: 2, totalPages: 2 });
    expect([...ids(first.body), ...ids(second.body)].sort()).toEqual([fx.both, fx.onlyA].sort());
  });

  it.each([
    ['an unknown filter', { rawParams: stay(undefined, undefined, ['colour', 'blue']) }, 'rawParams[2].filterName'],
    ['size 101', { rawParams: stay(undefined, undefined, ['size', '101']) }, 'rawParams[2].filterValues[0]'],
    ['a bad date', { rawParams: stay('2027-02-30') }, 'rawParams[0].filterValues[0]'],
    ['no checkOut', { rawParams: stay().slice(0, 1) }, 'rawParams'],
    ['an unknown selection type', { rawParams: stay(), selections: [{ type: 'MEAL', id: 'breakfast' }] }, 'selections[0].type'],
    ["another channel's property", { rawParams: stay(), selections: [{ type: 'PROPERTY', id: 'PLACEHOLDER_B' }] }, 'selections[0].id'],
    ['an unknown plan', { rawParams: stay(), selectedCancellationPlanId: 'no-such-plan' }, 'selectedCancellationPlanId'],
    ['a body without rawParams', {}, 'rawParams'],
    ['an unknown body field', { rawParams: stay(), sort: 'price_asc' }, 'sort'],
    ['filterValues that are not strings', { rawParams: [{ filterName: 'adults', filterValues: [2] }] }, 'rawParams[0].filterValues[0]'],
  ])('refuses %s with a 400 naming the parameter', async (_, body, param) => {
    const json = JSON.parse(JSON.stringify(body).replace('PLACEHOLDER_B', fx.propertiesOf[fx.onlyB]![0]!));
    const res = await search(groupA, json);
    expect(res.status).toBe(400);
    expectContract(res, 'searchListings');
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param });
  });

  it('prices a pinned property', async () => {
    const [, p2] = fx.propertiesOf[fx.onlyA]!;
    const res = await search(groupA, { rawParams: stay(undefined, undefined, ['adults', '2']), selections: [{ type: 'PROPERTY', id: p2, quantity: 1 }] });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([fx.onlyA]);
    expect(res.body.singleListings[0]!.selectedProperties).toEqual([{ propertyId: p2, title: 'Suite 2', quantity: 1 }]);
  });

  it('needs a key', async () => {
    const res = await call('POST', '/v1/listings/search', { body: { rawParams: stay() } });
    expect(res.status).toBe(401);
  });
});

describe('POST /v1/listings/search — combined groups', () => {
  let group: GroupFixture;
  let world: { near1: string; near2: string; stopped: string; far: string };

  beforeAll(async () => {
    const suffix = uniqueId('s').slice(2);
    const channelId = `chs-${suffix}`;
    const plan = `flex-${suffix}`;
    const at = (id: string, metresNorth: number) => ({
      id: `${id}-${suffix}`,
      title: `Cottage ${id}`,
      type: 'COTTAGE',
      brand: 'Group Stays',
      locality: 'Badem',
      city: 'Assagao',
      state: 'Goa',
      addressLine: '2 Hill Road',
      latitude: 15.594 + metresNorth / 111_195,
      longitude: 73.77,
      maxAdults: 4,
      maxChildren: 1,
      basePrice: 6_000,
      coverPicture: 'https://images.example.com/cottage.jpg',
      channelIds: [channelId],
      cancellationPlanIds: [plan],
      defaultCancellationPlanId: plan,
      properties: [
        {
          id: `${id}-${suffix}-c`,
          name: 'Whole cottage',
          type: 'ENTIRE_HOME',
          bedrooms: 2,
          bathrooms: 2,
          numberOfBeds: 2,
          maxAdults: 4,
          maxChildren: 1,
          applicableAdult: 4,
          applicableChild: 1,
          extraAdultRate: 1_000,
          extraChildRate: 500,
          quantity: 1,
          imageUrl: 'https://images.example.com/cottage.jpg',
          basePrice: 6_000,
        },
      ],
    });
    const listings = [at('near1', 0), at('near2', 150), at('stopped', 80), at('far', 30_000)];
    const input: WorldInput = {
      version: 1,
      channels: [{ channelId, name: 'Search channel' }],
      catalogue: {
        cancellationPlans: [
          { planId: plan, name: 'Flexible', planType: 'FLEXIBLE', schedule: [{ daysBeforeCheckIn: 7, refundPercentage: 100, label: 'Full refund' }] },
        ],
        listings,
        inventory: listings.flatMap((l) => [
          { propertyId: l.properties[0]!.id, from: '2027-04-01', to: '2027-04-10', quantity: 1, minimumStay: 1, maximumStay: 14 },
          ...(l.id.startsWith('stopped') ? [{ propertyId: l.properties[0]!.id, from: '2027-04-03', to: '2027-04-03', quantity: 1, stopSell: true }] : []),
        ]),
        rates: listings.map((l) => ({
          propertyId: l.properties[0]!.id,
          from: '2027-04-01',
          to: '2027-04-10',
          mealPlan: 'EP' as const,
          adults: { '1': 5_000, '2': 5_500, '3': 6_000, '4': 6_500 },
        })),
      },
    } as WorldInput;
    const svc = testServices();
    await importWorld({ ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue }, input, { allowPlaintextKeys: true });
    group = await newAgentGroup({ channelId });
    world = { near1: listings[0]!.id, near2: listings[1]!.id, stopped: listings[2]!.id, far: listings[3]!.id };
  }, 120_000);

  it('offers nearby listings together when the party is larger than any one of them', async () => {
    const res = await search(group, { rawParams: stay('2027-04-02', '2027-04-05', ['adults', '6']) });

    expect(res.status).toBe(200);
    expectContract(res, 'searchListings');
    expect(res.body.singleListings).toEqual([]);
    const [first] = res.body.combinedGroups;
    expect(first).toMatchObject({ listingCount: 2, maxPairwiseDistanceMeters: 150, proximityLabel: 'Same street', totalAdultCapacity: 8 });
    expect(first!.listings.map((l) => l.listingId).sort()).toEqual([world.near1, world.near2].sort());
    expect(first!.price.total).toBe(first!.listings.reduce((s, l) => s + l.price.total, 0));
    const everyone = res.body.combinedGroups.flatMap((g) => g.listings.map((l) => l.listingId));
    expect(everyone).not.toContain(world.stopped);
    expect(everyone).not.toContain(world.far);
  });

  it('answers single listings instead when one holds the party', async () => {
    const res = await search(group, { rawParams: stay('2027-04-02', '2027-04-05', ['adults', '4']) });
    expect(ids(res.body)).toEqual([world.far, world.near1, world.near2].sort());
    expect(res.body.combinedGroups).toEqual([]);
  });
});

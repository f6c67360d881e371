import { beforeAll, describe, expect, it } from 'vitest';
import { syncCatalogue } from '../../domain/sync/sync-catalogue.ts';
import { syncDeps } from '../../infra/container.ts';
import { FIXTURE_FROM, FIXTURE_TO, seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { expectContract } from '../support/contract.ts';
import { call, newAgentGroup, testServices, type CallResult, type GroupFixture } from '../support/stack.ts';

interface Listing {
  id: string;
  updatedAt: string;
  price: number;
  properties: { id: string; price: number }[];
}
interface Page {
  data: Listing[];
  nextCursor: string | null;
}

let fx: CatalogueFixture;
let groupA: GroupFixture;
let groupB: GroupFixture;
let otherGroupA: GroupFixture;
beforeAll(async () => {
  fx = await seedCatalogue();
  [groupA, groupB, otherGroupA] = await Promise.all([
    newAgentGroup({ channelId: fx.channelA }),
    newAgentGroup({ channelId: fx.channelB }),
    newAgentGroup({ channelId: fx.channelA }),
  ]);
}, 120_000);

const ids = (page: Page): string[] => page.data.map((l) => l.id);
const feedOrder = (a: Listing, b: Listing): number => (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Follows nextCursor from `path` until it is null, returning every page. */
async function walk(path: string, key: string): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: CallResult<Page> = await call<Page>('GET', cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path, { key });
    expect(res.status).toBe(200);
    pages.push(res.body);
    cursor = res.body.nextCursor;
  } while (cursor && pages.length < 10);
  return pages;
}

describe('GET /v1/listings', () => {
  it("returns the channel's listings in feed order with properties, photos, amenities and channel prices", async () => {
    const res = await call<Page>('GET', '/v1/listings', { key: groupA.apiKey });

    expect(res.status).toBe(200);
    expectContract(res, 'listDistributionListings');
    expect([...ids(res.body)].sort()).toEqual([fx.both, fx.onlyA].sort());
    expect(res.body.data).toEqual([...res.body.data].sort(feedOrder));
    expect(res.body.nextCursor).toBeNull();
    const both = res.body.data.find((l) => l.id === fx.both)!;
    expect(both).toMatchObject({
      title: `Villa ${fx.both}`,
      status: 'ACTIVE',
      type: 'Villa',
      city: 'Goa',
      state: 'Goa',
      locality: 'Anjuna',
      maxAdults: 8,
      maxChildren: 4,
      price: 10000,
    });
    expect(both.properties.map((p) => p.id)).toEqual(fx.propertiesOf[fx.both]);
    expect(both.properties[0]).toMatchObject({
      name: 'Suite 1',
      city: 'Goa',
      price: 5000,
      quantity: 2,
      photos: [
        { url: 'https://images.example.com/a.jpg', name: 'A' },
        { url: 'https://images.example.com/b.jpg', name: 'B' },
      ],
      amenities: [{ icon: 'wifi', name: 'Wi-Fi', category: 'Basics' }],
    });
  });

  it("prices at the caller's channel rate and shows only that channel's listings", async () => {
    const res = await call<Page>('GET', '/v1/listings', { key: groupB.apiKey });

    expect([...ids(res.body)].sort()).toEqual([fx.both, fx.onlyB].sort());
    const both = res.body.data.find((l) => l.id === fx.both)!;
    expect([both.price, ...both.properties.map((p) => p.price)]).toEqual([9000, 4500, 9000]);
  });

  it('pages with size and nextCursor until nextCursor is null, each listing once, in feed order', async () => {
    const all = (await call<Page>('GET', '/v1/listings', { key: groupA.apiKey })).body.data;

    const pages = await walk('/v1/listings?size=1', groupA.apiKey);

    expect(pages.map((p) => p.data.length)).toEqual([1, 1, 0]);
    expect(pages.flatMap(ids)).toEqual(all.map((l) => l.id));
    expect(pages.at(-1)!.nextCursor).toBeNull();
  });

  it('returns the whole requested set when listingIds comes without size, absent ids left out', async () => {
    const res = await call<Page>('GET', `/v1/listings?listingIds=${fx.both},${fx.onlyA},${fx.onlyB},no-such-listing`, { key: groupA.apiKey });

    expect(res.status).toBe(200);
    expectContract(res, 'listDistributionListings');
    expect([...ids(res.body)].sort()).toEqual([fx.both, fx.onlyA].sort());
    expect(res.body.nextCursor).toBeNull();
  });

  it('returns nextCursor when a listingIds page came back full, and null on the empty page after it', async () => {
    const pages = await walk(`/v1/listings?listingIds=${fx.onlyA},${fx.both}`, groupA.apiKey);

    expect(pages.map((p) => p.data.length)).toEqual([2, 0]);
    expect(pages[0]!.nextCursor).toEqual(expect.any(String));
    expect(pages[1]!.nextCursor).toBeNull();
  });

  it('pages a listingIds request with size in feed order', async () => {
    const whole = (await call<Page>('GET', `/v1/listings?listingIds=${fx.onlyA},${fx.both}`, { key: groupA.apiKey })).body;

    const pages = await walk(`/v1/listings?listingIds=${fx.onlyA},${fx.both}&size=1`, groupA.apiKey);

    expect(pages.flatMap(ids)).toEqual(ids(whole));
  });

  it('refuses a tampered cursor with a 400 naming cursor', async () => {
    const first = await call<Page>('GET', '/v1/listings?size=1', { key: groupA.apiKey });
    const cursor = first.body.nextCursor!;
    const tampered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;

    const res = await call('GET', `/v1/listings?size=1&cursor=${encodeURIComponent(tampered)}`, { key: groupA.apiKey });

    expect(res.status).toBe(400);
    expectContract(res, 'listDistributionListings');
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'cursor' });
  });

  it('refuses a cursor reused with other filters or by another agent group, but not with another size', async () => {
    const cursor = (await call<Page>('GET', '/v1/listings?size=1', { key: groupA.apiKey })).body.nextCursor!;
    const c = encodeURIComponent(cursor);

    const otherSince = await call('GET', `/v1/listings?size=1&updatedSince=2000-01-01T00:00:00Z&cursor=${c}`, { key: groupA.apiKey });
    const otherIds = await call('GET', `/v1/listings?size=1&listingIds=${fx.both}&cursor=${c}`, { key: groupA.apiKey });
    const otherCaller = await call('GET', `/v1/listings?size=1&cursor=${c}`, { key: otherGroupA.apiKey });
    const otherSize = await call('GET', `/v1/listings?size=5&cursor=${c}`, { key: groupA.apiKey });

    for (const res of [otherSince, otherIds, otherCaller]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'cursor' });
    }
    expect(otherSize.status).toBe(200);
  });

  it.each([
    ['size=101', 'size'],
    ['size=0', 'size'],
    ['size=ten', 'size'],
    [`listingIds=${Array.from({ length: 101 }, (_, i) => `l${i}`).join(',')}`, 'listingIds'],
    ['updatedSince=yesterday', 'updatedSince'],
    ['updatedSince=2027-03-01', 'updatedSince'],
    ['cursor=', 'cursor'],
    ['page=2', 'page'],
  ])('rejects %s with a 400 naming %s', async (qs, param) => {
    const res = await call('GET', `/v1/listings?${qs}`, { key: groupA.apiKey });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param });
  });

  it('accepts exactly 100 listingIds and size 100', async () => {
    const hundred = [fx.both, ...Array.from({ length: 99 }, (_, i) => `l${i}`)].join(',');

    const res = await call<Page>('GET', `/v1/listings?listingIds=${hundred}&size=100`, { key: groupA.apiKey });

    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([fx.both]);
  });

  it('refuses a partner (/api) key', async () => {
    const res = await call('GET', '/v1/listings', { key: fx.partnerA.apiKey });

    expect(res.status).toBe(401);
  });
});

describe('GET /v1/listings/{listingId}', () => {
  it("returns one of the channel's listings, the same record the feed shows", async () => {
    const feed = (await call<Page>('GET', `/v1/listings?listingIds=${fx.both}`, { key: groupB.apiKey })).body;

    const res = await call<Listing>('GET', `/v1/listings/${fx.both}`, { key: groupB.apiKey });

    expect(res.status).toBe(200);
    expectContract(res, 'getDistributionListing');
    expect(res.body).toEqual(feed.data[0]);
  });

  it("answers another channel's listing exactly like a listing that does not exist", async () => {
    const foreign = await call('GET', `/v1/listings/${fx.onlyB}`, { key: groupA.apiKey });
    const missing = await call('GET', '/v1/listings/no-such-listing', { key: groupA.apiKey });

    expect([foreign.status, missing.status]).toEqual([404, 404]);
    expectContract(foreign, 'getDistributionListing');
    const comparable = (b: Record<string, unknown>) => ({ ...b, timestamp: undefined, path: undefined });
    expect(comparable(foreign.body)).toEqual(comparable(missing.body));
    expect(foreign.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('rejects an over-long id with a 400 naming listingId', async () => {
    const res = await call('GET', `/v1/listings/${'x'.repeat(65)}`, { key: groupA.apiKey });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ param: 'listingId' });
  });
});

describe('GET /v1/listings?updatedSince', () => {
  it('returns only listings changed at or after the instant, a property change included, on every channel selling them', async () => {
    const before = new Date().toISOString();
    const listings = fx.world.catalogue!.listings! as Record<string, unknown>[];
    const onlyA = listings.find((l) => l.id === fx.onlyA)!;
    const both = listings.find((l) => l.id === fx.both)!;
    const bothProperties = both.properties as Record<string, unknown>[];
    const empty = await call<Page>('GET', `/v1/listings?updatedSince=${before}`, { key: groupA.apiKey });

    await syncCatalogue(syncDeps(testServices()), {
      version: 1,
      catalogue: {
        listings: [
          { ...onlyA, title: 'Renamed villa' },
          { ...both, properties: [bothProperties[0], { ...bothProperties[1], name: 'Garden Suite' }] },
        ],
      },
    });

    expect(empty.body).toEqual({ data: [], nextCursor: null });
    const a = await call<Page>('GET', `/v1/listings?updatedSince=${before}`, { key: groupA.apiKey });
    const b = await call<Page>('GET', `/v1/listings?updatedSince=${encodeURIComponent(before)}`, { key: groupB.apiKey });
    expect(a.status).toBe(200);
    expectContract(a, 'listDistributionListings');
    expect([...ids(a.body)].sort()).toEqual([fx.both, fx.onlyA].sort());
    expect(a.body.data.every((l) => l.updatedAt >= before)).toBe(true);
    expect(a.body.data.find((l) => l.id === fx.onlyA)).toMatchObject({ title: 'Renamed villa' });
    expect(ids(b.body)).toEqual([fx.both]);
    expect(b.body.data[0]!.properties[1]).toMatchObject({ name: 'Garden Suite' });
  });

  it('includes a listing updated exactly at updatedSince and accepts an offset form of the same instant', async () => {
    const listing = (await call<Listing>('GET', `/v1/listings/${fx.onlyA}`, { key: groupA.apiKey })).body;
    const at = new Date(listing.updatedAt);
    const ist = new Date(at.getTime() + 330 * 60_000).toISOString().replace('Z', '+05:30');

    const exact = await call<Page>('GET', `/v1/listings?updatedSince=${encodeURIComponent(listing.updatedAt)}`, { key: groupA.apiKey });
    const offset = await call<Page>('GET', `/v1/listings?updatedSince=${encodeURIComponent(ist)}`, { key: groupA.apiKey });
    const after = await call<Page>('GET', `/v1/listings?updatedSince=${new Date(at.getTime() + 1).toISOString()}`, { key: groupA.apiKey });

    expect(ids(exact.body)).toContain(fx.onlyA);
    expect(offset.body).toEqual(exact.body);
    expect(ids(after.body)).not.toContain(fx.onlyA);
  });

  it('combines updatedSince with listingIds (AND)', async () => {
    const since = (await call<Listing>('GET', `/v1/listings/${fx.onlyA}`, { key: groupA.apiKey })).body.updatedAt;

    const res = await call<Page>('GET', `/v1/listings?updatedSince=${since}&listingIds=${fx.onlyA},${fx.onlyB}`, { key: groupA.apiKey });

    expect(ids(res.body)).toEqual([fx.onlyA]);
  });
});

describe('GET /v1/availability', () => {
  const window = `from=${FIXTURE_FROM}&to=${FIXTURE_TO}`;

  it('returns units, stop-sell and stay limits per property and date, stop-sold dates at zero units', async () => {
    const res = await call('GET', `/v1/availability?listingIds=${fx.both},${fx.onlyB}&${window}`, { key: groupA.apiKey });

    expect(res.status).toBe(200);
    expectContract(res, 'readAvailability');
    expect(res.body).toMatchObject({ from: FIXTURE_FROM, to: FIXTURE_TO });
    expect(res.body.data.map((l: { listingId: string }) => l.listingId)).toEqual([fx.both]);
    const properties = res.body.data[0].properties;
    expect(properties.map((p: { propertyId: string }) => p.propertyId)).toEqual(fx.propertiesOf[fx.both]);
    const days = properties[0].days;
    expect(days.map((d: { date: string }) => d.date)).toEqual(Array.from({ length: 10 }, (_, i) => `2027-03-${String(i + 1).padStart(2, '0')}`));
    expect(days[0]).toEqual({ date: FIXTURE_FROM, unitsAvailable: 2, stopSell: false, minimumStay: 1, maximumStay: 14 });
    expect(days[4]).toEqual({ date: '2027-03-05', unitsAvailable: 0, stopSell: true, minimumStay: 1, maximumStay: 30 });
  });

  it('leaves out dates without inventory and listings of other channels', async () => {
    const res = await call('GET', `/v1/availability?listingIds=${fx.onlyB},no-such-listing&${window}`, { key: groupA.apiKey });
    const edge = await call('GET', `/v1/availability?listingIds=${fx.onlyB}&from=2027-02-25&to=2027-03-02`, { key: groupB.apiKey });

    expect(res.body).toEqual({ from: FIXTURE_FROM, to: FIXTURE_TO, data: [] });
    expect(edge.body.data[0].properties[0].days.map((d: { date: string }) => d.date)).toEqual(['2027-03-01', '2027-03-02']);
  });

  it('accepts a window of exactly 365 dates', async () => {
    const res = await call('GET', `/v1/availability?listingIds=${fx.both}&from=2027-01-01&to=2027-12-31`, { key: groupA.apiKey });

    expect(res.status).toBe(200);
    expect(res.body.data[0].properties[0].days).toHaveLength(10);
  });

  it.each([
    [window, 'listingIds'],
    [`listingIds=${Array.from({ length: 101 }, (_, i) => `l${i}`).join(',')}&${window}`, 'listingIds'],
    ['listingIds=x&from=2027-01-01&to=2028-01-01', 'to'],
    ['listingIds=x&from=2027-03-10&to=2027-03-01', 'from'],
    ['listingIds=x&from=2027-02-30', 'from'],
    ['listingIds=x&days=3', 'days'],
    // Beyond the horizon (2099-12-31): the window once read month keys up to the year 99989.
    ['listingIds=x&from=9999-12-29&to=9999-12-30', 'from'],
    ['listingIds=x&from=2099-12-31&to=2100-01-01', 'to'],
    ['listingIds=x&from=10000-01-01', 'from'],
  ])('rejects %s with a 400 naming %s', async (qs, param) => {
    const res = await call('GET', `/v1/availability?${qs}`, { key: groupA.apiKey });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { expectContract } from '../support/contract.ts';
import { FIXTURE_FROM, FIXTURE_TO, seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { call } from '../support/stack.ts';

let fx: CatalogueFixture;
beforeAll(async () => {
  fx = await seedCatalogue();
}, 120_000);

const window = `from=${FIXTURE_FROM}&to=${FIXTURE_TO}`;

describe('GET /api/listings', () => {
  it("pages the partner channel's listings, ordered by id, with their properties", async () => {
    const res = await call('GET', '/api/listings', { key: fx.partnerA.apiKey });
    expect(res.status).toBe(200);
    expectContract(res, 'listListings');
    expect(res.body.total).toBe(2);
    expect(res.body).toMatchObject({ page: 1, size: 20 });
    expect(res.body.data.map((l: { id: string }) => l.id)).toEqual([fx.both, fx.onlyA].sort());
    const first = res.body.data.find((l: { id: string }) => l.id === fx.both);
    expect(first.properties.map((p: { id: string }) => p.id)).toEqual(fx.propertiesOf[fx.both]);
    expect(first.properties[0]).toMatchObject({
      city: 'Goa',
      state: 'Goa',
      price: 5000,
      extraAdultRate: 1500,
      photos: 'https://images.example.com/a.jpg, https://images.example.com/b.jpg',
      amenities: 'Wi-Fi',
    });
  });

  it("applies the channel's rate adjustment to prices", async () => {
    const res = await call('GET', '/api/listings', { key: fx.partnerB.apiKey });
    const shared = res.body.data.find((l: { id: string }) => l.id === fx.both);
    expect(shared.price).toBe(9000);
    expect(shared.properties[1].price).toBe(9000);
  });

  it('honours page and size and answers an empty page past the end', async () => {
    const second = await call('GET', '/api/listings?page=2&size=1', { key: fx.partnerA.apiKey });
    expect(second.body).toMatchObject({ total: 2, page: 2, size: 1 });
    expect(second.body.data.map((l: { id: string }) => l.id)).toEqual([[fx.both, fx.onlyA].sort()[1]]);
    const beyond = await call('GET', '/api/listings?page=3&size=1', { key: fx.partnerA.apiKey });
    expect(beyond.body).toMatchObject({ data: [], total: 2, page: 3 });
  });

  it.each([
    ['size=101', 'size'],
    ['size=0', 'size'],
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['sort=title', 'sort'],
  ])('rejects %s with a 400 naming %s', async (qs, param) => {
    const res = await call('GET', `/api/listings?${qs}`, { key: fx.partnerA.apiKey });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param });
  });
});

describe('GET /api/inventories', () => {
  it('returns one row per property and date in the window, stop-sell included', async () => {
    const res = await call('GET', `/api/inventories?listingIds=${fx.both}&${window}`, { key: fx.partnerA.apiKey });
    expect(res.status).toBe(200);
    expectContract(res, 'listInventories');
    expect(res.body).toHaveLength(2 * 10);
    const stopped = res.body.find((r: { date: string; propertyId: string }) => r.date === '2027-03-05' && r.propertyId === fx.propertiesOf[fx.both]![0]);
    expect(stopped).toMatchObject({ quantity: 0, stopSell: true, id: `${fx.propertiesOf[fx.both]![0]}:2027-03-05` });
    const open = res.body.find((r: { date: string }) => r.date === FIXTURE_FROM);
    expect(open).toMatchObject({ quantity: 2, minimumStay: 1, maximumStay: 14, stopSell: false });
  });

  it('accepts repeated and comma-separated id lists alike', async () => {
    const [p1, p2] = fx.propertiesOf[fx.onlyA]!;
    const comma = await call('GET', `/api/inventories?propertyIds=${p1},${p2}&${window}`, { key: fx.partnerA.apiKey });
    const repeated = await call('GET', `/api/inventories?propertyIds=${p1}&propertyIds=${p2}&${window}`, { key: fx.partnerA.apiKey });
    expect(comma.body).toHaveLength(20);
    expect(repeated.body).toEqual(comma.body);
  });

  it("leaves out another channel's listings and properties exactly like unknown ids", async () => {
    const foreignListing = await call('GET', `/api/inventories?listingIds=${fx.onlyB}&${window}`, { key: fx.partnerA.apiKey });
    const foreignProperty = await call('GET', `/api/inventories?propertyIds=${fx.propertiesOf[fx.onlyB]![0]}&${window}`, { key: fx.partnerA.apiKey });
    const unknown = await call('GET', `/api/inventories?listingIds=no-such-listing&${window}`, { key: fx.partnerA.apiKey });
    expect([foreignListing.status, foreignProperty.status, unknown.status]).toEqual([200, 200, 200]);
    expect(foreignListing.body).toEqual([]);
    expect(foreignProperty.body).toEqual([]);
    expect(unknown.body).toEqual([]);
  });

  it('combines listingIds and propertyIds with AND', async () => {
    const res = await call(
      'GET',
      `/api/inventories?listingIds=${fx.both}&propertyIds=${fx.propertiesOf[fx.onlyA]![0]},${fx.propertiesOf[fx.both]![1]}&${window}`,
      {
        key: fx.partnerA.apiKey,
      },
    );
    expect([...new Set(res.body.map((r: { propertyId: string }) => r.propertyId))]).toEqual([fx.propertiesOf[fx.both]![1]]);
  });

  it.each([
    [`from=2027-03-10&to=2027-03-01`, 'from'],
    [`from=2027-01-01&to=2028-01-01`, 'to'],
    [`from=2027-02-30`, 'from'],
    [`to=tomorrow`, 'to'],
    [`listingIds=${Array.from({ length: 101 }, (_, i) => `l${i}`).join(',')}`, 'listingIds'],
    [`propertyIds=a,,b`, 'propertyIds[1]'],
    [`listingId=x`, 'listingId'],
  ])('rejects %s with a 400 naming %s', async (qs, param) => {
    const res = await call('GET', `/api/inventories?${qs}`, { key: fx.partnerA.apiKey });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param });
  });

  it('accepts a window of exactly 365 dates', async () => {
    const res = await call('GET', `/api/inventories?listingIds=${fx.both}&from=2027-01-01&to=2027-12-31`, { key: fx.partnerA.apiKey });
    expect(res.status).toBe(200);
  });
});

describe('GET /api/rates', () => {
  it('returns channel rates per property, date, meal plan and adult count in whole rupees', async () => {
    const [p1] = fx.propertiesOf[fx.both]!;
    const a = await call('GET', `/api/rates?propertyIds=${p1}&from=${FIXTURE_FROM}&to=${FIXTURE_FROM}`, { key: fx.partnerA.apiKey });
    expect(a.status).toBe(200);
    expectContract(a, 'listRates');
    expect(a.body).toEqual([
      { propertyId: p1, date: FIXTURE_FROM, mealPlan: 'EP', adults: 1, rate: 4000 },
      { propertyId: p1, date: FIXTURE_FROM, mealPlan: 'EP', adults: 2, rate: 5000 },
      { propertyId: p1, date: FIXTURE_FROM, mealPlan: 'CP', adults: 1, rate: 4500 },
      { propertyId: p1, date: FIXTURE_FROM, mealPlan: 'CP', adults: 2, rate: 5600 },
    ]);
    const b = await call('GET', `/api/rates?propertyIds=${p1}&from=${FIXTURE_FROM}&to=${FIXTURE_FROM}`, { key: fx.partnerB.apiKey });
    expect(b.body.map((r: { rate: number }) => r.rate)).toEqual([3600, 4500, 4050, 5040]);
  });

  it('covers the whole channel catalogue when no ids are given', async () => {
    const res = await call('GET', `/api/rates?${window}`, { key: fx.partnerA.apiKey });
    const properties = new Set(res.body.map((r: { propertyId: string }) => r.propertyId));
    expect([...properties].sort()).toEqual([...fx.propertiesOf[fx.both]!, ...fx.propertiesOf[fx.onlyA]!].sort());
    expect(res.body).toHaveLength(4 * 10 * 4);
  });

  it('gzips a large response for a caller that accepts it, with identical content', async () => {
    const plain = await call('GET', `/api/rates?${window}`, { key: fx.partnerA.apiKey, headers: { 'accept-encoding': 'identity' } });
    const raw = await fetch(`${(await import('../support/stack.ts')).stack().baseUrl}/api/rates?${window}`, {
      headers: { authorization: `Basic ${Buffer.from(`${fx.partnerA.apiKey}:`).toString('base64')}`, 'accept-encoding': 'gzip' },
    });
    expect(raw.headers.get('content-encoding')).toBe('gzip');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await raw.json()).toEqual(plain.body);
  });
});

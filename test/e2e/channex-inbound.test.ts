import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundChanges } from '../../domain/ports/channex-inbox.ts';
import { FIXTURE_FROM, FIXTURE_TO, seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { expectContract } from '../support/contract.ts';
import { seedGstSlabs } from '../support/order-world.ts';
import { phpFixture } from '../support/php-fixtures.ts';
import { pollUntil } from '../support/poll.ts';
import { startFakeChannex, type ChangeBody, type ChannexOperator, type FakeChannex } from '../support/fake-channex.ts';
import { call, newAgentGroup, stack, testServices, type GroupFixture } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

let fx: CatalogueFixture;
let group: GroupFixture;
let receiver: Receiver;
let channex: FakeChannex;
/** An operator changing onlyA's ARI in Channex: the fake sends the notification Channex generates. */
let operator: ChannexOperator;

beforeAll(async () => {
  // onlyA is connected to Channex; onlyB and both are listings of ours that are not.
  // The slab tables: one test prices orders.
  [fx, receiver] = await Promise.all([seedCatalogue({ channex: ['onlyA'] }), startReceiver(), seedGstSlabs()]);
  group = await newAgentGroup({ channelId: fx.channelA });
  const hook = await call('POST', '/api/webhooks/endpoints', {
    key: fx.partnerA.apiKey,
    body: { url: `${receiver.url}/a`, authType: 'HMAC', signingSecret: 'whsec_channex_e2e_secret_01' },
  });
  expect(hook.status).toBe(201);
  channex = await startFakeChannex({
    serviceEndpoint: `${stack().baseUrl}/channel-manager/channex`,
    inboundKey: stack().env.CHANNEX_INBOUND_API_KEY!,
    outboundKey: 'unused-here',
    providerCode: 'OpenChannel',
  });
  // Channex's property for onlyA: 10 rooms of each type (ours have 2), rates per occupancy, one
  // plan priced in GBP, and a room and a rate plan mapped before our side removed them.
  const [p1] = fx.propertiesOf[fx.onlyA]!;
  const plan = (id: string) => ({ id, sellMode: 'per_person' as const, maxPersons: 2, currency: 'INR', readOnly: false });
  await channex.connect(fx.onlyA, {
    window: { from: FIXTURE_FROM, to: FIXTURE_TO },
    countOfRooms: 10,
    rate: (_room, _plan, occupancy) => `${3000 + 1000 * occupancy}.00`,
    currencyOf: { [`${p1}:MAP`]: 'GBP' },
    earlierMapping: [
      { id: 'no-such-room', countOfRooms: 1, ratePlans: [plan('no-such-room:EP')] },
      { id: p1!, countOfRooms: 10, ratePlans: [plan(`${p1}:XX`)] },
    ],
  });
  operator = channex.operator(fx.onlyA);
}, 120_000);
afterAll(async () => {
  await Promise.all([receiver?.close(), channex?.close()]);
});

/** Applying goes through a queue worker and webhook deliveries: on a loaded shared machine that can take far longer than the default test timeout. */
const APPLY_TIMEOUT = 240_000;

/**
 * Webhooks are delivered at least once and in no promised order (docs/webhooks.md): a loaded CI run
 * saw a change's webhook sent twice (same X-Webhook-Id), and another an earlier test's webhooks
 * arrive after the next test had started. So a test counts events, not requests, and only the
 * events about what it changed.
 */
const eventsAt = (path: string): ReadonlySet<string> => new Set(receiver.to(path).map((h) => String(h.headers['x-webhook-id'])));
/** The first `count` events about `entityId` from one of `fromDates` that reached `path` and are not in `seen`, in arrival order, once that many have (at most 90 s). */
const newEventsAt = (path: string, seen: ReadonlySet<string>, count: number, entityId: string, fromDates: readonly string[]) =>
  pollUntil(
    `${count} new webhook event(s) about ${entityId} at ${path}`,
    async () => {
      const fresh = new Map<string, any>();
      for (const h of receiver.to(path)) {
        const id = String(h.headers['x-webhook-id']);
        if (seen.has(id) || fresh.has(id) || h.body.entityId !== entityId || !fromDates.includes(h.body.fromDate)) continue;
        fresh.set(id, h.body);
      }
      return fresh.size >= count ? [...fresh.values()] : undefined;
    },
    { tries: 360 },
  );

/** The notification's record once the apply step has finished with it. */
async function settled(requestId: string, timeoutMs = 90_000): Promise<InboundChanges> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = await testServices().channexInbox.get(requestId);
    if (record && record.status !== 'RECEIVED') return record;
    if (Date.now() > deadline) throw new Error(`Channex request ${requestId} still ${record?.status ?? 'unrecorded'} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A body Channex would not generate from a property it maps (an unknown hotel, dates in the past), sent as given. */
const availability = (room: string, from: string, to: string, units: number): ChangeBody => ({
  type: 'availability_changes',
  attributes: { room_type_id: room, rate_plan_id: null, date_from: from, date_to: to, availability: units },
});
const inventoryOf = async (propertyId: string, date: string) =>
  (await call('GET', `/api/inventories?propertyIds=${propertyId}&from=${date}&to=${date}`, { key: fx.partnerA.apiKey })).body[0];

describe('Channex inbound: authentication', () => {
  it('answers 401 to a missing or wrong api-key on every endpoint, before reading the query or body', async () => {
    for (const key of [null, 'chx_wrong_key_0000000000000000000000']) {
      expect((await channex.get('test_connection', fx.onlyA, key)).status).toBe(401);
      expect((await channex.get('mapping_details', fx.onlyA, key)).status).toBe(401);
      const malformed = await channex.pushRaw('{not json', key);
      expect(malformed.status).toBe(401);
      expect(malformed.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    }
    // The Open Channel settings screen names the header `api_key`: it is taken as well.
    const underscore = await call('GET', `/channel-manager/channex/test_connection/?hotel_code=${fx.onlyA}`, {
      headers: { api_key: stack().env.CHANNEX_INBOUND_API_KEY! },
    });
    expect(underscore).toMatchObject({ status: 200, body: { success: true } });
    // No hotel_code at all: still the key is looked at first.
    const res = await fetch(`${stack().baseUrl}/channel-manager/channex/test_connection/`);
    expect(res.status).toBe(401);
  });
});

describe('Channex inbound: routes (served through GET and POST /channel-manager/channex/{proxy+})', () => {
  it('serves each endpoint with the trailing slash Channex uses and without it; another name is an unknown route, another method 405', async () => {
    const headers = { 'api-key': stack().env.CHANNEX_INBOUND_API_KEY! };
    for (const path of ['test_connection/', 'test_connection']) {
      const res = await call('GET', `/channel-manager/channex/${path}?hotel_code=${fx.onlyA}`, { headers });
      expect(res, path).toMatchObject({ status: 200, body: { success: true } });
      expectContract(res, 'channexTestConnection');
    }
    expect((await call('GET', `/channel-manager/channex/mapping_details?hotel_code=${fx.onlyA}`, { headers })).status).toBe(200);
    const unknown = await call('GET', `/channel-manager/channex/no_such_endpoint/?hotel_code=${fx.onlyA}`, { headers });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'ROUTE_NOT_FOUND' } });
    const wrongMethod = await call('POST', `/channel-manager/channex/test_connection/`, { headers, body: {} });
    expect(wrongMethod).toMatchObject({ status: 405, body: { code: 'METHOD_NOT_ALLOWED' } });
    expect((await call('POST', `/channel-manager/channex/mapping_details/`, { headers, body: {} })).status).toBe(405);
  });
});

describe('Channex inbound: the key reaches only listings connected to Channex', () => {
  it('answers a listing of ours that is not connected as an unknown hotel on all three endpoints, and changes nothing of it', async () => {
    const [p1] = fx.propertiesOf[fx.onlyB]!;
    const before = receiver.to('/a').length;
    for (const endpoint of ['test_connection', 'mapping_details'] as const) {
      expect(await channex.get(endpoint, fx.onlyB), endpoint).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      const answer = ({ body }: { body: any }) => ({ status: body.status, code: body.code, message: body.message });
      expect(answer(await channex.get(endpoint, fx.onlyB))).toEqual(answer(await channex.get(endpoint, 'no-such-listing')));
    }
    const pushed = await channex.pushChanges(fx.onlyB, [availability(p1!, '2027-03-02', '2027-03-02', 0)]);
    expect(pushed).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', param: 'data[0].attributes.hotel_code' } });
    expect((await call('GET', `/api/inventories?propertyIds=${p1}&from=2027-03-02&to=2027-03-02`, { key: fx.partnerB.apiKey })).body[0]).toMatchObject({
      quantity: 2,
    });
    expect(receiver.to('/a').length).toBe(before);
  });
});

describe('Channex inbound: test_connection and mapping_details', () => {
  it('answers success for a listing of ours and 404 for one we do not have', async () => {
    const ok = await channex.get('test_connection', fx.onlyA);
    expect(ok).toEqual({ status: 200, body: { success: true } });
    const unknown = await channex.get('test_connection', 'no-such-listing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
  });

  it("lists the listing's properties as room types with their meal plans as per-person rate plans up to the unit's most adults", async () => {
    const res = await call('GET', `/channel-manager/channex/mapping_details/?hotel_code=${fx.onlyA}`, {
      headers: { 'api-key': stack().env.CHANNEX_INBOUND_API_KEY! },
    });
    expect(res.status).toBe(200);
    expectContract(res, 'channexMappingDetails');
    const [p1, p2] = fx.propertiesOf[fx.onlyA]!;
    expect(res.body.data.type).toBe('mapping_details');
    expect(res.body.data.attributes.room_types.map((r: any) => r.id)).toEqual([p1, p2]);
    const plans = res.body.data.attributes.room_types[1].rate_plans;
    expect(plans.map((p: any) => p.id)).toEqual(['EP', 'CP', 'MAP', 'AP'].map((m) => `${p2}:${m}`));
    // max_persons is the unit's maxAdults (the fixture's suites take 3 and 5 adults; 2 and 4 are in their rate).
    expect(plans[0]).toMatchObject({ sell_mode: 'per_person', max_persons: 5, currency: 'INR', read_only: false });
    expect(res.body.data.attributes.room_types[0].rate_plans[0].max_persons).toBe(3);
  });
});

describe('Channex inbound: changes', () => {
  it(
    'applies what an operator changes in Channex through the catalogue sync: inventories, rates, availability and search change, one webhook per change',
    async () => {
      const [p1] = fx.propertiesOf[fx.onlyA]!;
      const seen = eventsAt('/a');
      // Two operator actions in Channex, two notifications: the room's availability, then the EP plan's rates and minimum stay.
      const units = await operator.setAvailability(p1!, '2027-03-06', '2027-03-07', 1);
      const plan = await operator.updateRatePlan(p1!, `${p1}:EP`, '2027-03-06', '2027-03-07', { rates: { 1: '4100.00', 2: '5200.00' }, min_stay_through: 2 });
      for (const pushed of [units, plan!]) {
        expect(pushed.status).toBe(200);
        expectContract(pushed, 'channexChanges');
        expect(pushed.body).toEqual({ success: true, unique_id: expect.stringMatching(/^chx_/) });
        const record = await settled(pushed.requestId);
        expect(record).toMatchObject({ status: 'APPLIED', hotelCode: fx.onlyA, uniqueId: pushed.body.unique_id, notApplied: [] });
      }

      // Availability is the room's; the restrictions are the EP rate plan's, and the room's own stay limits stay as loaded.
      expect(await inventoryOf(p1!, '2027-03-06')).toMatchObject({
        quantity: 1,
        minimumStay: 1,
        maximumStay: 14,
        stopSell: false,
        ratePlans: { EP: { minimumStay: 2, maximumStay: 365, stopSell: false } },
      });
      const rates = await call('GET', `/api/rates?propertyIds=${p1}&from=2027-03-07&to=2027-03-07`, { key: fx.partnerA.apiKey });
      expect(JSON.stringify(rates.body)).toContain('4100');
      expect(JSON.stringify(rates.body)).toContain('5200');
      const avail = await call('GET', `/v1/availability?listingIds=${fx.onlyA}&from=2027-03-06&to=2027-03-06`, { key: group.apiKey });
      expect(avail.body.data[0].properties.find((p: any) => p.propertyId === p1).days[0]).toMatchObject({
        unitsAvailable: 1,
        minimumStay: 1,
        ratePlans: { EP: { unitsAvailable: 1, minimumStay: 2 } },
      });
      const search = await call('POST', '/v1/listings/search', {
        key: group.apiKey,
        body: {
          rawParams: [
            { filterName: 'checkIn', filterValues: ['2027-03-06'] },
            { filterName: 'checkOut', filterValues: ['2027-03-08'] },
            { filterName: 'adults', filterValues: ['1'] },
          ],
        },
      });
      const found = search.body.singleListings.find((l: any) => l.listingId === fx.onlyA);
      expect(found.price).toMatchObject({ perNight: 4100, total: 8200 });

      // The availability's inventory.changed; the plan's rates (rate.changed) and minimum stay (inventory.changed).
      const mine = await newEventsAt('/a', seen, 3, p1!, ['2027-03-06']);
      expect(mine.map((b) => b.eventType).sort()).toEqual(['inventory.changed', 'inventory.changed', 'rate.changed']);
      for (const b of mine) expect(b).toMatchObject({ entityId: p1, fromDate: '2027-03-06', toDate: '2027-03-07' });
    },
    APPLY_TIMEOUT,
  );

  it(
    'closes arrival and departure dates for search as the restrictions say',
    async () => {
      const [p1, p2] = fx.propertiesOf[fx.onlyA]!;
      const stayOf = async () => {
        const res = await call('POST', '/v1/listings/search', {
          key: group.apiKey,
          body: {
            rawParams: [
              { filterName: 'checkIn', filterValues: ['2027-03-02'] },
              { filterName: 'checkOut', filterValues: ['2027-03-04'] },
              { filterName: 'adults', filterValues: ['1'] },
            ],
          },
        });
        return res.body.singleListings.find((l: any) => l.listingId === fx.onlyA)?.selectedProperties.map((s: any) => s.propertyId);
      };
      expect(await stayOf()).toEqual([p1]);
      const arrival = await operator.updateRatePlan(p1!, `${p1}:EP`, '2027-03-02', '2027-03-02', { closed_to_arrival: true });
      await settled(arrival!.requestId);
      expect(await stayOf()).toEqual([p2]);
      const departure = await operator.updateRatePlan(p2!, `${p2}:EP`, '2027-03-04', '2027-03-04', { closed_to_departure: true });
      await settled(departure!.requestId);
      expect(await stayOf()).toBeUndefined();
    },
    APPLY_TIMEOUT,
  );

  it(
    'closes only the rate plan Channex stop-sells: partner reads show it on that plan, search and orders still sell the others',
    async () => {
      const [p1, p2] = fx.propertiesOf[fx.onlyA]!;
      const night = '2027-03-01';
      for (const room of [p1!, p2!]) {
        const pushed = (await operator.updateRatePlan(room, `${room}:CP`, night, night, { stop_sell: true }))!;
        expect(pushed.body).toEqual({ success: true, unique_id: expect.stringMatching(/^chx_/) });
        expect(await settled(pushed.requestId)).toMatchObject({ status: 'APPLIED', notApplied: [] });
      }

      const inventories = await call('GET', `/api/inventories?propertyIds=${p1}&from=${night}&to=${night}`, { key: fx.partnerA.apiKey });
      expectContract(inventories, 'listInventories');
      expect(inventories.body[0]).toMatchObject({
        quantity: 2,
        stopSell: false,
        minimumStay: 1,
        // Channex sends the plan's whole state: its max_stay 0 ("not applicable") is no maximum, not the room's 14.
        ratePlans: { CP: { stopSell: true, minimumStay: 1, maximumStay: 365, closedToArrival: false, closedToDeparture: false } },
      });
      expect(Object.keys(inventories.body[0].ratePlans)).toEqual(['CP']);
      const avail = await call('GET', `/v1/availability?listingIds=${fx.onlyA}&from=${night}&to=${night}`, { key: group.apiKey });
      expectContract(avail, 'readAvailability');
      expect(avail.body.data[0].properties.find((p: any) => p.propertyId === p1).days[0]).toMatchObject({
        unitsAvailable: 2,
        stopSell: false,
        ratePlans: { CP: { unitsAvailable: 0, stopSell: true } },
      });

      const searchOn = async (mealPlan: string) => {
        const res = await call('POST', '/v1/listings/search', {
          key: group.apiKey,
          body: {
            rawParams: [
              { filterName: 'checkIn', filterValues: [night] },
              { filterName: 'checkOut', filterValues: ['2027-03-02'] },
              { filterName: 'adults', filterValues: ['1'] },
              { filterName: 'mealPlan', filterValues: [mealPlan] },
            ],
          },
        });
        expect(res.status).toBe(200);
        return res.body.singleListings.some((l: any) => l.listingId === fx.onlyA);
      };
      expect(await searchOn('EP')).toBe(true);
      expect(await searchOn('CP')).toBe(false);

      const order = (mealPlan: string) =>
        call('POST', '/v1/orders', {
          key: group.apiKey,
          body: { listingId: fx.onlyA, checkIn: night, checkOut: '2027-03-02', adults: 1, mealPlan, selectedProperties: [{ propertyId: p1, quantity: 1 }] },
        });
      const [ep, cp] = await Promise.all([order('EP'), order('CP')]);
      expect([ep.status, cp.status]).toEqual([200, 200]);
      expectContract(cp, 'createOrder');
      expect([ep.body.items[0].soldOut, cp.body.items[0].soldOut]).toEqual([false, true]);
    },
    APPLY_TIMEOUT,
  );

  it(
    'changes nothing and sends no webhook when the same request_id comes again',
    async () => {
      const [, p2] = fx.propertiesOf[fx.onlyA]!;
      const seen = eventsAt('/a');
      const first = await operator.setAvailability(p2!, '2027-03-08', '2027-03-08', 1);
      await settled(first.requestId);
      const firstEvents = await newEventsAt('/a', seen, 1, p2!, ['2027-03-08', '2027-03-09']);
      expect(firstEvents.map((b) => [b.eventType, b.fromDate])).toEqual([['inventory.changed', '2027-03-08']]);
      const seenAfterFirst = eventsAt('/a');

      // The same notification again, as sent (a delivery repeated by Channex or by the network).
      const again = await channex.pushChanges(fx.onlyA, first.changes, first.requestId);
      expect(again).toMatchObject({ status: 200, body: { success: true, unique_id: first.body.unique_id } });
      // A later, different change of the same listing applies after the repeat (one FIFO group per listing):
      // once its single webhook is in, the repeat would have shown if it had sent one.
      const sentinel = await operator.setAvailability(p2!, '2027-03-09', '2027-03-09', 1);
      await settled(sentinel.requestId);
      const later = await newEventsAt('/a', seenAfterFirst, 1, p2!, ['2027-03-08', '2027-03-09']);
      expect(later.map((b) => [b.eventType, b.fromDate])).toEqual([['inventory.changed', '2027-03-09']]);
      expect((await testServices().channexInbox.get(first.requestId))!.status).toBe('APPLIED');
    },
    APPLY_TIMEOUT,
  );

  it(
    'reports dates in the past or beyond the window and applies only the rest',
    async () => {
      const [, p2] = fx.propertiesOf[fx.onlyA]!;
      const pushed = await channex.pushChanges(fx.onlyA, [availability(p2!, '2020-01-01', '2020-01-02', 1), availability(p2!, '2027-03-10', '2027-03-10', 0)]);
      expect(pushed.status).toBe(200);
      expect(pushed.body.warnings).toEqual([{ path: 'data[0].attributes.changes[0]', reason: expect.stringContaining('in the past') }]);
      const record = await settled(pushed.requestId);
      expect(record.notApplied).toEqual(pushed.body.warnings);
      expect(await inventoryOf(p2!, '2027-03-10')).toMatchObject({ quantity: 0 });
    },
    APPLY_TIMEOUT,
  );

  it(
    'refuses an unknown hotel naming it, applies nothing of it, and keeps the notification',
    async () => {
      const [p1] = fx.propertiesOf[fx.onlyA]!;
      const res = await channex.pushChanges('no-such-hotel', [availability(p1!, '2027-03-02', '2027-03-02', 0)]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', param: 'data[0].attributes.hotel_code' });
      expect(res.body.message).toContain('no-such-hotel');
      expect(await testServices().channexInbox.get(res.requestId)).toMatchObject({ status: 'REFUSED', refusal: { param: 'data[0].attributes.hotel_code' } });
      expect(await inventoryOf(p1!, '2027-03-02')).toMatchObject({ quantity: 2, stopSell: false });
    },
    APPLY_TIMEOUT,
  );

  it(
    'reports in warnings the changes Channex sends for a room type or rate plan removed on our side, and applies the next ones (a removed room stops nothing else)',
    async () => {
      const [p1, p2] = fx.propertiesOf[fx.onlyA]!;
      // Channex still holds the mappings made before our side removed the room and the plan.
      const room = await operator.setAvailability('no-such-room', '2027-03-03', '2027-03-03', 0);
      const plan = (await operator.updateRatePlan(p1!, `${p1}:XX`, '2027-03-03', '2027-03-03', { stop_sell: true }))!;
      const known = await operator.setAvailability(p2!, '2027-03-03', '2027-03-03', 1);
      expect(room).toMatchObject({
        status: 200,
        body: {
          success: true,
          unique_id: expect.stringMatching(/^chx_/),
          warnings: [{ path: 'data[0].attributes.changes[0].attributes.room_type_id', reason: expect.stringContaining('no-such-room') }],
        },
      });
      expect(plan).toMatchObject({
        status: 200,
        body: { success: true, warnings: [{ path: 'data[0].attributes.changes[0].attributes.rate_plan_id', reason: expect.stringContaining(`${p1}:XX`) }] },
      });
      expect(known.body).toEqual({ success: true, unique_id: expect.stringMatching(/^chx_/) });
      for (const pushed of [room, plan]) expect(await settled(pushed.requestId)).toMatchObject({ status: 'APPLIED', notApplied: pushed.body.warnings });
      await settled(known.requestId);
      expect(await inventoryOf(p2!, '2027-03-03')).toMatchObject({ quantity: 1 });
      expect(await inventoryOf(p1!, '2027-03-03')).toMatchObject({ quantity: 2, stopSell: false });
    },
    APPLY_TIMEOUT,
  );

  it(
    'keeps a rate with paise to the paisa and reports in warnings every value not applied as sent (availability above our units, a plan priced in another currency), keeping what was there',
    async () => {
      const [p1] = fx.propertiesOf[fx.onlyA]!;
      const day = '2027-03-04';
      const ratesOn = async () => (await call('GET', `/api/rates?propertyIds=${p1}&from=${day}&to=${day}`, { key: fx.partnerA.apiKey })).body;
      const monthOf = async () => (await testServices().catalogue.getMonths([{ propertyId: p1!, month: '2027-03' }]))[0]!.days['04']!;
      const before = await ratesOn();
      const mapBefore = (await monthOf()).rates.MAP;
      // Channex holds 10 rooms of this type; ours has 2.
      const units = await operator.setAvailability(p1!, day, day, 10);
      expect(units.status).toBe(200);
      expect(units.body.warnings).toEqual([
        { path: 'data[0].attributes.changes[0].attributes.availability', reason: expect.stringContaining('exceeds the 2 unit(s)') },
      ]);
      const paise = (await operator.updateRatePlan(p1!, `${p1}:EP`, day, day, { rates: { 1: '150.50' } }))!;
      expect(paise.body).toEqual({ success: true, unique_id: expect.stringMatching(/^chx_/) });
      // The MAP plan is priced in GBP in Channex: every occupancy's rate is reported, the plan's restrictions still apply.
      const gbp = (await operator.updateRatePlan(p1!, `${p1}:MAP`, day, day, { rates: { 1: '51.25' }, min_stay_through: 2 }))!;
      expect(gbp.body.warnings.map((w: { path: string }) => w.path)).toEqual(
        [0, 1, 2].map((i) => `data[0].attributes.changes[0].attributes.rates[${i}].currency`),
      );
      for (const pushed of [units, paise, gbp]) expect((await settled(pushed.requestId)).notApplied).toEqual(pushed.body.warnings ?? []);
      expect(await inventoryOf(p1!, day)).toMatchObject({ quantity: 2, ratePlans: { MAP: { minimumStay: 2 } } });
      // The catalogue holds 150.50 as 15050 paise; partners are sold it in whole rupees through the channel's rate (half up).
      const stored = await monthOf();
      expect(stored.rates.EP).toMatchObject({ '1': 15_050 });
      expect(stored.rates.MAP).toEqual(mapBefore);
      const after = await ratesOn();
      expect(after).not.toEqual(before);
      expect(JSON.stringify(after)).toContain('151');
    },
    APPLY_TIMEOUT,
  );

  it(
    'answers malformed JSON, wrong types and an oversized body in the service error model',
    async () => {
      const malformed = await channex.pushRaw('{"data": [');
      expect(malformed).toMatchObject({ status: 400, body: { code: 'MALFORMED_JSON', param: 'body' } });
      const wrongType = await channex.pushChanges(fx.onlyA, [
        { type: 'availability_changes', attributes: { room_type_id: 'x', date_from: '2027-03-02', date_to: '2027-03-02', availability: '1' } },
      ]);
      expect(wrongType).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', param: 'data[0].attributes.changes[0].attributes.availability' } });
      const empty = await channex.pushRaw(JSON.stringify({ data: [] }));
      expect(empty).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', param: 'data' } });
      const big = JSON.stringify({
        data: [{ type: 'changes_notification', attributes: { request_id: randomUUID(), hotel_code: fx.onlyA, changes: [], pad: 'x'.repeat(7_000_000) } }],
      });
      const tooLarge = await channex.pushRaw(big);
      expect(tooLarge).toMatchObject({ status: 413, body: { status: 413, code: 'PAYLOAD_TOO_LARGE', param: 'body' } });
    },
    APPLY_TIMEOUT,
  );
});

describe("Channex inbound: the public PHP implementation's fixtures (test/fixtures/channex)", () => {
  it(
    "replays the PHP implementation's fixtures against our endpoints: what Channex would send is taken, the differences are the conformance rows",
    async () => {
      const [p1] = fx.propertiesOf[fx.onlyA]!;
      // Their ids become ours; their request ids stay of their form, fresh so that a rerun is not a repeat.
      const dtosRequestId = randomUUID();
      const ids = {
        HOTEL123: fx.onlyA,
        room_1: p1!,
        rate_1: `${p1}:EP`,
        r1: p1!,
        rp1: `${p1}:EP`,
        'uuid-123': `uuid-${Date.now()}`,
        'f0b8a3c2-6c4e-4d1a-9f27-3b1e5d7c9a10': dtosRequestId,
      };
      const post = (name: string) => channex.pushRaw(JSON.stringify(phpFixture(name, ids, '2027-04').body));
      const at = (i: number, field: string) => `data[0].attributes.changes[${i}].attributes.${field}`;

      // Taken as theirs is: success with a unique_id; what we cannot hold is reported (10 rooms where we have 2, a USD rate).
      const availability = await post('changes-availability.json');
      expect(availability).toMatchObject({ status: 200, body: { success: true, unique_id: expect.stringMatching(/^chx_/) } });
      expect(availability.body.warnings.map((w: { path: string }) => w.path)).toEqual([at(0, 'availability')]);
      const dtos = await post('changes-dtos.json');
      expect(dtos).toMatchObject({ status: 200, body: { success: true } });
      expect(dtos.body.warnings.map((w: { path: string }) => w.path)).toEqual([at(0, 'availability'), `${at(1, 'rates')}[0].currency`]);
      expect(await settled(dtosRequestId)).toMatchObject({ status: 'APPLIED' });
      expect(await inventoryOf(p1!, '2027-04-03')).toMatchObject({
        ratePlans: { EP: { closedToArrival: true, closedToDeparture: false, minimumStay: 1, maximumStay: 7, stopSell: false } },
      });

      // Refused where theirs answers success: a notification without request_id, and a body without notifications.
      for (const name of ['changes-restriction-no-request-id.json', 'changes-error-no-request-id.json'])
        expect(await post(name), name).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', param: 'data[0].attributes.request_id' } });
      expect(await post('changes-empty.json')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', param: 'data' } });

      // test_connection: their success answer exactly; an unknown hotel is a 404 where theirs says success false.
      const connection = phpFixture('test-connection.json', ids);
      expect(await channex.get('test_connection', connection.body.valid)).toEqual({ status: 200, body: connection.theirAnswer.valid });
      expect(await channex.get('test_connection', connection.body.invalid)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });

      // mapping_details: a room type and its rate plans carry exactly their fields.
      const theirs = phpFixture('mapping-details-room-type.json').body;
      const ours = (await channex.get('mapping_details', fx.onlyA)).body.data.attributes.room_types[0];
      expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
      expect(Object.keys(ours.rate_plans[0]).sort()).toEqual(Object.keys(theirs.rate_plans[0]).sort());
    },
    APPLY_TIMEOUT,
  );
});

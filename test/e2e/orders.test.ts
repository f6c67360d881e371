import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { expectContract } from '../support/contract.ts';
import { seedOrderWorld, type OrderWorld } from '../support/order-world.ts';
import { call, newAgentGroup, testServices, type GroupFixture } from '../support/stack.ts';

let fx: CatalogueFixture;
let ow: OrderWorld;
let group: GroupFixture;
let otherGroup: GroupFixture;

beforeAll(async () => {
  fx = await seedCatalogue();
  ow = await seedOrderWorld(fx);
  [group, otherGroup] = await Promise.all([newAgentGroup({ channelId: fx.channelA }), newAgentGroup({ channelId: fx.channelA })]);
}, 120_000);

/** Every item stored in a group's partition: orders, and anything else a request might leave behind. */
async function itemsOfGroup(agentGroupId: string): Promise<string[]> {
  const db = createDocumentClient(testServices().config);
  const out = await db.send(
    new QueryCommand({
      TableName: testServices().config.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.agentGroup(agentGroupId).PK },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => String(i.SK)).sort();
}

/** Two adults in one unit of the fixture's cheaper suite, two open nights. */
const simple = () => ({
  listingId: fx.onlyA,
  checkIn: '2027-03-01',
  checkOut: '2027-03-03',
  adults: 2,
  selectedProperties: [{ propertyId: fx.propertiesOf[fx.onlyA]![0]!, quantity: 1 }],
});

/** Meals, a transfer, a discounted plan and a bank offer on the order world's villa. */
const rich = () => ({
  listingId: ow.villa,
  checkIn: '2027-03-02',
  checkOut: '2027-03-04',
  adults: 2,
  selectedProperties: [{ propertyId: ow.suite, quantity: 1 }],
  meals: [{ mealId: ow.breakfast, unsureOfDates: true }],
  vas: [{ vasId: ow.transfer, variantId: ow.suv, dates: ['2027-03-02'], quantity: 1 }],
  cancellationPlanId: ow.moderatePlan,
  bankOfferCode: 'SAVE10',
});

const preview = (body: unknown, headers: Record<string, string> = {}, key = group.apiKey) => call('POST', '/v1/orders/preview', { key, body, headers });
const create = (body: unknown, headers: Record<string, string> = {}, key = group.apiKey) => call('POST', '/v1/orders', { key, body, headers });
const pricingOf = (body: { currency: string; items: unknown; summary: unknown }) => ({ currency: body.currency, items: body.items, summary: body.summary });

describe('POST /v1/orders/preview', () => {
  it('prices the order in rupees and persists nothing', async () => {
    // prepare
    const before = await itemsOfGroup(group.agentGroupId);

    // act
    const res = await preview(simple());

    // assess
    expect(res.status).toBe(200);
    expectContract(res, 'previewOrder');
    expect(res.body).not.toHaveProperty('orderId');
    expect(res.body).not.toHaveProperty('validUntil');
    expect(res.body.currency).toBe('INR');
    expect(res.body.items).toEqual([
      {
        listingId: fx.onlyA,
        checkIn: '2027-03-01',
        checkOut: '2027-03-03',
        nights: 2,
        soldOut: false,
        itemSubtotal: 10_000,
        cancellationPlanId: `flex-${fx.channelA.slice(4)}`,
        cancellationPlanDiscount: 0,
        cancellationPolicy: [
          { cancelBy: '2027-02-22', refundPercentage: 100, label: 'Full refund' },
          expect.objectContaining({ cancelBy: '2027-03-01', refundPercentage: 0 }),
        ],
        unavailableNights: [],
      },
    ]);
    expect(res.body.summary).toEqual({
      baseSubtotal: 10_000,
      mealsSubtotal: 0,
      vasSubtotal: 0,
      cancellationPlanDiscount: 0,
      stayAfterCancellationPlan: 10_000,
      bankOffer: null,
      priceAfterBankOffer: 10_000,
      offersDiscount: 0,
      taxableSubtotal: 10_000,
      gst: 500,
      grandTotal: 10_500,
    });
    expect(await itemsOfGroup(group.agentGroupId)).toEqual(before);
  });

  it('prices meals, a service, a discounted plan and a requested bank offer', async () => {
    const res = await preview(rich());

    expect(res.status).toBe(200);
    expectContract(res, 'previewOrder');
    expect(res.body.items[0]).toMatchObject({ cancellationPlanId: ow.moderatePlan, cancellationPlanDiscount: 700, itemSubtotal: 18_600, soldOut: false });
    expect(res.body.summary).toMatchObject({
      baseSubtotal: 14_000,
      mealsSubtotal: 1_800,
      vasSubtotal: 3_500,
      cancellationPlanDiscount: 700,
      stayAfterCancellationPlan: 13_300,
      bankOffer: { code: 'SAVE10', discountType: 'PERCENTAGE', discount: 1_860, applied: true },
      priceAfterBankOffer: 16_740,
      offersDiscount: 2_560,
      taxableSubtotal: 16_740,
      gst: 837,
      grandTotal: 17_577,
    });
  });

  it('picks the richest offer on the channel for applyBestBankOffer', async () => {
    const { bankOfferCode: _code, ...body } = rich();

    const res = await preview({ ...body, applyBestBankOffer: true });

    expect(res.status).toBe(200);
    expect(res.body.summary.bankOffer).toMatchObject({ code: 'SAVE10', discount: 1_860 });
  });

  it('chooses the units for a listing-level booking', async () => {
    const { selectedProperties: _s, ...body } = simple();

    const res = await preview(body);

    expect(res.status).toBe(200);
    expect(res.body.summary.baseSubtotal).toBe(10_000);
  });

  it('marks the item soldOut when a night of the stay is stop-sold', async () => {
    const res = await preview({ ...simple(), checkIn: '2027-03-04', checkOut: '2027-03-06' });

    expect(res.status).toBe(200);
    expectContract(res, 'previewOrder');
    expect(res.body.items[0].soldOut).toBe(true);
    // The fixture stop-sells 2027-03-05 with no units open.
    expect(res.body.items[0].unavailableNights).toEqual([
      expect.objectContaining({
        date: '2027-03-05',
        propertyId: simple().selectedProperties[0]!.propertyId,
        reason: 'STOP_SELL',
        message: expect.stringContaining('stop-sell'),
      }),
      expect.objectContaining({ date: '2027-03-05', reason: 'NOT_ENOUGH_UNITS', requiredUnits: 1, availableUnits: 0 }),
    ]);
  });

  it('refuses a listing on another channel exactly like one that does not exist: 400 naming listingId', async () => {
    const foreign = await preview({ ...simple(), listingId: fx.onlyB, selectedProperties: undefined });
    const missing = await preview({ ...simple(), listingId: 'no-such-listing', selectedProperties: undefined });

    expect([foreign.status, missing.status]).toEqual([400, 400]);
    expect(foreign.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'listingId' });
    expect(missing.body.param).toBe('listingId');
    expect(foreign.body.message.replace(fx.onlyB, '<id>')).toBe(missing.body.message.replace('no-such-listing', '<id>'));
  });

  it('prices a listing on both channels at the caller channel rates', async () => {
    const res = await preview({ ...simple(), listingId: fx.both, selectedProperties: [{ propertyId: fx.propertiesOf[fx.both]![0]!, quantity: 1 }] });

    expect(res.status).toBe(200);
    expect(res.body.summary.baseSubtotal).toBe(10_000);
  });
});

describe('POST /v1/orders/preview and POST /v1/orders: refusals', () => {
  const p1 = () => fx.propertiesOf[fx.onlyA]![0]!;
  const cases: [string, string, () => unknown][] = [
    ['checkIn not a date', 'checkIn', () => ({ ...simple(), checkIn: '2027-02-30' })],
    ['checkOut missing', 'checkOut', () => ({ ...simple(), checkOut: undefined })],
    ['checkOut equal to checkIn', 'checkOut', () => ({ ...simple(), checkOut: '2027-03-01' })],
    ['checkOut before checkIn', 'checkOut', () => ({ ...simple(), checkOut: '2027-02-27' })],
    ['checkIn in the past', 'checkIn', () => ({ ...simple(), checkIn: '2020-01-01', checkOut: '2020-01-03' })],
    ['a stay over 90 nights', 'checkOut', () => ({ ...simple(), checkOut: '2027-06-01' })],
    ['adults 0', 'adults', () => ({ ...simple(), adults: 0 })],
    ['adults fractional', 'adults', () => ({ ...simple(), adults: 1.5 })],
    ['children negative', 'children', () => ({ ...simple(), children: -1 })],
    ['infants as a string', 'infants', () => ({ ...simple(), infants: '1' })],
    ['adults over the selected units', 'adults', () => ({ ...simple(), adults: 4 })],
    ['children over the selected units', 'children', () => ({ ...simple(), children: 3 })],
    ['adults over the whole listing', 'adults', () => ({ ...simple(), selectedProperties: undefined, adults: 17 })],
    ['quantity 0', 'selectedProperties[0].quantity', () => ({ ...simple(), selectedProperties: [{ propertyId: p1(), quantity: 0 }] })],
    ['quantity over the limit', 'selectedProperties[0].quantity', () => ({ ...simple(), selectedProperties: [{ propertyId: p1(), quantity: 51 }] })],
    ['an unknown property', 'selectedProperties[0].propertyId', () => ({ ...simple(), selectedProperties: [{ propertyId: 'no-such-property', quantity: 1 }] })],
    [
      'a property of another listing',
      'selectedProperties[1].propertyId',
      () => ({
        ...simple(),
        selectedProperties: [
          { propertyId: p1(), quantity: 1 },
          { propertyId: fx.propertiesOf[fx.both]![0]!, quantity: 1 },
        ],
      }),
    ],
    ['an unknown meal', 'meals[0].mealId', () => ({ ...rich(), meals: [{ mealId: 'lobster', unsureOfDates: true }] })],
    ['a meal date outside the stay', 'meals[0].dates', () => ({ ...rich(), meals: [{ mealId: ow.breakfast, dates: ['2027-03-09'] }] })],
    ['a meal date that is not a date', 'meals[0].dates[0]', () => ({ ...rich(), meals: [{ mealId: ow.breakfast, dates: ['soon'] }] })],
    ['an unknown service', 'vas[0].vasId', () => ({ ...rich(), vas: [{ vasId: 'helicopter', variantId: ow.suv, unsureOfDates: true }] })],
    ['an unknown variant', 'vas[0].variantId', () => ({ ...rich(), vas: [{ vasId: ow.transfer, variantId: 'limo', unsureOfDates: true }] })],
    [
      'a service quantity over the limit',
      'vas[0].quantity',
      () => ({ ...rich(), vas: [{ vasId: ow.transfer, variantId: ow.suv, unsureOfDates: true, quantity: 101 }] }),
    ],
    ['an unknown bank offer code', 'bankOfferCode', () => ({ ...rich(), bankOfferCode: 'NOPE' })],
    ["another channel's bank offer code", 'bankOfferCode', () => ({ ...rich(), bankOfferCode: 'BONLY' })],
    ['an expired bank offer code', 'bankOfferCode', () => ({ ...rich(), bankOfferCode: 'GONE' })],
    ['a plan the listing does not offer', 'cancellationPlanId', () => ({ ...rich(), cancellationPlanId: 'no-such-plan' })],
    ['an unknown meal plan', 'mealPlan', () => ({ ...simple(), mealPlan: 'ALL_INCLUSIVE' })],
    ['an externalRef over 100 characters', 'externalRef', () => ({ ...simple(), externalRef: 'x'.repeat(101) })],
    ['an unknown field', 'channelId', () => ({ ...simple(), channelId: 'mine' })],
    ['an unknown nested field', 'selectedProperties[0].price', () => ({ ...simple(), selectedProperties: [{ propertyId: p1(), quantity: 1, price: 1 }] })],
    ['listingId missing', 'listingId', () => ({ ...simple(), listingId: undefined })],
  ];

  it.each(cases)('400 for %s, naming %s', async (_name, param, body) => {
    const [previewed, created] = await Promise.all([preview(body()), create(body())]);

    expect(previewed.status).toBe(400);
    expect(previewed.body).toMatchObject({ code: 'VALIDATION_FAILED', param });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'VALIDATION_FAILED', param });
  });

  it('gives unknown and off-channel bank offer codes the same message', async () => {
    const [unknown, foreign] = await Promise.all([preview({ ...rich(), bankOfferCode: 'NOPE' }), preview({ ...rich(), bankOfferCode: 'BONLY' })]);

    expect(unknown.body.message.replace('NOPE', '<code>')).toBe(foreign.body.message.replace('BONLY', '<code>'));
  });

  it('refuses a body that is not JSON with a 400', async () => {
    const res = await call('POST', '/v1/orders/preview', { key: group.apiKey, rawBody: '{', headers: { 'content-type': 'application/json' } });

    expect(res.status).toBe(400);
  });
});

describe('POST /v1/orders, GET /v1/orders/{orderId}, POST /v1/orders/{orderId}/reprice', () => {
  it('gives identical pricing fields to the preview for identical input', async () => {
    const [previewed, created] = await Promise.all([preview(rich()), create({ ...rich() })]);

    expect(created.status).toBe(200);
    expectContract(created, 'createOrder');
    expect(pricingOf(created.body)).toEqual(pricingOf(previewed.body));
  });

  it('stores the order under the group with a courtesy validUntil, and reads it back', async () => {
    // prepare
    const before = await itemsOfGroup(group.agentGroupId);
    const t0 = Date.now();

    // act
    const created = await create({ ...simple(), externalRef: 'Sharma family, March' });

    // assess
    expect(created.status).toBe(200);
    expect(created.body.orderId).toMatch(/^[0-9a-f-]{36}$/);
    const t1 = Date.now();
    // 30 minutes from the moment the service priced it, which lies between t0 and t1
    const validUntil = Date.parse(created.body.validUntil);
    expect(validUntil).toBeGreaterThanOrEqual(t0 + 30 * 60_000);
    expect(validUntil).toBeLessThanOrEqual(t1 + 30 * 60_000);
    expect(await itemsOfGroup(group.agentGroupId)).toEqual([...before, `ORDER#${created.body.orderId}`].sort());
    const stored = await testServices().orders.get(group.agentGroupId, created.body.orderId);
    expect(stored).toMatchObject({ externalRef: 'Sharma family, March', agentGroupId: group.agentGroupId, channelId: fx.channelA, request: simple() });

    const read = await call('GET', `/v1/orders/${created.body.orderId}`, { key: group.apiKey });
    expect(read.status).toBe(200);
    expectContract(read, 'getOrder');
    expect(read.body).toEqual(created.body);
  });

  it('reprices against the current catalogue, stores the new price and restarts the courtesy window', async () => {
    // prepare
    await ow.setDriftRate(7_000);
    const body = { listingId: ow.drift, checkIn: '2027-03-02', checkOut: '2027-03-04', adults: 2 };
    const created = await create(body);
    const orderId = created.body.orderId;

    // act
    await ow.setDriftRate(8_000);
    const read = await call('GET', `/v1/orders/${orderId}`, { key: group.apiKey });
    const storedAfterGet = await testServices().orders.get(group.agentGroupId, orderId);
    const repriced = await call('POST', `/v1/orders/${orderId}/reprice`, { key: group.apiKey });
    const storedAfterReprice = await testServices().orders.get(group.agentGroupId, orderId);
    await ow.setDriftRate(7_000);

    // assess
    expect(created.body.summary.baseSubtotal).toBe(14_000);
    expect(read.status).toBe(200);
    expect(read.body.summary.baseSubtotal).toBe(16_000);
    expect(read.body.validUntil).toBe(created.body.validUntil);
    expect(storedAfterGet!.pricing.summary.baseSubtotal).toBe(14_000_00);
    expect(repriced.status).toBe(200);
    expectContract(repriced, 'repriceOrder');
    expect(pricingOf(repriced.body)).toEqual(pricingOf(read.body));
    expect(repriced.body.orderId).toBe(orderId);
    expect(Date.parse(repriced.body.validUntil)).toBeGreaterThanOrEqual(Date.parse(created.body.validUntil));
    expect(storedAfterReprice!.pricing.summary.baseSubtotal).toBe(16_000_00);
    expect(storedAfterReprice!.validUntil).toBe(repriced.body.validUntil);
  });

  it("answers another group's order with a 404 identical to a missing one", async () => {
    // prepare
    const created = await create(simple());
    const missingId = randomUUID();

    // act
    const foreign = await call('GET', `/v1/orders/${created.body.orderId}`, { key: otherGroup.apiKey });
    const missing = await call('GET', `/v1/orders/${missingId}`, { key: otherGroup.apiKey });
    const foreignReprice = await call('POST', `/v1/orders/${created.body.orderId}/reprice`, { key: otherGroup.apiKey });
    const missingReprice = await call('POST', `/v1/orders/${missingId}/reprice`, { key: otherGroup.apiKey });

    // assess
    const comparable = (b: Record<string, unknown>) => ({ ...b, timestamp: undefined, path: undefined });
    expect([foreign.status, missing.status, foreignReprice.status, missingReprice.status]).toEqual([404, 404, 404, 404]);
    expectContract(foreign, 'getOrder');
    expect(comparable(foreign.body)).toEqual(comparable(missing.body));
    expect(comparable(foreignReprice.body)).toEqual(comparable(missingReprice.body));
    expect(foreign.text.replace(created.body.orderId, missingId).replace(/"timestamp":"[^"]+"/, '')).toBe(missing.text.replace(/"timestamp":"[^"]+"/, ''));
  });

  it.each([
    ['GET', (id: string) => `/v1/orders/${id}`],
    ['POST', (id: string) => `/v1/orders/${id}/reprice`],
  ])('%s refuses an orderId that is not a UUID with a 400 naming orderId', async (method, path) => {
    const res = await call(method, path('not-a-uuid'), { key: group.apiKey });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'orderId' });
  });
});

describe('X-Test-Scenario (sandbox stages)', () => {
  it('price-moved returns a grandTotal that differs from the real pricing', async () => {
    const [real, moved, created] = await Promise.all([
      preview(simple()),
      preview(simple(), { 'X-Test-Scenario': 'price-moved' }),
      create(simple(), { 'X-Test-Scenario': 'price-moved' }),
    ]);

    expect(moved.status).toBe(200);
    expectContract(moved, 'previewOrder');
    expect(moved.body.summary.grandTotal).not.toBe(real.body.summary.grandTotal);
    expect(moved.body.summary.baseSubtotal).toBe(10_100);
    expect(pricingOf(created.body)).toEqual(pricingOf(moved.body));
  });

  it('sold-out marks every item sold out on preview, create and reprice', async () => {
    const header = { 'X-Test-Scenario': 'sold-out' };
    const [previewed, created] = await Promise.all([preview(simple(), header), create(simple(), header)]);
    const repriced = await call('POST', `/v1/orders/${created.body.orderId}/reprice`, { key: group.apiKey, headers: header });
    const plain = await call('GET', `/v1/orders/${created.body.orderId}`, { key: group.apiKey });

    for (const res of [previewed, created, repriced]) {
      expect(res.status).toBe(200);
      expect(res.body.items.every((i: { soldOut: boolean }) => i.soldOut)).toBe(true);
      expect(res.body.items[0].unavailableNights.map((n: { date: string; reason: string }) => [n.date, n.reason])).toEqual([
        ['2027-03-01', 'NOT_ENOUGH_UNITS'],
        ['2027-03-02', 'NOT_ENOUGH_UNITS'],
      ]);
    }
    expect(plain.body.items[0]).toMatchObject({ soldOut: false, unavailableNights: [] });
  });

  it('refuses an unknown scenario with a 400 naming X-Test-Scenario', async () => {
    const [previewed, created, repriced] = await Promise.all([
      preview(simple(), { 'X-Test-Scenario': 'half-price' }),
      create(simple(), { 'X-Test-Scenario': 'half-price' }),
      call('POST', `/v1/orders/${randomUUID()}/reprice`, { key: group.apiKey, headers: { 'X-Test-Scenario': 'half-price' } }),
    ]);

    for (const res of [previewed, created, repriced]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'X-Test-Scenario' });
    }
  });
});

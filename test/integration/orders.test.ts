import { beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../domain/errors.ts';
import { loadPricingContext } from '../../domain/orders/load-pricing-context.ts';
import { createOrder, getOrder, previewOrder, repriceOrder } from '../../domain/orders/manage-orders.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { orderDeps } from '../../infra/container.ts';
import { dynamoCalls, resetDynamoCalls } from '../../infra/dynamo/client.ts';
import { seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { seedOrderWorld, type OrderWorld } from '../support/order-world.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

let fx: CatalogueFixture;
let ow: OrderWorld;
let principal: AgentGroupPrincipal;

beforeAll(async () => {
  fx = await seedCatalogue();
  ow = await seedOrderWorld(fx);
  const group = await newAgentGroup({ channelId: fx.channelA });
  principal = {
    kind: 'agent-group',
    agentGroupId: group.agentGroupId,
    partnerId: group.partnerId,
    channelId: fx.channelA,
    keyId: group.keyId,
    keyPrefix: group.apiKey.slice(0, 12),
  };
}, 120_000);

const request = () => ({
  listingId: ow.villa,
  checkIn: '2027-03-02',
  checkOut: '2027-03-04',
  adults: 2,
  meals: [{ mealId: ow.breakfast, unsureOfDates: true }],
});
// The SDK's low-level command names, as the call counter records them.
const WRITES = ['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand'];
const writesIn = (byOperation: Record<string, number>) => Object.keys(byOperation).filter((op) => WRITES.includes(op));

describe('Function: loadPricingContext', () => {
  it('reads everything pricing needs in 4 calls over 2 round trips: 3 Queries, then 1 BatchGet', async () => {
    // prepare
    const deps = orderDeps(testServices());
    resetDynamoCalls();

    // act
    const context = await loadPricingContext(deps, principal, request());

    // assess
    expect(dynamoCalls.byOperation).toEqual({ QueryCommand: 3, BatchGetItemCommand: 1 });
    expect(context.listing.id).toBe(ow.villa);
    expect(context.channel.channelId).toBe(fx.channelA);
    expect(context.cancellationPlans.map((p) => p.planId).sort()).toEqual([ow.flexPlan, ow.moderatePlan].sort());
    expect(context.bankOffers.map((o) => o.code).sort()).toEqual(['FLAT500', 'GONE', 'SAVE10']);
    // The check-out day too: its closed-to-departure flag decides whether the stay may end there.
    expect([...context.days.get(ow.suite)!.keys()]).toEqual(['2027-03-02', '2027-03-03', '2027-03-04']);
    expect(context.gstSlabTables.some((t) => t.effectiveFrom === '2025-09-22')).toBe(true);
  });

  it('reads months only for the selected properties of the listing', async () => {
    const [p1] = fx.propertiesOf[fx.onlyA]!;

    const context = await loadPricingContext(orderDeps(testServices()), principal, {
      listingId: fx.onlyA,
      checkIn: '2027-03-30',
      checkOut: '2027-04-02',
      selectedProperties: [{ propertyId: p1!, quantity: 1 }],
    });

    expect([...context.days.keys()]).toEqual([p1]);
    expect([...context.days.get(p1!)!.keys()]).toEqual([]);
  });

  it('refuses a listing of another channel and an unknown one with the same 400 naming listingId', async () => {
    const deps = orderDeps(testServices());

    const foreign = await loadPricingContext(deps, principal, { ...request(), listingId: fx.onlyB }).catch((e: unknown) => e);
    const missing = await loadPricingContext(deps, principal, { ...request(), listingId: 'no-such-listing' }).catch((e: unknown) => e);

    expect(foreign).toBeInstanceOf(ValidationError);
    expect(missing).toBeInstanceOf(ValidationError);
    expect((foreign as ValidationError).param).toBe('listingId');
    expect((foreign as Error).message.replace(fx.onlyB, '<id>')).toBe((missing as Error).message.replace('no-such-listing', '<id>'));
  });
});

describe('Function: previewOrder', () => {
  it('writes nothing to DynamoDB', async () => {
    resetDynamoCalls();

    const priced = await previewOrder(orderDeps(testServices()), principal, { request: request() });

    expect(priced.summary.grandTotal).toBeGreaterThan(0);
    expect(dynamoCalls.total).toBe(4);
    expect(writesIn(dynamoCalls.byOperation)).toEqual([]);
  });
});

describe('Function: createOrder', () => {
  it('adds exactly one write, the order Put, to the preview reads', async () => {
    resetDynamoCalls();

    await createOrder(orderDeps(testServices()), principal, { request: request() });

    expect(dynamoCalls.byOperation).toEqual({ QueryCommand: 3, BatchGetItemCommand: 1, PutItemCommand: 1 });
  });
});

describe('Function: getOrder and repriceOrder', () => {
  it('answer 409 naming the field when the stored order can no longer be priced (check-in has passed)', async () => {
    // prepare
    const svc = testServices();
    const order = await createOrder(orderDeps(svc), principal, { request: request() });
    const later = { ...orderDeps(svc), clock: { now: () => new Date('2027-03-03T06:00:00Z') } };

    // act
    const read = await getOrder(later, principal, order.orderId).catch((e: unknown) => e);
    const repriced = await repriceOrder(later, principal, order.orderId).catch((e: unknown) => e);

    // assess
    for (const err of [read, repriced]) {
      expect(err).toBeInstanceOf(ConflictError);
      expect((err as ConflictError).details).toEqual({ param: 'checkIn' });
    }
    expect((await svc.orders.get(principal.agentGroupId, order.orderId))!.pricing).toEqual(order.pricing);
  });
});

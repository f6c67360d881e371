import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emptyStoredCatalogue } from '../../../domain/catalogue/catalogue-diff.ts';
import { ERASED } from '../../../domain/guests/guest-erasure.ts';
import { createOrder } from '../../../domain/orders/manage-orders.ts';
import type { Order } from '../../../domain/orders/order.ts';
import type { OrderStore } from '../../../domain/ports/order-store.ts';
import type { AgentGroupPrincipal } from '../../../domain/principal.ts';
import { stay } from '../booking-world.ts';
import { fixtureCatalogue } from '../catalogue-world.ts';
import { InMemoryCatalogue } from '../memory/in-memory-catalogue.ts';

const AT = '2027-01-10T09:00:00.000Z';

/** A real priced order on a group of its own (priced against the fixture catalogue in memory, stored through `orders`). */
async function placedOrder(orders: OrderStore): Promise<Order> {
  const { ids, writes } = fixtureCatalogue(randomUUID().slice(0, 8), AT);
  const catalogue = new InMemoryCatalogue();
  await catalogue.save(writes);
  await catalogue.save({
    ...emptyStoredCatalogue(),
    gstSlabTables: [{ effectiveFrom: '2017-07-01', slabs: [{ upToPerUnitNight: null, ratePercent: 5 }], createdAt: AT, updatedAt: AT }],
  });
  const principal: AgentGroupPrincipal = {
    kind: 'agent-group',
    agentGroupId: `group-${randomUUID()}`,
    partnerId: 'partner-1',
    channelId: ids.channelA,
    keyId: 'k',
    keyPrefix: 'k',
  };
  const deps = { catalogue, orders, clock: { now: () => new Date(AT) }, ids: { uuid: randomUUID }, orderValidityMinutes: 30 };
  return createOrder(deps, principal, { request: stay(ids.onlyA), externalRef: 'PO-17' });
}

/**
 * The OrderStore port's contract, run against InMemoryOrderStore (unit tier) and
 * DynamoOrderStore (DynamoDB Local): an order is read back whole only through its group,
 * is never overwritten, and is repriced or erased only when it exists.
 */
export function orderStoreContract(adapter: string, subject: () => Promise<OrderStore>): void {
  describe(`OrderStore contract: ${adapter}`, () => {
    it('reads an order back whole through its group only, and refuses to create it twice', async () => {
      const orders = await subject();
      const order = await placedOrder(orders);

      expect(await orders.get(order.agentGroupId, order.orderId)).toEqual(order);
      expect(await orders.get(`other-${order.agentGroupId}`, order.orderId)).toBeUndefined();
      expect(await orders.get(order.agentGroupId, randomUUID())).toBeUndefined();
      await expect(orders.create({ ...order, externalRef: 'again' })).rejects.toThrow();
      expect(await orders.get(order.agentGroupId, order.orderId)).toEqual(order);
    });

    it('replaces the pricing of an order that exists, and of no other', async () => {
      const orders = await subject();
      const order = await placedOrder(orders);
      const update = {
        pricing: { ...order.pricing, summary: { ...order.pricing.summary, grandTotal: order.pricing.summary.grandTotal + 100_00 } },
        pricedAt: '2027-01-11T09:00:00.000Z',
        validUntil: '2027-01-11T09:30:00.000Z',
      };

      expect(await orders.savePricing(order.agentGroupId, order.orderId, update)).toBe(true);
      expect(await orders.savePricing(`other-${order.agentGroupId}`, order.orderId, update)).toBe(false);

      expect(await orders.get(order.agentGroupId, order.orderId)).toEqual({ ...order, ...update });
      expect(await orders.get(`other-${order.agentGroupId}`, order.orderId)).toBeUndefined();
    });

    it("erases the partner's reference of an order that exists, and refuses one that does not", async () => {
      const orders = await subject();
      const order = await placedOrder(orders);

      await orders.eraseExternalRef(order.agentGroupId, order.orderId);

      expect(order.externalRef).toBe('PO-17');
      expect(await orders.get(order.agentGroupId, order.orderId)).toEqual({ ...order, externalRef: ERASED });
      await expect(orders.eraseExternalRef(order.agentGroupId, randomUUID())).rejects.toThrow();
      expect(await orders.get(order.agentGroupId, randomUUID())).toBeUndefined();
    });
  });
}

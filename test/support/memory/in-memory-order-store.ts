import { ERASED } from '../../../domain/guests/guest-erasure.ts';
import type { Order, OrderPricing } from '../../../domain/orders/order.ts';
import type { OrderStore } from '../../../domain/ports/order-store.ts';

const key = (agentGroupId: string, orderId: string): string => `${agentGroupId}|${orderId}`;

/**
 * Orders in memory, for rule tests in the unit tier; test/support/contracts/order-store-contract.ts
 * holds it and DynamoOrderStore to the same rules: stored under their group, never overwritten,
 * repriced and erased only when they exist.
 */
export class InMemoryOrderStore implements OrderStore {
  private readonly orders = new Map<string, Order>();

  async create(order: Order): Promise<void> {
    const k = key(order.agentGroupId, order.orderId);
    if (this.orders.has(k)) throw new Error(`order ${order.orderId} already exists`);
    this.orders.set(k, structuredClone(order));
  }

  async get(agentGroupId: string, orderId: string): Promise<Order | undefined> {
    const order = this.orders.get(key(agentGroupId, orderId));
    return order && structuredClone(order);
  }

  async eraseExternalRef(agentGroupId: string, orderId: string): Promise<void> {
    const order = this.orders.get(key(agentGroupId, orderId));
    if (!order) throw new Error(`no order ${orderId} in group ${agentGroupId}`);
    this.orders.set(key(agentGroupId, orderId), { ...order, externalRef: ERASED });
  }

  async savePricing(agentGroupId: string, orderId: string, update: { pricing: OrderPricing; pricedAt: string; validUntil: string }): Promise<boolean> {
    const order = this.orders.get(key(agentGroupId, orderId));
    if (!order) return false;
    this.orders.set(key(agentGroupId, orderId), structuredClone({ ...order, ...update }));
    return true;
  }
}

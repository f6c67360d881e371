import type { Order, OrderPricing } from '../orders/order.ts';

/** Orders, always addressed through the agent group that owns them. */
export interface OrderStore {
  /** Stores a new order; ids are fresh UUIDs, so an existing one is a bug, not a refusal. */
  create(order: Order): Promise<void>;
  /** The group's order, or undefined when there is none with this id in that group. */
  get(agentGroupId: string, orderId: string): Promise<Order | undefined>;
  /** Replaces the order's externalRef (the partner's free text) with the erasure marker (docs/personal-data.md). */
  eraseExternalRef(agentGroupId: string, orderId: string): Promise<void>;
  /** Replaces the order's pricing; false when the group has no such order. */
  savePricing(agentGroupId: string, orderId: string, update: { pricing: OrderPricing; pricedAt: string; validUntil: string }): Promise<boolean>;
}

import type * as v from 'valibot';
import type { Order } from '../../domain/orders/order.ts';
import { SANDBOX_SCENARIOS, type SandboxScenario } from '../../domain/sandbox/order-scenarios.ts';
import { sandboxHeader } from '../http/sandbox-header.ts';
import {
  explainSoldOutNights,
  type OrderRequest,
  type PricedItem,
  type PricedOrder,
  type PricedSummary,
  type SoldOutNight,
} from '../../domain/pricing/index.ts';
import { itemInRupees, summaryInRupees } from '../../domain/pricing/rupees.ts';
import type { Config } from '../../infra/config.ts';
import type { OrderBody, OrderQuoteSchema, OrderSchema } from '../contracts/orders.ts';
import type { HttpEvent } from '../http/types.ts';

type OrderQuoteJson = v.InferOutput<typeof OrderQuoteSchema>;
type OrderJson = v.InferOutput<typeof OrderSchema>;

/** The scenario an order request asks for (sandbox stages only). */
export const sandboxScenarioOf = (event: Pick<HttpEvent, 'headers'>, config: Pick<Config, 'isSandbox'>): SandboxScenario | undefined =>
  sandboxHeader(event, config, SANDBOX_SCENARIOS);

/** The body without externalRef: what pricing reads. */
export function orderCommand(body: OrderBody): { request: OrderRequest; externalRef?: string } {
  const { externalRef, ...request } = body;
  return { request, externalRef };
}

/**
 * The preview's body: the Order record without orderId and validUntil, money in rupees, each
 * item with the nights that stop it selling. An order holds one item (one listing), so every
 * sold-out night is that item's.
 */
export const quoteJson = (priced: {
  currency: string;
  items: readonly PricedItem[];
  summary: PricedSummary;
  soldOutNights: readonly SoldOutNight[];
}): OrderQuoteJson => ({
  currency: priced.currency,
  items: priced.items.map((item) => ({ ...itemInRupees(item), unavailableNights: explainSoldOutNights(priced.soldOutNights, item.nights) })),
  summary: summaryInRupees(priced.summary),
});

/** The preview's body from a fresh pricing. */
export const pricedJson = (priced: PricedOrder): OrderQuoteJson => quoteJson({ ...priced, soldOutNights: priced.breakdown.soldOutNights });

/** The Order record, money in rupees. */
export const orderJson = (order: Order): OrderJson => ({ orderId: order.orderId, validUntil: order.validUntil, ...quoteJson(order.pricing) });

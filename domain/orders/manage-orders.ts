import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import { priceOrder, type OrderRequest, type PricedOrder } from '../pricing/index.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { OrderStore } from '../ports/order-store.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { loadPricingContext, type PricingContextDeps } from './load-pricing-context.ts';
import { orderPricing, type Order } from './order.ts';

export interface OrderDeps extends PricingContextDeps {
  readonly orders: OrderStore;
  readonly ids: IdGenerator;
  /** How long a quoted price is held out as current (courtesy only; nothing is reserved). */
  readonly orderValidityMinutes: number;
}

/** What POST /v1/orders/preview and POST /v1/orders receive after shape checks. */
export interface OrderCommand {
  readonly request: OrderRequest;
  readonly externalRef?: string;
}

const NOT_FOUND = () => new NotFoundError('Order');

const plusMinutes = (at: Date, minutes: number): string => new Date(at.getTime() + minutes * 60_000).toISOString();

/** The one pricing path of every order endpoint: load, then price with the pricer the deps carry. */
async function price(deps: PricingContextDeps, principal: AgentGroupPrincipal, request: OrderRequest): Promise<PricedOrder> {
  const context = await loadPricingContext(deps, principal, request);
  return (deps.pricer ?? priceOrder)({ request, context });
}

/**
 * Re-prices a stored order. Its request was accepted once, so a refusal now means the
 * world moved (the listing left the channel, check-in passed, a meal was withdrawn): that
 * is a 409 saying what changed, not a 400 about a parameter the caller did not send.
 */
export async function repriceStored(deps: PricingContextDeps, principal: AgentGroupPrincipal, order: Order): Promise<PricedOrder> {
  try {
    return await price(deps, principal, order.request);
  } catch (err) {
    if (err instanceof ValidationError) {
      throw new ConflictError('CONFLICT', `This order can no longer be priced as created: ${err.message} Create a new order.`, { param: err.param });
    }
    throw err;
  }
}

/** POST /v1/orders/preview: prices the order and stores nothing at all. */
export async function previewOrder(deps: PricingContextDeps, principal: AgentGroupPrincipal, command: OrderCommand): Promise<PricedOrder> {
  return price(deps, principal, command.request);
}

/** POST /v1/orders: prices the order exactly as the preview does, then stores it under the group. */
export async function createOrder(deps: OrderDeps, principal: AgentGroupPrincipal, command: OrderCommand): Promise<Order> {
  const priced = await price(deps, principal, command.request);
  const now = deps.clock.now();
  const order: Order = {
    orderId: deps.ids.uuid(),
    agentGroupId: principal.agentGroupId,
    channelId: principal.channelId,
    externalRef: command.externalRef ?? null,
    request: command.request,
    pricing: orderPricing(priced),
    createdAt: now.toISOString(),
    pricedAt: now.toISOString(),
    validUntil: plusMinutes(now, deps.orderValidityMinutes),
  };
  await deps.orders.create(order);
  return order;
}

/**
 * GET /v1/orders/{orderId}: the order with its current price — the stored request priced
 * against today's catalogue — without writing anything; validUntil stays the stored one.
 */
export async function getOrder(deps: OrderDeps, principal: AgentGroupPrincipal, orderId: string): Promise<Order> {
  const order = await deps.orders.get(principal.agentGroupId, orderId);
  if (!order) throw NOT_FOUND();
  return { ...order, pricing: orderPricing(await repriceStored(deps, principal, order)) };
}

/**
 * POST /v1/orders/{orderId}/reprice: re-confirms the price against the current catalogue
 * and stores it; the courtesy window starts again from now.
 */
export async function repriceOrder(deps: OrderDeps, principal: AgentGroupPrincipal, orderId: string): Promise<Order> {
  const order = await deps.orders.get(principal.agentGroupId, orderId);
  if (!order) throw NOT_FOUND();
  const pricing = orderPricing(await repriceStored(deps, principal, order));
  const now = deps.clock.now();
  const update = { pricing, pricedAt: now.toISOString(), validUntil: plusMinutes(now, deps.orderValidityMinutes) };
  if (!(await deps.orders.savePricing(principal.agentGroupId, orderId, update))) throw NOT_FOUND();
  return { ...order, ...update };
}

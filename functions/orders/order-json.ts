import type * as v from 'valibot';
import { ValidationError } from '../../domain/errors.ts';
import { toRupees } from '../../domain/money.ts';
import type { Order } from '../../domain/orders/order.ts';
import { isSandboxScenario, SANDBOX_SCENARIOS, type SandboxScenario } from '../../domain/orders/sandbox-scenario.ts';
import type { OrderRequest, PricedItem, PricedSummary } from '../../domain/pricing/index.ts';
import type { Config } from '../../infra/config.ts';
import type { OrderBody, OrderQuoteSchema, OrderSchema } from '../contracts/orders.ts';
import type { HttpEvent } from '../http/types.ts';

type OrderQuoteJson = v.InferOutput<typeof OrderQuoteSchema>;
type OrderJson = v.InferOutput<typeof OrderSchema>;

const SCENARIO_HEADER = 'X-Test-Scenario';

/**
 * The sandbox scenario a request asks for. Production configuration ignores the header
 * entirely, whatever it holds; on sandbox stages an unknown value is a 400 naming it.
 */
export function sandboxScenarioOf(event: Pick<HttpEvent, 'headers'>, config: Pick<Config, 'isSandbox'>): SandboxScenario | undefined {
  if (!config.isSandbox) return undefined;
  const value = event.headers?.[SCENARIO_HEADER.toLowerCase()];
  if (value === undefined) return undefined;
  if (!isSandboxScenario(value)) throw new ValidationError(SCENARIO_HEADER, `${SCENARIO_HEADER} must be one of ${SANDBOX_SCENARIOS.join(', ')}.`);
  return value;
}

/** The body without externalRef: what pricing reads. */
export function orderCommand(body: OrderBody): { request: OrderRequest; externalRef?: string } {
  const { externalRef, ...request } = body;
  return { request, externalRef };
}

/** The contract's Item record, money in rupees (orders and bookings alike). */
export const itemJson = (i: PricedItem) => ({
  listingId: i.listingId,
  checkIn: i.checkIn,
  checkOut: i.checkOut,
  nights: i.nights,
  soldOut: i.soldOut,
  itemSubtotal: toRupees(i.itemSubtotal),
  cancellationPlanId: i.cancellationPlanId,
  cancellationPlanDiscount: toRupees(i.cancellationPlanDiscount),
  cancellationPolicy: i.cancellationPolicy.map((s) => ({ cancelBy: s.cancelBy, refundPercentage: s.refundPercentage, label: s.label })),
});

/** The contract's Summary record, money in rupees (orders and bookings alike). */
export const summaryJson = (s: PricedSummary) => ({
  baseSubtotal: toRupees(s.baseSubtotal),
  mealsSubtotal: toRupees(s.mealsSubtotal),
  vasSubtotal: toRupees(s.vasSubtotal),
  cancellationPlanDiscount: toRupees(s.cancellationPlanDiscount),
  stayAfterCancellationPlan: toRupees(s.stayAfterCancellationPlan),
  bankOffer: s.bankOffer && { ...s.bankOffer, discount: toRupees(s.bankOffer.discount) },
  priceAfterBankOffer: toRupees(s.priceAfterBankOffer),
  offersDiscount: toRupees(s.offersDiscount),
  taxableSubtotal: toRupees(s.taxableSubtotal),
  gst: toRupees(s.gst),
  grandTotal: toRupees(s.grandTotal),
});

/** The preview's body: the Order record without orderId and validUntil, money in rupees. */
export const quoteJson = (priced: { currency: string; items: readonly PricedItem[]; summary: PricedSummary }): OrderQuoteJson => ({
  currency: priced.currency,
  items: priced.items.map(itemJson),
  summary: summaryJson(priced.summary),
});

/** The Order record, money in rupees. */
export const orderJson = (order: Order): OrderJson => ({ orderId: order.orderId, validUntil: order.validUntil, ...quoteJson(order.pricing) });

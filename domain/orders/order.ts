import type { MealPlan } from '../catalogue/day.ts';
import type { OrderRequest, PricedItem, PricedOrder, PricedSummary, SelectedProperty, SoldOutNight } from '../pricing/index.ts';

/**
 * The priced part of an order as stored and returned: the contract's currency, items and
 * summary, plus the units pricing chose and the meal plan it priced. The per-line
 * breakdown is not stored: it can run to thousands of unit-nights (past DynamoDB's 400 KB
 * item limit) and re-pricing the stored request rebuilds it exactly.
 */
export interface OrderPricing {
  readonly currency: PricedOrder['currency'];
  readonly items: readonly PricedItem[];
  readonly summary: PricedSummary;
  readonly selectedProperties: readonly SelectedProperty[];
  readonly mealPlan: MealPlan;
  /** Why the stay cannot be sold, per property and night; empty when every item can be booked. */
  readonly soldOutNights: readonly SoldOutNight[];
}

/** An order: the request as the partner sent it and the price last confirmed for it. */
export interface Order {
  readonly orderId: string;
  /** Tenancy: the order is stored under its group and read only through it. */
  readonly agentGroupId: string;
  /** The channel the order was first priced on (audit; reads price on the caller's channel). */
  readonly channelId: string;
  /** The partner's display name for the order; never used for lookup or scoping. */
  readonly externalRef: string | null;
  readonly request: OrderRequest;
  readonly pricing: OrderPricing;
  readonly createdAt: string;
  /** When `pricing` was computed: createdAt, or the last reprice. */
  readonly pricedAt: string;
  /** Courtesy expiry of the quoted price; no inventory is held. */
  readonly validUntil: string;
}

export const orderPricing = (priced: PricedOrder): OrderPricing => ({
  currency: priced.currency,
  items: priced.items,
  summary: priced.summary,
  selectedProperties: priced.breakdown.selectedProperties,
  mealPlan: priced.breakdown.mealPlan,
  soldOutNights: priced.breakdown.soldOutNights,
});

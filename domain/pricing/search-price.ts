import type { Minor } from '../money.ts';
import type { PricedOrder } from './priced-order.ts';
import { perNightOf, wholePercentDown } from './rounding.ts';

/** The contract's SearchPrice in paise (discountPercent in whole percent). */
export interface SearchPrice {
  readonly perNight: Minor;
  readonly perNightBeforeDiscount: Minor;
  readonly total: Minor;
  readonly totalBeforeDiscount: Minor;
  readonly totalSaving: Minor;
  readonly discountPercent: number;
}

/**
 * The search price of a priced order, before GST (search shows what the order preview
 * calls taxableSubtotal; the preview adds GST). totalBeforeDiscount is every charge
 * before any discount, totalSaving is offersDiscount, so
 * totalBeforeDiscount − totalSaving = total exactly. Per-night figures are rounded half
 * up and discountPercent down, so a saving is never overstated.
 */
export function searchPrice(order: PricedOrder): SearchPrice {
  const s = order.summary;
  const nights = order.items[0]?.nights ?? 1;
  const totalBeforeDiscount = s.baseSubtotal + s.mealsSubtotal + s.vasSubtotal;
  return searchPriceOf(s.taxableSubtotal, totalBeforeDiscount, s.offersDiscount, nights);
}

/** A SearchPrice from its three totals: the one place per-night figures and the percent are rounded. */
export function searchPriceOf(total: Minor, totalBeforeDiscount: Minor, totalSaving: Minor, nights: number): SearchPrice {
  return {
    perNight: perNightOf(total, nights),
    perNightBeforeDiscount: perNightOf(totalBeforeDiscount, nights),
    total,
    totalBeforeDiscount,
    totalSaving,
    discountPercent: wholePercentDown(totalSaving, totalBeforeDiscount),
  };
}

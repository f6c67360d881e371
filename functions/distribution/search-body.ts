import { toRupees } from '../../domain/money.ts';
import type { SearchPrice } from '../../domain/pricing/index.ts';
import type { RawParam } from '../../domain/search/search-query.ts';
import type { SearchListing, SearchResult } from '../../domain/search/search-listings.ts';

const priceJson = (p: SearchPrice) => ({
  perNight: toRupees(p.perNight),
  perNightBeforeDiscount: toRupees(p.perNightBeforeDiscount),
  total: toRupees(p.total),
  totalBeforeDiscount: toRupees(p.totalBeforeDiscount),
  totalSaving: toRupees(p.totalSaving),
  discountPercent: p.discountPercent,
});

const listingJson = (l: SearchListing) => ({
  ...l,
  price: priceJson(l.price),
  cancellationPlans: l.cancellationPlans.map((c) => ({
    ...c,
    totalAfterDiscount: toRupees(c.totalAfterDiscount),
    perNightAfterDiscount: toRupees(c.perNightAfterDiscount),
    totalSaving: toRupees(c.totalSaving),
  })),
});

/** The Search result as JSON: money in rupees, and the request's rawParams echoed exactly as sent. */
export function searchResultBody(result: SearchResult, rawParams: readonly RawParam[]) {
  return {
    ...result,
    singleListings: result.singleListings.map(listingJson),
    combinedGroups: result.combinedGroups.map((g) => ({ ...g, listings: g.listings.map(listingJson), price: priceJson(g.price) })),
    rawParams,
  };
}

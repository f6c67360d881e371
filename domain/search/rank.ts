import type { ListingView } from '../ports/catalogue-reader.ts';
import type { SearchPrice } from '../pricing/index.ts';
import type { ListingOffer } from './listing-offer.ts';
import type { SearchQuery, SearchSort } from './search-query.ts';

/** What the whole listing offers: every unit of every property. */
export interface ListingFigures {
  readonly adults: number;
  readonly children: number;
  readonly beds: number;
  readonly bathrooms: number;
  readonly bedrooms: number;
  readonly unitCount: number;
}

export function listingFigures(view: ListingView): ListingFigures {
  const sum = (f: (p: ListingView['properties'][number]) => number) => view.properties.reduce((s, p) => s + f(p) * p.quantity, 0);
  return {
    adults: sum((p) => p.maxAdults),
    children: sum((p) => p.maxChildren),
    beds: sum((p) => p.numberOfBeds),
    bathrooms: sum((p) => p.bathrooms),
    bedrooms: sum((p) => p.bedrooms),
    unitCount: sum(() => 1),
  };
}

const inSet = (set: ReadonlySet<string> | undefined, value: string) => !set || set.has(value.toLowerCase());

/**
 * The filters that need no dates: answered from the listing view alone, before any day of
 * inventory is read. INACTIVE listings are never found.
 */
export function matchesStatic(view: ListingView, q: SearchQuery): boolean {
  const l = view.listing;
  if (l.status !== 'ACTIVE') return false;
  if (!inSet(q.cities, l.city) || !inSet(q.states, l.state) || !inSet(q.localities, l.locality) || !inSet(q.propertyTypes, l.type) || !inSet(q.brands, l.brand))
    return false;
  if (q.tags.length) {
    const tags = new Set(l.tags.map((t) => t.toLowerCase()));
    if (!q.tags.every((t) => tags.has(t))) return false;
  }
  if (q.amenities.length) {
    const amenities = new Set([...l.amenities, ...view.properties.flatMap((p) => p.amenities.map((a) => a.name))].map((a) => a.toLowerCase()));
    if (!q.amenities.every((a) => amenities.has(a))) return false;
  }
  if (q.petFriendly && !view.properties.some((p) => p.isPetFriendly)) return false;
  if (q.minBedrooms > 0 && listingFigures(view).bedrooms < q.minBedrooms) return false;
  return true;
}

/** minPrice and maxPrice bound the per-night price (before GST) of what the party would book. */
export function withinPrice(price: SearchPrice, q: SearchQuery): boolean {
  return (q.minPrice === undefined || price.perNight >= q.minPrice) && (q.maxPrice === undefined || price.perNight <= q.maxPrice);
}

/** Reviews a listing needs before its own rating outweighs the prior. */
const PRIOR_REVIEWS = 10;
/** The rating a listing is assumed to have before its reviews say otherwise. */
const PRIOR_RATING = 4;

/**
 * Relevance: the rating shrunk towards 4.0 by how few reviews back it (a Bayesian
 * average), so a 5.0 from two reviews does not outrank a 4.8 from four hundred.
 */
export function relevance(rating: number, reviewCount: number): number {
  return (rating * reviewCount + PRIOR_RATING * PRIOR_REVIEWS) / (reviewCount + PRIOR_REVIEWS);
}

const byId = (a: ListingOffer, b: ListingOffer) => (a.view.listing.id < b.view.listing.id ? -1 : a.view.listing.id > b.view.listing.id ? 1 : 0);
const byPrice = (a: ListingOffer, b: ListingOffer) => a.price.perNight - b.price.perNight;

/** Orders of singleListings; every order ends on the listing id, so pages never overlap. */
export function compareOffers(sort: SearchSort): (a: ListingOffer, b: ListingOffer) => number {
  switch (sort) {
    case 'price_asc':
      return (a, b) => byPrice(a, b) || byId(a, b);
    case 'price_desc':
      return (a, b) => byPrice(b, a) || byId(a, b);
    case 'rating':
      return (a, b) => b.view.listing.rating - a.view.listing.rating || b.view.listing.reviewCount - a.view.listing.reviewCount || byId(a, b);
    case 'relevance':
      return (a, b) =>
        relevance(b.view.listing.rating, b.view.listing.reviewCount) - relevance(a.view.listing.rating, a.view.listing.reviewCount) ||
        byPrice(a, b) ||
        byId(a, b);
  }
}

/** One page of already ordered items; a page past the end is empty. totalPages is 0 when there is nothing. */
export function pageOf<T>(items: readonly T[], page: number, size: number): { items: T[]; totalPages: number } {
  return { items: items.slice((page - 1) * size, page * size), totalPages: Math.ceil(items.length / size) };
}

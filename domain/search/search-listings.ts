import { addDays } from '../catalogue/calendar.ts';
import type { Badge, Usp } from '../catalogue/listing.ts';
import type { CancellationPlan, PlanType } from '../catalogue/cancellation.ts';
import type { BankOffer } from '../catalogue/offers.ts';
import { ValidationError } from '../errors.ts';
import type { Minor } from '../money.ts';
import type { ListingView } from '../ports/catalogue-reader.ts';
import type { Clock } from '../ports/clock.ts';
import { cancellationPolicy, offerIneligibility, type SearchPrice, type SelectedProperty } from '../pricing/index.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { indiaToday } from '../reads/date-window.ts';
import { groupPrice, MAX_COMBINED_GROUPS, planGroups } from './combine.ts';
import { proximityLabel } from './geo.ts';
import {
  candidateFor,
  capacityOf,
  holds,
  offerFor,
  openUnits,
  priceListing,
  sellable,
  type Candidate,
  type ListingOffer,
  type Party,
  type SearchPricing,
} from './listing-offer.ts';
import { placesFor, shardName, shardsOfPlaces, viewOfCard, type Shard } from './projection.ts';
import { compareOffers, listingFigures, matchesStatic, pageOf, relevance, withinPrice } from './rank.ts';
import type { SearchCatalogue } from './search-catalogue.ts';
import { parseSearchQuery, type RawParam, type SearchQuery, type Selection } from './search-query.ts';

export interface SearchDeps {
  readonly catalogue: SearchCatalogue;
  readonly clock: Clock;
}

export interface SearchBody {
  readonly rawParams: readonly RawParam[];
  readonly selections?: readonly Selection[];
  readonly selectedCancellationPlanId?: string;
}

/** One cancellation plan of a listing, priced for this stay (money in paise). */
export interface PlanQuote {
  readonly id: string;
  readonly name: string;
  readonly planType: PlanType;
  readonly cancellationSummary: string;
  readonly hasDiscount: boolean;
  readonly totalAfterDiscount: Minor;
  readonly perNightAfterDiscount: Minor;
  readonly totalSaving: Minor;
  readonly discountPercent: number;
}

/** The contract's SearchListing, money in paise. */
export interface SearchListing {
  readonly listingId: string;
  readonly title: string;
  readonly coverPicture: string;
  readonly encodedId: string;
  readonly propertyType: string;
  readonly brand: string;
  readonly badges: readonly Badge[];
  readonly adults: number;
  readonly beds: number;
  readonly bathrooms: number;
  readonly bedrooms: number;
  readonly unitCount: number;
  readonly locality: string;
  readonly city: string;
  readonly state: string;
  readonly rating: number;
  readonly reviewCount: number;
  readonly overallRating: number;
  readonly totalReviews: number;
  readonly tags: readonly string[];
  readonly usps: readonly Usp[];
  readonly selectedProperties: readonly { propertyId: string; title: string; quantity: number }[];
  readonly price: SearchPrice;
  readonly offerTitles: readonly string[];
  readonly cancellationPlans: readonly PlanQuote[];
}

export interface CombinedGroup {
  readonly groupId: string;
  readonly totalAdultCapacity: number;
  readonly totalChildrenCapacity: number;
  readonly listingCount: number;
  readonly maxPairwiseDistanceMeters: number;
  readonly proximityLabel: string;
  readonly listings: readonly SearchListing[];
  readonly price: SearchPrice;
}

/** The contract's Search result without the rawParams echo (the edge adds it), money in paise. */
export interface SearchResult {
  readonly singleListings: readonly SearchListing[];
  readonly combinedGroups: readonly CombinedGroup[];
  readonly nights: number;
  readonly requiredAdults: number;
  readonly requiredChildren: number;
  readonly page: number;
  readonly size: number;
  readonly totalSingleListings: number;
  readonly totalPages: number;
}

/**
 * POST /v1/listings/search on the caller's channel, over its search projection. Three
 * round trips whatever the channel's size:
 * 1. the projection head (with the channel's bank offers) and the channel (with pins: where
 *    each pinned property sits);
 * 2. the shards of the places the query can match (with pins: the pinned listings'
 *    shards): listing entries and their days on the stay's months, with the plans, and for
 *    a search of a few shards (one town) their cards;
 * 3. after filtering, availability, pricing, ordering and paging in memory, unless step 2
 *    brought the cards: the full views of the listings on the page and in combined groups.
 */
export async function searchListings(deps: SearchDeps, principal: AgentGroupPrincipal, body: SearchBody): Promise<SearchResult> {
  const today = indiaToday(deps.clock.now());
  const query = parseSearchQuery(body, today);
  const { catalogue } = deps;
  const channelId = principal.channelId;
  const party: Party = { adults: query.adults, children: query.children };

  const { head, channel, pinned } = await catalogue.head(
    channelId,
    query.pins.map((p) => p.propertyId),
  );
  const offers = head.offers;
  const pinsByListing = new Map<string, SelectedProperty[]>();
  for (const pin of query.pins) {
    const at = pinned.get(pin.propertyId);
    if (at === undefined) {
      // One message for unknown and other channels' properties, so neither can be probed.
      throw new ValidationError(`selections[${pin.index}].id`, `selections[${pin.index}].id ${pin.propertyId} is not a property of a listing on your channel.`);
    }
    pinsByListing.set(at.listingId, [...(pinsByListing.get(at.listingId) ?? []), { propertyId: pin.propertyId, quantity: pin.quantity }]);
  }

  const wanted = query.pins.length ? uniqueShards([...pinned.values()].map((l) => l.shard)) : shardsOfPlaces(head, placesFor(head, query));
  const planIds = [...new Set([...head.planIds, ...(query.cancellationPlanId ? [query.cancellationPlanId] : [])])];
  // With the check-out date: a date closed to departure rules the stay out (departureRestrictions).
  const dates = [...query.nights, addDays(query.nights[query.nights.length - 1]!, 1)];
  const { entries, days, plans, cards: shardCards } = await catalogue.shards(channelId, wanted, dates, planIds);

  const views = query.pins.length ? [...pinsByListing.keys()].flatMap((id) => entries.filter((e) => e.listing.id === id)) : [...entries].sort(byListingId);
  checkPinnedCapacity(views, pinsByListing, query, party);
  const statics = views.filter((v) => matchesStatic(v, query));
  const fits = statics.filter((v) => holds(capacityOf(v.properties, pinnedOr(pinsByListing.get(v.listing.id))), party));
  if (query.cancellationPlanId !== undefined && !plans.some((p) => p.planId === query.cancellationPlanId)) {
    throw new ValidationError('selectedCancellationPlanId', `selectedCancellationPlanId ${query.cancellationPlanId} is not a cancellation plan.`);
  }

  const ctx: SearchPricing = { query, channel: channel ?? { channelId, name: channelId, rateAdjustmentPercent: 0 }, plans, days, today };
  const page = singlesPage(fits, party, ctx, pinsByListing);
  const groups = page.total === 0 && query.pins.length === 0 && statics.length > 1 ? combine(statics, party, ctx) : [];

  const shown = [...new Set([...page.items, ...groups.flatMap((g) => g.members)].map((o) => o.view.listing.id))];
  const cards = new Map((await cardsOf(shown, shardCards, catalogue)).map((v) => [v.listing.id, v]));
  const card = (o: ListingOffer) => searchListing({ ...o, view: cards.get(o.view.listing.id) ?? o.view }, ctx, offers);
  return {
    singleListings: page.items.map(card),
    combinedGroups: groups.map(({ members, ...group }) => ({ ...group, listings: members.map(card) })),
    nights: query.nights.length,
    requiredAdults: query.adults,
    requiredChildren: query.children,
    page: query.page,
    size: query.size,
    totalSingleListings: page.total,
    totalPages: page.totalPages,
  };
}

/**
 * The page of single listings and how many were found. Ordered by price or bounded by
 * it, every listing found is priced. Ordered by rating or relevance with no price bound,
 * the stays are only checked sellable by the engine's own first stage (sellable) and
 * ranked on their listing's figures; only the listings that reach the page (and, for
 * relevance, every listing tied with them, which price orders) go through priceOrder.
 * Same listings, same order, same prices: the cost follows the page, not the channel.
 */
function singlesPage(
  fits: readonly ListingView[],
  party: Party,
  ctx: SearchPricing,
  pinsByListing: ReadonlyMap<string, SelectedProperty[]>,
): { items: ListingOffer[]; total: number; totalPages: number } {
  const { query } = ctx;
  const byRank = compareOffers(query.sort);
  if (pinsByListing.size > 0 || query.minPrice !== undefined || query.maxPrice !== undefined || query.sort === 'price_asc' || query.sort === 'price_desc') {
    const singles = fits
      .map((v) => offerFor(v, party, ctx, pinsByListing.get(v.listing.id)))
      .filter((o): o is ListingOffer => o !== undefined && withinPrice(o.price, query))
      .sort(byRank);
    return { ...pageOf(singles, query.page, query.size), total: singles.length };
  }
  const found = fits.map((v) => candidateFor(v, party, ctx)).filter((c): c is Candidate => c !== undefined && sellable(c, ctx));
  const unpriced = (a: Candidate, b: Candidate) =>
    query.sort === 'rating'
      ? b.view.listing.rating - a.view.listing.rating || b.view.listing.reviewCount - a.view.listing.reviewCount
      : relevance(b.view.listing.rating, b.view.listing.reviewCount) - relevance(a.view.listing.rating, a.view.listing.reviewCount);
  const ranked = [...found].sort((a, b) => unpriced(a, b) || byListingId(a.view, b.view));
  const start = (query.page - 1) * query.size;
  const end = query.page * query.size;
  const items: ListingOffer[] = [];
  for (let i = 0; i < ranked.length && i < end; ) {
    let j = i + 1;
    while (j < ranked.length && unpriced(ranked[i]!, ranked[j]!) === 0) j++;
    if (j > start) {
      const priced = ranked
        .slice(i, j)
        .map((c) => priceListing(c.view, c.party, c.selected, ctx)!)
        .sort(byRank);
      items.push(...priced.slice(Math.max(0, start - i), end - i));
    }
    i = j;
  }
  return { items, total: found.length, totalPages: Math.ceil(found.length / query.size) };
}

const byListingId = (a: ListingView, b: ListingView) => (a.listing.id < b.listing.id ? -1 : a.listing.id > b.listing.id ? 1 : 0);

const uniqueShards = (shards: readonly Shard[]): Shard[] => [...new Map(shards.map((s) => [shardName(s), s])).values()];

/** A property's units in the search: the pinned quantity (0 when not pinned) under pins, else all its units. */
export const pinnedOr = (pins: readonly SelectedProperty[] | undefined) => (p: { id: string; quantity: number }) =>
  pins ? (pins.find((s) => s.propertyId === p.id)?.quantity ?? 0) : p.quantity;

/** Pinned units that cannot hold the party are a mistake in the request, not an empty result. */
export function checkPinnedCapacity(
  views: readonly ListingView[],
  pinsByListing: ReadonlyMap<string, SelectedProperty[]>,
  query: SearchQuery,
  party: Party,
): void {
  for (const view of views) {
    const pins = pinsByListing.get(view.listing.id);
    if (!pins) continue;
    const room = capacityOf(view.properties, pinnedOr(pins));
    if (holds(room, party)) continue;
    const last = query.pins.filter((p) => pins.some((s) => s.propertyId === p.propertyId)).at(-1)!;
    const at = `selections[${last.index}].quantity`;
    throw new ValidationError(
      at,
      `${at}: the units selected for listing ${view.listing.id} hold ${room.adults} adults and ${room.children} children; the party is ${party.adults} adults and ${party.children} children.`,
    );
  }
}

/** A combined group before its cards: the priced members and the group's figures. */
export type PricedGroup = Omit<CombinedGroup, 'listings'> & { readonly members: readonly ListingOffer[] };

/** Combined groups of nearby listings, priced; their cards are built once the page's full views are read. */
export function combine(statics: readonly ListingView[], party: Party, ctx: SearchPricing): PricedGroup[] {
  const pool = statics.map((view) => ({ view, room: capacityOf(view.properties, (p) => openUnits(p, ctx.query.nights, ctx.days, ctx.query.mealPlan)) }));
  const groups: PricedGroup[] = [];
  for (const plan of planGroups(pool, party)) {
    if (groups.length === MAX_COMBINED_GROUPS) break;
    const members = plan.members.map((m) => offerFor(m.view, m.share, ctx));
    if (members.some((m) => m === undefined)) continue;
    const priced = members as ListingOffer[];
    const price = groupPrice(
      priced.map((m) => m.price),
      ctx.query.nights.length,
    );
    if (!withinPrice(price, ctx.query)) continue;
    const room = priced
      .map((m) => capacityOf(m.view.properties, pinnedOr(m.selected)))
      .reduce((a, b) => ({ adults: a.adults + b.adults, children: a.children + b.children }));
    groups.push({
      groupId: priced
        .map((m) => m.view.listing.id)
        .sort()
        .join('+'),
      totalAdultCapacity: room.adults,
      totalChildrenCapacity: room.children,
      listingCount: priced.length,
      maxPairwiseDistanceMeters: plan.maxPairwiseMeters,
      proximityLabel: proximityLabel(plan.maxPairwiseMeters),
      members: priced,
      price,
    });
  }
  return groups;
}

/** The listing id in a form safe for URLs and paths (base64url of its UTF-8 bytes). */
export const encodeListingId = (listingId: string): string => Buffer.from(listingId, 'utf8').toString('base64url');

/** The contract's SearchListing of an offer whose view is the listing's full view. */
/** The full views of the shown listings: from the cards read with the shards when there were, else one read. */
async function cardsOf(shown: readonly string[], shardCards: ReadonlyMap<string, string> | undefined, catalogue: SearchCatalogue): Promise<ListingView[]> {
  if (shown.length === 0) return [];
  if (shardCards && shown.every((id) => shardCards.has(id))) return shown.map((id) => viewOfCard(shardCards.get(id)!));
  return catalogue.listingViews(shown);
}

export function searchListing(offer: ListingOffer, ctx: SearchPricing, offers: readonly BankOffer[]): SearchListing {
  const { listing, properties } = offer.view;
  const figures = listingFigures(offer.view);
  return {
    listingId: listing.id,
    title: listing.title,
    coverPicture: listing.coverPicture,
    encodedId: encodeListingId(listing.id),
    propertyType: listing.type,
    brand: listing.brand,
    badges: listing.badges,
    adults: figures.adults,
    beds: figures.beds,
    bathrooms: figures.bathrooms,
    bedrooms: figures.bedrooms,
    unitCount: figures.unitCount,
    locality: listing.locality,
    city: listing.city,
    state: listing.state,
    rating: listing.rating,
    reviewCount: listing.reviewCount,
    overallRating: listing.rating,
    totalReviews: listing.reviewCount,
    tags: listing.tags,
    usps: listing.usps,
    selectedProperties: offer.selected.map((s) => ({
      propertyId: s.propertyId,
      title: properties.find((p) => p.id === s.propertyId)?.title ?? s.propertyId,
      quantity: s.quantity,
    })),
    price: offer.price,
    offerTitles: offerTitles(offer, ctx, offers),
    cancellationPlans: planQuotes(offer, ctx),
  };
}

/** Titles of the channel's bank offers this stay could use at this price, alphabetically; search never applies one (it depends on the payer's card). */
function offerTitles(offer: ListingOffer, ctx: SearchPricing, offers: readonly BankOffer[]): string[] {
  const terms = { orderValue: offer.order.summary.priceAfterBankOffer, checkIn: ctx.query.checkIn, nights: ctx.query.nights.length, today: ctx.today };
  return offers
    .filter((o) => o.channelId === ctx.channel.channelId && offerIneligibility(o, terms) === undefined)
    .map((o) => o.title)
    .sort();
}

/** Every plan the listing offers, each priced for the same units through the same engine. */
function planQuotes(offer: ListingOffer, ctx: SearchPricing): PlanQuote[] {
  const { listing } = offer.view;
  return listing.cancellationPlanIds.flatMap((planId) => {
    const plan = ctx.plans.find((p) => p.planId === planId);
    if (!plan) return [];
    // The offer itself was priced with one of these plans: the same inputs give the same quote.
    const quoted = planId === offer.order.items[0]!.cancellationPlanId ? offer : priceListing(offer.view, offer.party, offer.selected, ctx, planId);
    if (!quoted) return [];
    return [
      {
        id: plan.planId,
        name: plan.name,
        planType: plan.planType,
        cancellationSummary: cancellationSummary(plan, ctx.query.checkIn, ctx.today),
        hasDiscount: plan.discountPercent > 0,
        totalAfterDiscount: quoted.price.total,
        perNightAfterDiscount: quoted.price.perNight,
        totalSaving: quoted.price.totalSaving,
        discountPercent: quoted.price.discountPercent,
      },
    ];
  });
}

/** One line a guest can read, from the same refund schedule an order carries. */
export function cancellationSummary(plan: CancellationPlan, checkIn: string, today: string): string {
  if (plan.schedule.length === 0) return 'Non-refundable: no refund on cancellation.';
  const refunds = cancellationPolicy(plan, checkIn, today).filter((s) => s.refundPercentage > 0);
  if (refunds.length === 0) return 'No refund on cancellation from now on.';
  const parts = refunds.map((s) => `${s.refundPercentage === 100 ? 'Full' : `${s.refundPercentage}%`} refund if cancelled by ${s.cancelBy}`);
  return `${parts.join('; ')}; no refund after ${refunds.at(-1)!.cancelBy}.`;
}

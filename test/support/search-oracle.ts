import type { CancellationPlan } from '../../domain/catalogue/cancellation.ts';
import type { Channel } from '../../domain/catalogue/channel.ts';
import type { PropertyMonth } from '../../domain/catalogue/day.ts';
import type { BankOffer } from '../../domain/catalogue/offers.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { ListingView } from '../../domain/ports/catalogue-reader.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import type { SelectedProperty } from '../../domain/pricing/index.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { capacityOf, daysOf, holds, offerFor, type ListingOffer, type Party, type SearchPricing } from '../../domain/search/listing-offer.ts';
import { compareOffers, matchesStatic, pageOf, withinPrice } from '../../domain/search/rank.ts';
import { checkPinnedCapacity, combine, pinnedOr, searchListing, type SearchBody, type SearchResult } from '../../domain/search/search-listings.ts';
import { parseSearchQuery } from '../../domain/search/search-query.ts';

/**
 * The search as it was before the projection: it read the channel's whole catalogue on
 * every search (distribution rows, every listing view, then the survivors' months). Kept
 * only as the oracle of the equivalence property (test/integration/search-projection.test.ts):
 * the projection must never change an answer.
 */
export interface LegacySearchCatalogue {
  distributedListingIds(channelId: string): Promise<string[]>;
  propertyOwners(propertyIds: readonly string[]): Promise<Map<string, string>>;
  listingViews(listingIds: readonly string[]): Promise<ListingView[]>;
  stayDays(propertyIds: readonly string[], dates: readonly string[]): Promise<PropertyMonth[]>;
  channel(channelId: string): Promise<Channel | undefined>;
  bankOffers(channelId: string): Promise<BankOffer[]>;
  cancellationPlans(planIds: readonly string[]): Promise<CancellationPlan[]>;
}

const propertyIdsOf = (views: readonly ListingView[]) => views.flatMap((v) => v.properties.map((p) => p.id));

export async function legacySearchListings(
  deps: { catalogue: LegacySearchCatalogue; clock: Clock },
  principal: AgentGroupPrincipal,
  body: SearchBody,
): Promise<SearchResult> {
  const today = indiaToday(deps.clock.now());
  const query = parseSearchQuery(body, today);
  const { catalogue } = deps;
  const channelId = principal.channelId;
  const party: Party = { adults: query.adults, children: query.children };
  const pinIds = query.pins.map((p) => p.propertyId);

  const [ids, channel, offers, owners] = await Promise.all([
    catalogue.distributedListingIds(channelId),
    catalogue.channel(channelId),
    catalogue.bankOffers(channelId),
    pinIds.length ? catalogue.propertyOwners(pinIds) : Promise.resolve(new Map<string, string>()),
  ]);
  const visible = new Set(ids);
  const pinsByListing = new Map<string, SelectedProperty[]>();
  for (const pin of query.pins) {
    const owner = owners.get(pin.propertyId);
    if (owner === undefined || !visible.has(owner)) {
      throw new ValidationError(`selections[${pin.index}].id`, `selections[${pin.index}].id ${pin.propertyId} is not a property of a listing on your channel.`);
    }
    pinsByListing.set(owner, [...(pinsByListing.get(owner) ?? []), { propertyId: pin.propertyId, quantity: pin.quantity }]);
  }

  const views = await catalogue.listingViews(query.pins.length ? [...pinsByListing.keys()] : ids);
  checkPinnedCapacity(views, pinsByListing, query, party);
  const statics = views.filter((v) => matchesStatic(v, query));
  const fits = statics.filter((v) => holds(capacityOf(v.properties, pinnedOr(pinsByListing.get(v.listing.id))), party));

  const planIds = [...new Set([...statics.flatMap((v) => v.listing.cancellationPlanIds), ...(query.cancellationPlanId ? [query.cancellationPlanId] : [])])];
  const [plans, months] = await Promise.all([
    planIds.length ? catalogue.cancellationPlans(planIds) : Promise.resolve([]),
    fits.length ? catalogue.stayDays(propertyIdsOf(fits), query.nights) : Promise.resolve([]),
  ]);
  if (query.cancellationPlanId !== undefined && !plans.some((p) => p.planId === query.cancellationPlanId)) {
    throw new ValidationError('selectedCancellationPlanId', `selectedCancellationPlanId ${query.cancellationPlanId} is not a cancellation plan.`);
  }

  const days = daysOf(months);
  const ctx: SearchPricing = { query, channel: channel ?? { channelId, name: channelId, rateAdjustmentPercent: 0 }, plans, days, today };
  const singles = fits
    .map((v) => offerFor(v, party, ctx, pinsByListing.get(v.listing.id)))
    .filter((o): o is ListingOffer => o !== undefined && withinPrice(o.price, query))
    .sort(compareOffers(query.sort));

  let combinedGroups: SearchResult['combinedGroups'] = [];
  if (singles.length === 0 && query.pins.length === 0 && statics.length > 1) {
    const rest = statics.filter((v) => !fits.includes(v));
    if (rest.length) for (const [propertyId, byDate] of daysOf(await catalogue.stayDays(propertyIdsOf(rest), query.nights))) days.set(propertyId, byDate);
    combinedGroups = combine(statics, party, ctx).map(({ members, ...group }) => ({ ...group, listings: members.map((m) => searchListing(m, ctx, offers)) }));
  }

  const page = pageOf(singles, query.page, query.size);
  return {
    singleListings: page.items.map((o) => searchListing(o, ctx, offers)),
    combinedGroups,
    nights: query.nights.length,
    requiredAdults: query.adults,
    requiredChildren: query.children,
    page: query.page,
    size: query.size,
    totalSingleListings: singles.length,
    totalPages: page.totalPages,
  };
}

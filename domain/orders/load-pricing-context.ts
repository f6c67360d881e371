import { addDays, daysBetween, isCalendarDate, monthOf, dayOfMonth } from '../catalogue/calendar.ts';
import { NO_REFS } from '../catalogue/catalogue-diff.ts';
import type { DayData } from '../catalogue/day.ts';
import { ValidationError } from '../errors.ts';
import { MAX_STAY_NIGHTS, type OrderRequest, type PricedOrder, type PricingContext } from '../pricing/index.ts';
import type { CatalogueStore } from '../ports/catalogue-store.ts';
import type { Clock } from '../ports/clock.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { indiaToday } from '../reads/date-window.ts';

/** Prices a request against its loaded context: priceOrder, or a sandbox wrapper of it (domain/sandbox). */
export type Pricer = (input: { readonly request: OrderRequest; readonly context: PricingContext }) => PricedOrder;

export interface PricingContextDeps {
  /** Only the reads pricing makes, so a rule test can price against an in-memory catalogue. */
  readonly catalogue: Pick<CatalogueStore, 'getListing' | 'listOffers' | 'listGstSlabTables' | 'load'>;
  readonly clock: Clock;
  /** Absent: priceOrder. */
  readonly pricer?: Pricer;
}

/**
 * One message for a listing that does not exist and one another channel sells, so a
 * caller cannot probe which listings exist outside its channel (docs/decisions.md, Orders).
 */
export const listingNotOnChannel = (listingId: string): ValidationError =>
  new ValidationError('listingId', `listingId ${listingId} is not a listing sold on your channel.`);

/**
 * The nights the order covers, or none when the dates are not a stay pricing would accept.
 * Pricing refuses such a request with the right param, so loading months for it would only
 * let a malformed request read an unbounded range.
 */
function stayNights(request: OrderRequest): string[] {
  if (!isCalendarDate(request.checkIn) || !isCalendarDate(request.checkOut)) return [];
  const nights = daysBetween(request.checkIn, request.checkOut);
  if (nights < 1 || nights > MAX_STAY_NIGHTS) return [];
  return Array.from({ length: nights }, (_, i) => addDays(request.checkIn, i));
}

/**
 * Everything priceOrder reads for one order on the caller's channel, in two round trips:
 *
 * 1. in parallel: the listing with its properties, meals and services (one Query), the
 *    channel's bank offers (one Query) and the GST slab tables (one Query);
 * 2. one BatchGet of the channel, the listing's distribution row on it, the listing's
 *    cancellation plans and the property months the stay touches.
 *
 * The distribution check rides in the second read rather than a round trip of its own; a
 * listing that is missing or sold only on other channels is refused with the same 400
 * naming listingId before anything is priced or returned. Months are read only for the
 * properties the request selects that belong to the listing (all of them for a
 * listing-level booking, where pricing chooses the units).
 */
export async function loadPricingContext(deps: PricingContextDeps, principal: AgentGroupPrincipal, request: OrderRequest): Promise<PricingContext> {
  const { channelId } = principal;
  const [bundle, offers, gstSlabTables] = await Promise.all([
    deps.catalogue.getListing(request.listingId),
    deps.catalogue.listOffers(channelId),
    deps.catalogue.listGstSlabTables(),
  ]);
  if (!bundle) throw listingNotOnChannel(request.listingId);

  const owned = new Set(bundle.properties.map((p) => p.id));
  const requested = (request.selectedProperties ?? []).map((s) => s.propertyId).filter((id) => owned.has(id));
  const propertyIds = requested.length ? [...new Set(requested)] : [...owned];
  const nights = stayNights(request);
  // The check-out date too: a date closed to departure refuses the stay (departureRestrictions).
  const dates = nights.length > 0 ? [...nights, addDays(nights[nights.length - 1]!, 1)] : nights;
  const months = [...new Set(dates.map(monthOf))];

  const loaded = await deps.catalogue.load({
    ...NO_REFS,
    channels: [channelId],
    distributions: [{ channelId, listingId: request.listingId }],
    cancellationPlans: bundle.listing.cancellationPlanIds,
    months: propertyIds.flatMap((propertyId) => months.map((month) => ({ propertyId, month }))),
  });
  if (!loaded.distributions.some((d) => d.channelId === channelId && d.listingId === request.listingId)) throw listingNotOnChannel(request.listingId);
  const channel = loaded.channels.find((c) => c.channelId === channelId);
  if (!channel) throw new RangeError(`channel ${channelId} distributes listing ${request.listingId} but has no channel record`);

  const byMonth = new Map(loaded.months.map((m) => [`${m.propertyId}|${m.month}`, m]));
  const days = new Map<string, Map<string, DayData>>();
  for (const propertyId of propertyIds) {
    const ofProperty = new Map<string, DayData>();
    for (const date of dates) {
      const day = byMonth.get(`${propertyId}|${monthOf(date)}`)?.days[dayOfMonth(date)];
      if (day) ofProperty.set(date, { inventory: day.inventory, rates: day.rates });
    }
    days.set(propertyId, ofProperty);
  }

  return {
    listing: bundle.listing,
    properties: bundle.properties,
    days,
    meals: bundle.meals,
    vas: bundle.vas,
    cancellationPlans: loaded.cancellationPlans,
    channel,
    bankOffers: offers,
    gstSlabTables,
    today: indiaToday(deps.clock.now()),
  };
}

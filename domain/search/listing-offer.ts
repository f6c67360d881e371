import type { CancellationPlan } from '../catalogue/cancellation.ts';
import type { Channel } from '../catalogue/channel.ts';
import type { DayData, MealPlan, PropertyMonth } from '../catalogue/day.ts';
import type { GstSlabTable } from '../catalogue/gst.ts';
import type { Property } from '../catalogue/property.ts';
import type { ListingView } from '../ports/catalogue-reader.ts';
import {
  allocateParty,
  chooseUnits,
  departureRestrictions,
  nightRestrictions,
  priceOrder,
  searchPrice,
  staySellable,
  type PricedOrder,
  type SearchPrice,
  type SelectedProperty,
} from '../pricing/index.ts';
import type { SearchQuery } from './search-query.ts';

export type Days = ReadonlyMap<string, ReadonlyMap<string, DayData>>;

/** What every listing of one search is priced against. */
export interface SearchPricing {
  readonly query: SearchQuery;
  readonly channel: Channel;
  readonly plans: readonly CancellationPlan[];
  readonly days: Days;
  readonly today: string;
}

export interface Party {
  readonly adults: number;
  readonly children: number;
}

/** A listing that can take a party on every night of the stay, with the units and the price. */
export interface ListingOffer {
  readonly view: ListingView;
  readonly party: Party;
  readonly selected: readonly SelectedProperty[];
  readonly order: PricedOrder;
  readonly price: SearchPrice;
}

/**
 * SearchPrice is before GST, so search never needs the slab tables: a zero-rate table
 * lets priceOrder run unchanged without reading them (taxableSubtotal does not depend on it).
 */
const UNTAXED: readonly GstSlabTable[] = [{ effectiveFrom: '0000-01-01', slabs: [{ upToPerUnitNight: null, ratePercent: 0 }] }];

/** propertyId → date → day, from month items. */
export function daysOf(months: readonly PropertyMonth[]): Map<string, Map<string, DayData>> {
  const out = new Map<string, Map<string, DayData>>();
  for (const m of months) {
    const byDate = out.get(m.propertyId) ?? new Map<string, DayData>();
    for (const [dd, day] of Object.entries(m.days)) byDate.set(`${m.month}-${dd}`, day);
    out.set(m.propertyId, byDate);
  }
  return out;
}

/**
 * Units of a property open on every night of the stay: the fewest open on any night, and
 * 0 when any night has no inventory, is stop-sold, or its minimum or maximum stay rules
 * the stay out — the pricing engine's own sold-out rules (nightRestrictions), for the meal
 * plan searched (a plan's own stop-sell closes only that plan).
 */
export function openUnits(property: Property, nights: readonly string[], days: Days, mealPlan: MealPlan): number {
  let open = property.quantity;
  if (departureRestrictions(property.id, nights, 0, days, mealPlan).length > 0) return 0;
  for (const [index, night] of nights.entries()) {
    const day = days.get(property.id)?.get(night);
    if (nightRestrictions(property.id, night, 0, nights.length, day, mealPlan, index === 0).length > 0) return 0;
    open = Math.min(open, day!.inventory!.quantity);
  }
  return Math.max(0, open);
}

/** Adults and children the listing's properties can hold with `quantityOf` units each. */
export function capacityOf(properties: readonly Property[], quantityOf: (p: Property) => number): Party {
  let adults = 0;
  let children = 0;
  for (const p of properties) {
    adults += p.maxAdults * quantityOf(p);
    children += p.maxChildren * quantityOf(p);
  }
  return { adults, children };
}

export const holds = (room: Party, party: Party): boolean => room.adults >= party.adults && room.children >= party.children;

/**
 * Units for the party among those open every night: the pricing engine's own choice
 * (chooseUnits: one unit if one holds everyone, else the fewest, largest first), made over
 * open units instead of the catalogue's, so what search offers is bookable as shown.
 * Undefined when the open units cannot hold the party.
 */
export function chooseOpenUnits(
  properties: readonly Property[],
  nights: readonly string[],
  days: Days,
  mealPlan: MealPlan,
  party: Party,
): SelectedProperty[] | undefined {
  const open = properties.map((p) => ({ ...p, quantity: openUnits(p, nights, days, mealPlan) })).filter((p) => p.quantity > 0);
  if (
    !holds(
      capacityOf(open, (p) => p.quantity),
      party,
    )
  )
    return undefined;
  return chooseUnits(open, party.adults, party.children);
}

/** True when every pinned property has the units open on every night. */
export function pinsOpen(
  properties: readonly Property[],
  pins: readonly SelectedProperty[],
  nights: readonly string[],
  days: Days,
  mealPlan: MealPlan,
): boolean {
  return pins.every((pin) => {
    const p = properties.find((x) => x.id === pin.propertyId);
    return p !== undefined && openUnits(p, nights, days, mealPlan) >= pin.quantity;
  });
}

/**
 * Prices the listing for the party through priceOrder, the one pricing path, with the
 * requested cancellation plan where the listing offers it and its default otherwise.
 * Undefined when the engine still finds the stay sold out (a night without a rate).
 */
export function priceListing(
  view: ListingView,
  party: Party,
  selected: readonly SelectedProperty[],
  ctx: SearchPricing,
  planId?: string,
): ListingOffer | undefined {
  const { query } = ctx;
  const wanted = planId ?? query.cancellationPlanId;
  const order = priceOrder({
    request: {
      listingId: view.listing.id,
      checkIn: query.checkIn,
      checkOut: query.checkOut,
      adults: party.adults,
      children: party.children,
      selectedProperties: selected,
      mealPlan: query.mealPlan,
      cancellationPlanId: wanted !== undefined && view.listing.cancellationPlanIds.includes(wanted) ? wanted : undefined,
    },
    context: {
      listing: view.listing,
      properties: view.properties,
      days: ctx.days,
      meals: [],
      vas: [],
      cancellationPlans: ctx.plans,
      channel: ctx.channel,
      bankOffers: [],
      gstSlabTables: UNTAXED,
      today: ctx.today,
    },
  });
  if (order.items[0]!.soldOut) return undefined;
  return { view, party, selected, order, price: searchPrice(order) };
}

/** What a listing would sell the party, before its price: the units open on every night of the stay. */
export interface Candidate {
  readonly view: ListingView;
  readonly party: Party;
  readonly selected: readonly SelectedProperty[];
}

/** The units the listing would sell the party: the pins when open on every night, else the engine's choice among the open units. */
export function candidateFor(view: ListingView, party: Party, ctx: SearchPricing, pins?: readonly SelectedProperty[]): Candidate | undefined {
  if (pins) return pinsOpen(view.properties, pins, ctx.query.nights, ctx.days, ctx.query.mealPlan) ? { view, party, selected: pins } : undefined;
  const selected = chooseOpenUnits(view.properties, ctx.query.nights, ctx.days, ctx.query.mealPlan, party);
  return selected ? { view, party, selected } : undefined;
}

/**
 * True when priceOrder would not find the stay sold out: the engine's own first stage
 * (allocateParty, then priceStay's sold-out rules, NO_RATE included, as staySellable) without the rest of
 * the order, so a search can count what it finds and price only what it shows.
 */
export function sellable(c: Candidate, ctx: SearchPricing): boolean {
  const properties = new Map(c.view.properties.filter((p) => p.listingId === c.view.listing.id).map((p) => [p.id, p]));
  const units = c.selected.flatMap((s) => Array.from({ length: s.quantity }, () => properties.get(s.propertyId)!));
  return staySellable({
    occupancy: allocateParty(units, c.party.adults, c.party.children),
    selected: c.selected,
    properties,
    nights: ctx.query.nights,
    days: ctx.days,
    mealPlan: ctx.query.mealPlan,
  });
}

/** The listing for the party on these nights with units chosen among the open ones, priced; undefined when it cannot take them. */
export function offerFor(view: ListingView, party: Party, ctx: SearchPricing, pins?: readonly SelectedProperty[]): ListingOffer | undefined {
  const c = candidateFor(view, party, ctx, pins);
  return c ? priceListing(view, party, c.selected, ctx) : undefined;
}

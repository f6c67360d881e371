import { dayOfMonth, eachMonth, monthOf } from '../../../domain/catalogue/calendar.ts';
import type { CatalogueRefs, StoredCatalogue } from '../../../domain/catalogue/catalogue-diff.ts';
import type { Channel, StoredDistribution } from '../../../domain/catalogue/channel.ts';
import type { PropertyMonth } from '../../../domain/catalogue/day.ts';
import type { Listing } from '../../../domain/catalogue/listing.ts';
import type { Property } from '../../../domain/catalogue/property.ts';
import { DEFAULT_SIMULATOR, type SimulatorBehaviour } from '../../../domain/catalogue/simulator.ts';
import type { Stored } from '../../../domain/catalogue/versioned.ts';
import type { UnitMove } from '../../../domain/ports/amendment-store.ts';
import type { CatalogueReader, FeedEntry, FeedPageQuery, ListingView, MonthGroup } from '../../../domain/ports/catalogue-reader.ts';
import type { CatalogueStore, ListingBundle } from '../../../domain/ports/catalogue-store.ts';
import type { Meal, ValueAddedService } from '../../../domain/catalogue/add-ons.ts';
import type { CancellationPlan } from '../../../domain/catalogue/cancellation.ts';
import type { GstRegistration, GstSlabTable } from '../../../domain/catalogue/gst.ts';
import type { BankOffer } from '../../../domain/catalogue/offers.ts';
import { netMoves } from '../../../infra/dynamo/unit-moves.ts';

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const monthKey = (propertyId: string, month: string): string => `${propertyId}|${month}`;
/** The feed's sort key, as GSI1SK spells it: a bare `since` instant sorts before every `<since>#<id>`. */
const feedKey = (e: FeedEntry): string => `${e.updatedAt}#${e.listingId}`;

/** The catalogue store's reads that pricing an order or an amendment makes (load, save's world-import extras and chunks excepted). */
export type CataloguePricingReads = Pick<
  CatalogueStore,
  | 'load'
  | 'getListing'
  | 'getListingViews'
  | 'getPropertyOwners'
  | 'getMonths'
  | 'getProperty'
  | 'listingIdOfProperty'
  | 'getPropertyMonths'
  | 'getChannel'
  | 'listOffers'
  | 'getCancellationPlans'
  | 'getGstRegistration'
  | 'listGstSlabTables'
>;

/**
 * The catalogue in memory, for rule tests in the unit tier: the read side (CatalogueReader,
 * whose contract test/support/contracts/catalogue-reader-contract.ts runs against it and
 * DynamoCatalogueReader), written as a catalogue store's `save` writes it, plus the daily
 * inventory's units that bookings and amendments move (oversold and moveUnits, as
 * unit-moves.ts moves them on DynamoDB) and the simulator behaviours the in-memory property system reads.
 * It also answers the catalogue store's pricing reads (listing bundles, offers, cancellation
 * plans, GST), whose contract runs in the same suite against DynamoCatalogueStore.
 */
export class InMemoryCatalogue implements CatalogueReader, CataloguePricingReads {
  private readonly channels = new Map<string, Stored<Channel>>();
  private readonly listings = new Map<string, Stored<Listing>>();
  private readonly properties = new Map<string, Stored<Property>>();
  private readonly distributions = new Map<string, Stored<StoredDistribution>>();
  private readonly simulators = new Map<string, Stored<SimulatorBehaviour>>();
  private readonly months = new Map<string, PropertyMonth>();
  private readonly meals = new Map<string, Stored<Meal>>();
  private readonly vas = new Map<string, Stored<ValueAddedService>>();
  private readonly offers = new Map<string, Stored<BankOffer>>();
  private readonly plans = new Map<string, Stored<CancellationPlan>>();
  private readonly gstRegistrations = new Map<string, Stored<GstRegistration>>();
  private readonly gstSlabTables = new Map<string, Stored<GstSlabTable>>();

  /** Every record given, each replacing what was stored under its key (a month as a whole), as CatalogueStore.save. */
  async save(writes: Partial<StoredCatalogue>): Promise<void> {
    for (const c of writes.channels ?? []) this.channels.set(c.channelId, c);
    for (const l of writes.listings ?? []) this.listings.set(l.id, l);
    for (const p of writes.properties ?? []) this.properties.set(p.id, p);
    for (const d of writes.distributions ?? []) this.distributions.set(`${d.channelId}|${d.listingId}`, d);
    for (const s of writes.simulators ?? []) this.simulators.set(s.listingId, s);
    for (const m of writes.months ?? []) this.months.set(monthKey(m.propertyId, m.month), m);
    for (const m of writes.meals ?? []) this.meals.set(`${m.listingId}|${m.mealId}`, m);
    for (const v of writes.vas ?? []) this.vas.set(`${v.listingId}|${v.vasId}`, v);
    for (const o of writes.offers ?? []) this.offers.set(`${o.channelId}|${o.code}`, o);
    for (const p of writes.cancellationPlans ?? []) this.plans.set(p.planId, p);
    for (const g of writes.gstRegistrations ?? []) this.gstRegistrations.set(g.state, g);
    for (const t of writes.gstSlabTables ?? []) this.gstSlabTables.set(t.effectiveFrom, t);
  }

  /** The stored versions of exactly these records; records not stored are absent (CatalogueStore.load). */
  async load(refs: CatalogueRefs): Promise<StoredCatalogue> {
    const found = <K, T>(wanted: readonly K[], records: Map<string, T>, key: (k: K) => string): T[] => wanted.flatMap((k) => records.get(key(k)) ?? []);
    const id = (k: string) => k;
    return {
      channels: found(refs.channels, this.channels, id),
      cancellationPlans: found(refs.cancellationPlans, this.plans, id),
      gstRegistrations: found(refs.gstRegistrations, this.gstRegistrations, id),
      gstSlabTables: found(refs.gstSlabTables, this.gstSlabTables, id),
      listings: found(refs.listings, this.listings, id),
      // A property is keyed under its listing: asked under another, it is not there.
      properties: refs.properties.flatMap((r) => {
        const p = this.properties.get(r.propertyId);
        return p?.listingId === r.listingId ? [p] : [];
      }),
      meals: found(refs.meals, this.meals, (r) => `${r.listingId}|${r.mealId}`),
      vas: found(refs.vas, this.vas, (r) => `${r.listingId}|${r.vasId}`),
      simulators: found(refs.simulators, this.simulators, id),
      distributions: found(refs.distributions, this.distributions, (r) => `${r.channelId}|${r.listingId}`),
      offers: found(refs.offers, this.offers, (r) => `${r.channelId}|${r.code}`),
      months: found(refs.months, this.months, (r) => monthKey(r.propertyId, r.month)),
    };
  }

  /** A listing with its properties, meals and services in key order (as one partition query returns them). */
  async getListing(listingId: string): Promise<ListingBundle | undefined> {
    const listing = this.listings.get(listingId);
    if (!listing) return undefined;
    const under = <T>(records: Map<string, T>, owner: (r: T) => string, key: (r: T) => string): T[] =>
      [...records.values()].filter((r) => owner(r) === listingId).sort((a, b) => byString(key(a), key(b)));
    return {
      listing,
      properties: under(
        this.properties,
        (p) => p.listingId,
        (p) => p.id,
      ),
      meals: under(
        this.meals,
        (m) => m.listingId,
        (m) => m.mealId,
      ),
      vas: under(
        this.vas,
        (v) => v.listingId,
        (v) => v.vasId,
      ),
      simulator: this.simulators.get(listingId),
    };
  }

  getListingViews(listingIds: readonly string[]): Promise<ListingView[]> {
    return this.listingViews(listingIds);
  }

  getPropertyOwners(propertyIds: readonly string[]): Promise<Map<string, string>> {
    return this.listingsOfProperties(propertyIds);
  }

  async getProperty(propertyId: string): Promise<Stored<Property> | undefined> {
    return this.properties.get(propertyId);
  }

  async listingIdOfProperty(propertyId: string): Promise<string | undefined> {
    return this.properties.get(propertyId)?.listingId;
  }

  getPropertyMonths(propertyId: string, fromMonth: string, toMonth: string): Promise<PropertyMonth[]> {
    return this.propertyMonths([propertyId], fromMonth, toMonth);
  }

  getChannel(channelId: string): Promise<Stored<Channel> | undefined> {
    return this.channel(channelId);
  }

  /** A channel's offers by code (the sort key's order). */
  async listOffers(channelId: string): Promise<Stored<BankOffer>[]> {
    return [...this.offers.values()].filter((o) => o.channelId === channelId).sort((a, b) => byString(a.code, b.code));
  }

  async getCancellationPlans(planIds: readonly string[]): Promise<Stored<CancellationPlan>[]> {
    return planIds.flatMap((id) => this.plans.get(id) ?? []);
  }

  async getGstRegistration(state: string): Promise<Stored<GstRegistration> | undefined> {
    return this.gstRegistrations.get(state);
  }

  /** Every slab table, oldest first (the sort key is effectiveFrom). */
  async listGstSlabTables(): Promise<Stored<GstSlabTable>[]> {
    return [...this.gstSlabTables.values()].sort((a, b) => byString(a.effectiveFrom, b.effectiveFrom));
  }

  /** Exactly these months; months never written are absent (CatalogueStore.getMonths). */
  async getMonths(refs: readonly { propertyId: string; month: string }[]): Promise<PropertyMonth[]> {
    return refs.flatMap((r) => this.months.get(monthKey(r.propertyId, r.month)) ?? []);
  }

  /** How the property-system simulator answers for a listing (the world file's, or the default). */
  simulatorOf(listingId: string): Omit<SimulatorBehaviour, 'listingId'> {
    return this.simulators.get(listingId) ?? DEFAULT_SIMULATOR;
  }

  /** The nights these moves would take below zero (nights without inventory are not ours to move, as unitMoveItems leaves them). */
  oversold(moves: readonly UnitMove[]): UnitMove[] {
    return this.stocked(moves)
      .filter(({ move, quantity }) => quantity + move.units < 0)
      .map(({ move }) => move);
  }

  /** Applies moves to the nights' units as unitMoveItems does: netted per night, nights without inventory left alone, never below zero. */
  moveUnits(moves: readonly UnitMove[], at: string): void {
    for (const { move, quantity } of this.stocked(moves)) {
      const key = monthKey(move.propertyId, monthOf(move.date));
      const month = this.months.get(key)!;
      const day = month.days[dayOfMonth(move.date)]!;
      const inventory = { ...day.inventory!, quantity: Math.max(0, quantity + move.units) };
      this.months.set(key, { ...month, days: { ...month.days, [dayOfMonth(move.date)]: { ...day, inventory, updatedAt: at } } });
    }
  }

  async distributedListingIds(channelId: string): Promise<string[]> {
    return this.feedOf(channelId)
      .map((e) => e.listingId)
      .sort(byString);
  }

  async feedPage(channelId: string, query: FeedPageQuery): Promise<FeedEntry[]> {
    const position = query.after && feedKey(query.after);
    const from =
      position !== undefined && (query.since === undefined || position >= query.since)
        ? (k: string) => k > position
        : (k: string) => query.since === undefined || k >= query.since;
    return this.feedOf(channelId)
      .filter((e) => from(feedKey(e)))
      .sort((a, b) => byString(feedKey(a), feedKey(b)))
      .slice(0, query.limit);
  }

  async feedEntries(channelId: string, listingIds: readonly string[]): Promise<FeedEntry[]> {
    const wanted = new Set(listingIds);
    return this.feedOf(channelId).filter((e) => wanted.has(e.listingId));
  }

  async listingViews(listingIds: readonly string[]): Promise<ListingView[]> {
    return listingIds.flatMap((id) => {
      const listing = this.listings.get(id);
      if (!listing) return [];
      const properties = [...this.properties.values()].filter((p) => p.listingId === id).sort((x, y) => x.id.localeCompare(y.id));
      return [{ listing, properties }];
    });
  }

  async listingsOfProperties(propertyIds: readonly string[]): Promise<Map<string, string>> {
    return new Map(propertyIds.flatMap((id) => (this.properties.has(id) ? [[id, this.properties.get(id)!.listingId] as const] : [])));
  }

  propertyMonths(propertyIds: readonly string[], fromMonth: string, toMonth: string): Promise<PropertyMonth[]> {
    const months = eachMonth(fromMonth, toMonth);
    return this.getMonths(propertyIds.flatMap((propertyId) => months.map((month) => ({ propertyId, month }))));
  }

  /** One group per property: a caller's group-by-group path is taken whenever more than one property is read. */
  propertyMonthGroups(propertyIds: readonly string[], fromMonth: string, toMonth: string): MonthGroup[] {
    return propertyIds.map((id) => ({ propertyIds: [id], months: this.propertyMonths([id], fromMonth, toMonth) }));
  }

  async channel(channelId: string): Promise<Stored<Channel> | undefined> {
    return this.channels.get(channelId);
  }

  async channelsOfListing(listingId: string): Promise<string[]> {
    return [...this.distributions.values()]
      .filter((d) => d.listingId === listingId)
      .map((d) => d.channelId)
      .sort(byString);
  }

  private stocked(moves: readonly UnitMove[]): { move: UnitMove; quantity: number }[] {
    return netMoves(moves).flatMap((move) => {
      const inventory = this.months.get(monthKey(move.propertyId, monthOf(move.date)))?.days[dayOfMonth(move.date)]?.inventory;
      return inventory ? [{ move, quantity: inventory.quantity }] : [];
    });
  }

  private feedOf(channelId: string): FeedEntry[] {
    return [...this.distributions.values()].filter((d) => d.channelId === channelId).map((d) => ({ listingId: d.listingId, updatedAt: d.feedUpdatedAt }));
  }
}

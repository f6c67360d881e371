import { dayOfMonth, eachMonth, monthOf } from '../../../domain/catalogue/calendar.ts';
import type { StoredCatalogue } from '../../../domain/catalogue/catalogue-diff.ts';
import type { Channel, StoredDistribution } from '../../../domain/catalogue/channel.ts';
import type { PropertyMonth } from '../../../domain/catalogue/day.ts';
import type { Listing } from '../../../domain/catalogue/listing.ts';
import type { Property } from '../../../domain/catalogue/property.ts';
import { DEFAULT_SIMULATOR, type SimulatorBehaviour } from '../../../domain/catalogue/simulator.ts';
import type { Stored } from '../../../domain/catalogue/versioned.ts';
import type { UnitMove } from '../../../domain/ports/amendment-store.ts';
import type { CatalogueReader, FeedEntry, FeedPageQuery, ListingView, MonthGroup } from '../../../domain/ports/catalogue-reader.ts';
import { netMoves } from '../../../infra/dynamo/unit-moves.ts';

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const monthKey = (propertyId: string, month: string): string => `${propertyId}|${month}`;
/** The feed's sort key, as GSI1SK spells it: a bare `since` instant sorts before every `<since>#<id>`. */
const feedKey = (e: FeedEntry): string => `${e.updatedAt}#${e.listingId}`;

/**
 * The catalogue in memory, for rule tests in the unit tier: the read side (CatalogueReader,
 * whose contract test/support/contracts/catalogue-reader-contract.ts runs against it and
 * DynamoCatalogueReader), written as a catalogue store's `save` writes it, plus the daily
 * inventory's units that bookings and amendments move (oversold and moveUnits, as
 * unit-moves.ts moves them on DynamoDB) and the simulator behaviours the in-memory property system reads.
 */
export class InMemoryCatalogue implements CatalogueReader {
  private readonly channels = new Map<string, Stored<Channel>>();
  private readonly listings = new Map<string, Stored<Listing>>();
  private readonly properties = new Map<string, Stored<Property>>();
  private readonly distributions = new Map<string, Stored<StoredDistribution>>();
  private readonly simulators = new Map<string, Stored<SimulatorBehaviour>>();
  private readonly months = new Map<string, PropertyMonth>();

  /** Every record given, each replacing what was stored under its key (a month as a whole), as CatalogueStore.save. */
  async save(writes: Partial<StoredCatalogue>): Promise<void> {
    for (const c of writes.channels ?? []) this.channels.set(c.channelId, c);
    for (const l of writes.listings ?? []) this.listings.set(l.id, l);
    for (const p of writes.properties ?? []) this.properties.set(p.id, p);
    for (const d of writes.distributions ?? []) this.distributions.set(`${d.channelId}|${d.listingId}`, d);
    for (const s of writes.simulators ?? []) this.simulators.set(s.listingId, s);
    for (const m of writes.months ?? []) this.months.set(monthKey(m.propertyId, m.month), m);
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

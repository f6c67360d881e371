import type { CancellationPlan } from './cancellation.ts';
import type { Meal, ValueAddedService } from './add-ons.ts';
import type { Channel, Distribution, StoredDistribution } from './channel.ts';
import { dayOfMonth, monthOf } from './calendar.ts';
import { inventoryContent, ratesContent, type DayData, type PropertyMonth, type StoredDay } from './day.ts';
import type { GstRegistration, GstSlabTable } from './gst.ts';
import type { Listing } from './listing.ts';
import type { BankOffer } from './offers.ts';
import type { Property } from './property.ts';
import type { SimulatorBehaviour } from './simulator.ts';
import { reconcile, type Stored } from './versioned.ts';

/** Catalogue content as a source describes it (a world file, later a catalogue sync). */
export interface CatalogueContent {
  readonly channels: readonly Channel[];
  readonly cancellationPlans: readonly CancellationPlan[];
  readonly gstRegistrations: readonly GstRegistration[];
  readonly gstSlabTables: readonly GstSlabTable[];
  readonly listings: readonly Listing[];
  readonly properties: readonly Property[];
  readonly meals: readonly Meal[];
  readonly vas: readonly ValueAddedService[];
  readonly simulators: readonly SimulatorBehaviour[];
  readonly distributions: readonly Distribution[];
  readonly offers: readonly BankOffer[];
  /** propertyId → date → that day's full content; replaces what is stored for those dates only. */
  readonly days: ReadonlyMap<string, ReadonlyMap<string, DayData>>;
}

/** Catalogue records as stored, with their timestamps. */
export interface StoredCatalogue {
  readonly channels: Stored<Channel>[];
  readonly cancellationPlans: Stored<CancellationPlan>[];
  readonly gstRegistrations: Stored<GstRegistration>[];
  readonly gstSlabTables: Stored<GstSlabTable>[];
  readonly listings: Stored<Listing>[];
  readonly properties: Stored<Property>[];
  readonly meals: Stored<Meal>[];
  readonly vas: Stored<ValueAddedService>[];
  readonly simulators: Stored<SimulatorBehaviour>[];
  readonly distributions: Stored<StoredDistribution>[];
  readonly offers: Stored<BankOffer>[];
  readonly months: PropertyMonth[];
}

export const CATALOGUE_KINDS = [
  'channel',
  'cancellationPlan',
  'gstRegistration',
  'gstSlabTable',
  'listing',
  'property',
  'meal',
  'vas',
  'simulator',
  'distribution',
  'offer',
  'propertyMonth',
] as const;
export type CatalogueKind = (typeof CATALOGUE_KINDS)[number];

/** Which stored records a piece of content touches: what a store must load before a diff. */
export interface CatalogueRefs {
  readonly channels: readonly string[];
  readonly cancellationPlans: readonly string[];
  readonly gstRegistrations: readonly string[];
  readonly gstSlabTables: readonly string[];
  readonly listings: readonly string[];
  readonly properties: readonly { readonly listingId: string; readonly propertyId: string }[];
  readonly meals: readonly { readonly listingId: string; readonly mealId: string }[];
  readonly vas: readonly { readonly listingId: string; readonly vasId: string }[];
  readonly simulators: readonly string[];
  readonly distributions: readonly Distribution[];
  readonly offers: readonly { readonly channelId: string; readonly code: string }[];
  readonly months: readonly { readonly propertyId: string; readonly month: string }[];
}

export interface DateChanges {
  readonly propertyId: string;
  /** Sorted yyyy-mm-dd. */
  readonly dates: string[];
}

export interface KindCount {
  written: number;
  unchanged: number;
}

export interface CatalogueDiff {
  /** Complete records whose content differs from what is stored (new ones included). */
  readonly writes: StoredCatalogue;
  readonly counts: Record<CatalogueKind, KindCount>;
  /** Identities (as `identityOf` spells them) of created or updated records, per kind. */
  readonly changed: Record<CatalogueKind, string[]>;
  /** Dates whose inventory changed, per property (inventory.changed). */
  readonly inventory: DateChanges[];
  /** Dates whose rates changed, per property (rate.changed). */
  readonly rates: DateChanges[];
}

/** How each kind names one record: the part of its storage key that is not constant. */
export const identityOf = {
  channel: (c: Pick<Channel, 'channelId'>) => c.channelId,
  cancellationPlan: (p: Pick<CancellationPlan, 'planId'>) => p.planId,
  gstRegistration: (r: Pick<GstRegistration, 'state'>) => r.state,
  gstSlabTable: (t: Pick<GstSlabTable, 'effectiveFrom'>) => t.effectiveFrom,
  listing: (l: Pick<Listing, 'id'>) => l.id,
  property: (p: Pick<Property, 'id'>) => p.id,
  meal: (m: Pick<Meal, 'listingId' | 'mealId'>) => `${m.listingId}/${m.mealId}`,
  vas: (s: Pick<ValueAddedService, 'listingId' | 'vasId'>) => `${s.listingId}/${s.vasId}`,
  simulator: (s: Pick<SimulatorBehaviour, 'listingId'>) => s.listingId,
  distribution: (d: Distribution) => `${d.channelId}/${d.listingId}`,
  offer: (o: Pick<BankOffer, 'channelId' | 'code'>) => `${o.channelId}/${o.code}`,
  propertyMonth: (m: Pick<PropertyMonth, 'propertyId' | 'month'>) => `${m.propertyId}/${m.month}`,
} as const;

/** The stored records a diff of this content needs to see. */
export function refsOf(content: CatalogueContent): CatalogueRefs {
  const months: { propertyId: string; month: string }[] = [];
  for (const [propertyId, perMonth] of byMonth(content.days)) for (const month of perMonth.keys()) months.push({ propertyId, month });
  return {
    channels: content.channels.map(identityOf.channel),
    cancellationPlans: content.cancellationPlans.map(identityOf.cancellationPlan),
    gstRegistrations: content.gstRegistrations.map(identityOf.gstRegistration),
    gstSlabTables: content.gstSlabTables.map(identityOf.gstSlabTable),
    listings: content.listings.map(identityOf.listing),
    properties: content.properties.map((p) => ({ listingId: p.listingId, propertyId: p.id })),
    meals: content.meals.map((m) => ({ listingId: m.listingId, mealId: m.mealId })),
    vas: content.vas.map((s) => ({ listingId: s.listingId, vasId: s.vasId })),
    simulators: content.simulators.map(identityOf.simulator),
    distributions: content.distributions.map((d) => ({ channelId: d.channelId, listingId: d.listingId })),
    offers: content.offers.map((o) => ({ channelId: o.channelId, code: o.code })),
    months,
  };
}

/** References to nothing: spread it and name only what a load needs. */
export const NO_REFS: CatalogueRefs = {
  channels: [],
  cancellationPlans: [],
  gstRegistrations: [],
  gstSlabTables: [],
  listings: [],
  properties: [],
  meals: [],
  vas: [],
  simulators: [],
  distributions: [],
  offers: [],
  months: [],
};

export const emptyStoredCatalogue = (): StoredCatalogue => ({
  channels: [],
  cancellationPlans: [],
  gstRegistrations: [],
  gstSlabTables: [],
  listings: [],
  properties: [],
  meals: [],
  vas: [],
  simulators: [],
  distributions: [],
  offers: [],
  months: [],
});

/**
 * Compares content with what is stored and returns only what must be written, with
 * createdAt kept and updatedAt = now on real changes, so applying the same content twice
 * writes nothing the second time. Records the content does not mention are left alone.
 */
/**
 * `replace` (world import): a day the content names takes exactly the content's inventory
 * and rates. `merge` (catalogue sync): a day keeps whatever the content does not name —
 * its inventory when only rates are given, and every meal plan and adult count not given.
 */
export type DayMode = 'replace' | 'merge';

export function diffCatalogue(stored: StoredCatalogue, content: CatalogueContent, now: string, dayMode: DayMode = 'replace'): CatalogueDiff {
  const writes = emptyStoredCatalogue();
  const counts = Object.fromEntries(CATALOGUE_KINDS.map((k) => [k, { written: 0, unchanged: 0 }])) as Record<CatalogueKind, KindCount>;
  const changed = Object.fromEntries(CATALOGUE_KINDS.map((k) => [k, [] as string[]])) as Record<CatalogueKind, string[]>;

  function each<T extends object>(
    kind: Exclude<CatalogueKind, 'propertyMonth'>,
    have: readonly Stored<T>[],
    want: readonly T[],
    out: Stored<T>[],
  ): Map<string, Stored<T>> {
    const id = identityOf[kind] as (t: T) => string;
    const byId = new Map(have.map((h) => [id(h), h]));
    const result = new Map<string, Stored<T>>();
    for (const next of want) {
      const { record, change } = reconcile(byId.get(id(next)), next, now);
      result.set(id(next), record);
      if (change === 'unchanged') {
        counts[kind].unchanged++;
      } else {
        counts[kind].written++;
        changed[kind].push(id(next));
        out.push(record);
      }
    }
    return result;
  }

  each('channel', stored.channels, content.channels, writes.channels);
  each('cancellationPlan', stored.cancellationPlans, content.cancellationPlans, writes.cancellationPlans);
  each('gstRegistration', stored.gstRegistrations, content.gstRegistrations, writes.gstRegistrations);
  each('gstSlabTable', stored.gstSlabTables, content.gstSlabTables, writes.gstSlabTables);
  const listings = each('listing', stored.listings, content.listings, writes.listings);
  const properties = each('property', stored.properties, content.properties, writes.properties);
  each('meal', stored.meals, content.meals, writes.meals);
  each('vas', stored.vas, content.vas, writes.vas);
  each('simulator', stored.simulators, content.simulators, writes.simulators);
  each('offer', stored.offers, content.offers, writes.offers);

  const feedStamp = new Map<string, string>();
  const later = (listingId: string, at: string) => {
    const seen = feedStamp.get(listingId);
    if (!seen || at > seen) feedStamp.set(listingId, at);
  };
  for (const l of listings.values()) later(l.id, l.updatedAt);
  for (const p of properties.values()) later(p.listingId, p.updatedAt);
  const storedFeed = new Map(stored.distributions.map((d) => [identityOf.distribution(d), d.feedUpdatedAt]));
  const distributions = content.distributions.map((d) => ({
    channelId: d.channelId,
    listingId: d.listingId,
    feedUpdatedAt: feedStamp.get(d.listingId) ?? storedFeed.get(identityOf.distribution(d)) ?? now,
  }));
  each('distribution', stored.distributions, distributions, writes.distributions);

  const { inventory, rates } = diffDays(stored, content.days, now, dayMode, (month, wasWritten) => {
    counts.propertyMonth[wasWritten ? 'written' : 'unchanged']++;
    if (wasWritten) {
      changed.propertyMonth.push(identityOf.propertyMonth(month));
      writes.months.push(month);
    }
  });
  return { writes, counts, changed, inventory, rates };
}

/**
 * Merges incoming days into the stored months: each incoming date replaces that date,
 * other dates of the month stay as stored. Reports every resulting month and whether it
 * must be written, and which dates changed in inventory and in rates.
 */
export function diffDays(
  stored: Pick<StoredCatalogue, 'months'>,
  incoming: ReadonlyMap<string, ReadonlyMap<string, DayData>>,
  now: string,
  dayMode: DayMode,
  onMonth: (month: PropertyMonth, mustWrite: boolean) => void,
): { inventory: DateChanges[]; rates: DateChanges[] } {
  const byKey = new Map(stored.months.map((m) => [identityOf.propertyMonth(m), m]));
  const inventory: DateChanges[] = [];
  const rates: DateChanges[] = [];
  for (const [propertyId, perMonth] of byMonth(incoming)) {
    const invDates: string[] = [];
    const rateDates: string[] = [];
    for (const [month, entries] of perMonth) {
      const before = byKey.get(identityOf.propertyMonth({ propertyId, month }));
      const merged: Record<string, StoredDay> = { ...before?.days };
      let dirty = false;
      for (const [date, given] of entries) {
        const dd = dayOfMonth(date);
        const was = before?.days[dd];
        const next = dayMode === 'merge' && was ? mergeDay(was, given) : given;
        const inventoryChanged = !was || inventoryContent(was.inventory) !== inventoryContent(next.inventory);
        const ratesChanged = !was || ratesContent(was.rates) !== ratesContent(next.rates);
        if (!inventoryChanged && !ratesChanged) continue;
        dirty = true;
        merged[dd] = { inventory: next.inventory, rates: next.rates, createdAt: was?.createdAt ?? now, updatedAt: now };
        // A new day with no inventory (rates only) did not change availability, and likewise for rates.
        if (inventoryChanged && (was || next.inventory)) invDates.push(date);
        if (ratesChanged && (was || ratesContent(next.rates))) rateDates.push(date);
      }
      onMonth(dirty ? { propertyId, month, days: merged } : before!, dirty);
    }
    if (invDates.length) inventory.push({ propertyId, dates: invDates });
    if (rateDates.length) rates.push({ propertyId, dates: rateDates });
  }
  return { inventory, rates };
}

function mergeDay(was: DayData, given: DayData): DayData {
  const rates: Record<string, Readonly<Record<string, number>>> = { ...was.rates };
  for (const [plan, byAdults] of Object.entries(given.rates)) rates[plan] = { ...was.rates[plan as keyof DayData['rates']], ...byAdults };
  return { inventory: given.inventory ?? was.inventory, rates };
}

/** Incoming days per property per month, dates ascending. */
function byMonth(days: ReadonlyMap<string, ReadonlyMap<string, DayData>>): Map<string, Map<string, [string, DayData][]>> {
  const out = new Map<string, Map<string, [string, DayData][]>>();
  for (const [propertyId, perDate] of days) {
    const perMonth = new Map<string, [string, DayData][]>();
    for (const date of [...perDate.keys()].sort()) {
      const month = monthOf(date);
      let list = perMonth.get(month);
      if (!list) perMonth.set(month, (list = []));
      list.push([date, perDate.get(date)!]);
    }
    out.set(propertyId, perMonth);
  }
  return out;
}

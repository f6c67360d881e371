import { addDays, dayOfMonth, monthOf } from '../../domain/catalogue/calendar.ts';
import type { CancellationPlan } from '../../domain/catalogue/cancellation.ts';
import type { Channel } from '../../domain/catalogue/channel.ts';
import type { DayData, DayInventory, PropertyMonth, StoredDay } from '../../domain/catalogue/day.ts';
import type { Listing } from '../../domain/catalogue/listing.ts';
import type { BankOffer } from '../../domain/catalogue/offers.ts';
import type { Property } from '../../domain/catalogue/property.ts';
import type { Stored } from '../../domain/catalogue/versioned.ts';
import type { ListingView } from '../../domain/ports/catalogue-reader.ts';
import { buildProjection, daysOfMonth, shardName, viewOfEntry } from '../../domain/search/projection.ts';
import type { SearchCatalogue } from '../../domain/search/search-catalogue.ts';

/** An in-memory catalogue for pure search tests: listings built in a line, days open unless told otherwise. */
export const TODAY = '2027-01-10';
const STAMP = { createdAt: '2027-01-01T00:00:00.000Z', updatedAt: '2027-01-01T00:00:00.000Z' };
export const rupees = (r: number) => r * 100;

export const PLANS: CancellationPlan[] = [
  {
    planId: 'flexible',
    name: 'Flexible',
    planType: 'FLEXIBLE',
    discountPercent: 0,
    schedule: [{ daysBeforeCheckIn: 7, refundPercentage: 100, label: 'Full refund' }],
  },
  { planId: 'nonref', name: 'Non-refundable', planType: 'NON_REFUNDABLE', discountPercent: 10, schedule: [] },
];

export function property(listingId: string, over: Partial<Property> & Pick<Property, 'id'>): Property {
  return {
    listingId,
    name: over.id,
    title: `Unit ${over.id}`,
    brand: 'Test Stays',
    type: 'SUITE',
    bedrooms: 1,
    bathrooms: 1,
    numberOfBeds: 1,
    maxAdults: 3,
    maxChildren: 1,
    applicableAdult: 2,
    applicableChild: 1,
    extraAdultRate: rupees(1_000),
    extraChildRate: rupees(500),
    quantity: 2,
    isPetFriendly: false,
    numberOfPets: 0,
    isStressed: false,
    isHighDemand: false,
    imageUrl: 'https://images.example.com/u.jpg',
    photos: [],
    amenities: [{ icon: 'wifi', name: 'Wi-Fi', category: 'Basics' }],
    location: 'Anjuna',
    latitude: 15.58,
    longitude: 73.74,
    basePrice: rupees(5_000),
    ...over,
  };
}

export function listing(id: string, over: Partial<Listing> = {}, properties?: Partial<Property>[]): ListingView {
  const l: Listing = {
    id,
    title: `Villa ${id}`,
    type: 'VILLA',
    status: 'ACTIVE',
    brand: 'Test Stays',
    locality: 'Mazal Waddo',
    city: 'Anjuna',
    state: 'Goa',
    country: 'India',
    addressLine: '1 Beach Road',
    latitude: 15.58,
    longitude: 73.74,
    maxAdults: 6,
    maxChildren: 2,
    basePrice: rupees(5_000),
    amenities: ['Pool'],
    tags: ['beach'],
    coverPicture: 'https://images.example.com/c.jpg',
    rating: 4.5,
    reviewCount: 20,
    usps: [{ id: 1, name: 'Caretaker', description: 'On site', isDifferentiator: false }],
    badges: [],
    cancellationPlanIds: ['flexible', 'nonref'],
    defaultCancellationPlanId: 'flexible',
    ...over,
  };
  const props = (properties ?? [{}]).map((p, i) => property(id, { id: `${id}-p${i + 1}`, ...p }));
  return { listing: { ...l, ...STAMP }, properties: props.map((p) => ({ ...p, ...STAMP })) };
}

export interface WorldSpec {
  views: ListingView[];
  /** Nightly EP rate per property for 1…applicableAdult adults (+₹500 an adult); default ₹4,000. */
  rate?: (propertyId: string) => number;
  /** Overrides of one property-night's inventory. */
  inventory?: Record<string, Partial<DayInventory>>;
  offers?: BankOffer[];
  channel?: Channel;
  /** Listing ids distributed to the channel; default every view. */
  distributed?: string[];
}

/** The world spec's months: 60 days open from TODAY unless the world spec says otherwise. */
export function specMonths(spec: WorldSpec): PropertyMonth[] {
  const months = new Map<string, PropertyMonth>();
  for (const v of spec.views) {
    for (const p of v.properties) {
      for (let i = 0; i < 60; i++) {
        const date = addDays(TODAY, i);
        const key = `${p.id}|${monthOf(date)}`;
        const month = months.get(key) ?? { propertyId: p.id, month: monthOf(date), days: {} };
        const ep = spec.rate?.(p.id) ?? 4_000;
        const inv: DayInventory = { quantity: p.quantity, minimumStay: 1, maximumStay: 30, stopSell: false, ...spec.inventory?.[`${p.id}|${date}`] };
        const rates = { EP: Object.fromEntries(Array.from({ length: p.applicableAdult }, (_, k) => [String(k + 1), rupees(ep + 500 * k)])) };
        (month.days as Record<string, StoredDay>)[dayOfMonth(date)] = { inventory: inv, rates, ...STAMP };
        months.set(key, month);
      }
    }
  }
  return [...months.values()];
}

/** The days of these properties on these dates, as month records holding only those days. */
export function stayDaysOf(months: readonly PropertyMonth[], ids: readonly string[], dates: readonly string[]): PropertyMonth[] {
  return months
    .filter((m) => ids.includes(m.propertyId))
    .map((m) => ({ ...m, days: Object.fromEntries(Object.entries(m.days).filter(([dd]) => dates.includes(`${m.month}-${dd}`))) }));
}

/**
 * A SearchCatalogue over the world spec's search projection, built in memory by the same pure
 * code a rebuild uses (domain/search/projection.ts), counting every read.
 */
export function memoryCatalogue(
  spec: WorldSpec,
  months: readonly PropertyMonth[] = specMonths(spec),
): SearchCatalogue & { reads: Record<string, number>; shardsAsked: string[] } {
  const reads: Record<string, number> = {};
  const shardsAsked: string[] = [];
  const count = (name: string) => (reads[name] = (reads[name] ?? 0) + 1);
  const distributed = new Set(spec.distributed ?? spec.views.map((v) => v.listing.id));
  const views = spec.views.filter((v) => distributed.has(v.listing.id));
  const built = buildProjection(views, months, (spec.offers ?? []) as Stored<BankOffer>[]);
  const byId = new Map(spec.views.map((v) => [v.listing.id, v]));
  return {
    reads,
    shardsAsked,
    async head(channelId, pinned) {
      count('head');
      const at = new Map(pinned.flatMap((id) => (built.locators.has(id) ? [[id, built.locators.get(id)!] as const] : [])));
      return { head: built.head, channel: spec.channel ?? { channelId, name: channelId, rateAdjustmentPercent: 0 }, pinned: at };
    },
    async shards(_channelId, shards, nights, planIds) {
      count('shards');
      const entries: ListingView[] = [];
      const days = new Map<string, Map<string, DayData>>();
      // As DynamoDB's adapter, cards come with the shards of a small search only (here: one shard), so both paths are taken.
      const cards = shards.length === 1 ? new Map<string, string>() : undefined;
      const wanted = new Set(nights);
      for (const shard of shards) {
        const content = built.shards.get(shardName(shard));
        shardsAsked.push(shardName(shard));
        if (!content) continue;
        for (const e of content.entries.values()) entries.push(viewOfEntry(e));
        for (const [id, card] of content.cards) cards?.set(id, card);
        for (const month of new Set(nights.map(monthOf))) {
          for (const [pid, s] of content.months.get(month) ?? []) days.set(pid, daysOfMonth(month, s.units, s.rest, wanted, days.get(pid)));
        }
      }
      return { entries, days, plans: PLANS.filter((p) => planIds.includes(p.planId)), ...(cards ? { cards } : {}) };
    },
    async listingViews(ids) {
      count('listingViews');
      return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    },
  };
}

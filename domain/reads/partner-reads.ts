import { eachDate, monthOf, dayOfMonth } from '../catalogue/calendar.ts';
import { channelRate } from '../catalogue/channel.ts';
import {
  MEAL_PLANS,
  ratePlansView,
  type DayInventory,
  type MealPlan,
  type PlanRestrictionsView,
  type PropertyMonth,
  type StoredDay,
} from '../catalogue/day.ts';
import type { Listing } from '../catalogue/listing.ts';
import type { Property } from '../catalogue/property.ts';
import type { Stored } from '../catalogue/versioned.ts';
import { ValidationError } from '../errors.ts';
import { toRupees } from '../money.ts';
import type { CatalogueReader, ListingView } from '../ports/catalogue-reader.ts';
import type { Clock } from '../ports/clock.ts';
import type { PartnerPrincipal } from '../principal.ts';
import { indiaToday, resolveWindow } from './date-window.ts';
import { RowSlices } from './row-slices.ts';

export interface PartnerReadDeps {
  readonly reader: CatalogueReader;
  readonly clock: Clock;
}

/** Page size limits of `/api/listings` (the contract leaves the maximum to us). */
export const LISTINGS_PAGE = { defaultSize: 20, maxSize: 100 } as const;
/** At most this many ids per id filter (listingIds, propertyIds). */
export const MAX_IDS = 100;
/**
 * Without an id filter a bulk read covers the channel's whole catalogue; past this many
 * listings the caller must name what it wants, or one call could read the whole table.
 */
export const MAX_UNFILTERED_LISTINGS = 100;
/** A bulk read returns at most this many rows; beyond it the caller narrows the window or ids. */
export const MAX_ROWS = 400_000;

export interface PropertyDetails {
  id: string;
  title: string;
  bedrooms: number;
  bathrooms: number;
  numberOfPets: number;
  isPetFriendly: boolean;
  isStressed: boolean;
  isHighDemand: boolean;
  brand: string;
  quantity: number;
  price: number;
  city: string;
  state: string;
  country: string;
  location: string;
  latitude: number;
  longitude: number;
  name: string;
  applicableAdult: number;
  applicableChild: number;
  extraAdultRate: number;
  extraChildRate: number;
  maxAdults: number;
  numberOfBeds: number;
  maxChildren: number;
  imageUrl: string;
  photos: string;
  amenities: string;
}

export interface ListingWithProperties {
  id: string;
  title: string;
  maxAdults: number;
  maxChildren: number;
  latitude: number;
  longitude: number;
  locality: string;
  city: string;
  state: string;
  status: string;
  country: string;
  addressLine: string;
  price: number;
  amenities: string[];
  tags: string[];
  createdAt: string;
  updatedAt: string;
  properties: PropertyDetails[];
}

export interface ListingsPage {
  data: ListingWithProperties[];
  total: number;
  page: number;
  size: number;
}

/**
 * PropertyDetails carries photos and amenities as strings: photo URLs and amenity names,
 * each joined with ", " (docs/decisions.md).
 */
function propertyDetails(p: Stored<Property>, l: Listing, adjust: number): PropertyDetails {
  return {
    id: p.id,
    title: p.title,
    bedrooms: p.bedrooms,
    bathrooms: p.bathrooms,
    numberOfPets: p.numberOfPets,
    isPetFriendly: p.isPetFriendly,
    isStressed: p.isStressed,
    isHighDemand: p.isHighDemand,
    brand: p.brand,
    quantity: p.quantity,
    price: toRupees(channelRate(p.basePrice, adjust)),
    city: l.city,
    state: l.state,
    country: l.country,
    location: p.location,
    latitude: p.latitude,
    longitude: p.longitude,
    name: p.name,
    applicableAdult: p.applicableAdult,
    applicableChild: p.applicableChild,
    extraAdultRate: toRupees(channelRate(p.extraAdultRate, adjust)),
    extraChildRate: toRupees(channelRate(p.extraChildRate, adjust)),
    maxAdults: p.maxAdults,
    numberOfBeds: p.numberOfBeds,
    maxChildren: p.maxChildren,
    imageUrl: p.imageUrl,
    photos: p.photos.map((ph) => ph.url).join(', '),
    amenities: p.amenities.map((a) => a.name).join(', '),
  };
}

/** The read model's updatedAt: a listing row changes when the listing or any of its properties does. */
const latest = (view: ListingView): string => [view.listing.updatedAt, ...view.properties.map((p) => p.updatedAt)].reduce((a, b) => (a > b ? a : b));

export function listingWithProperties(view: ListingView, adjust: number): ListingWithProperties {
  const l = view.listing;
  return {
    id: l.id,
    title: l.title,
    maxAdults: l.maxAdults,
    maxChildren: l.maxChildren,
    latitude: l.latitude,
    longitude: l.longitude,
    locality: l.locality,
    city: l.city,
    state: l.state,
    status: l.status,
    country: l.country,
    addressLine: l.addressLine,
    price: toRupees(channelRate(l.basePrice, adjust)),
    amenities: [...l.amenities],
    tags: [...l.tags],
    createdAt: l.createdAt,
    updatedAt: latest(view),
    properties: [...view.properties].sort((a, b) => a.id.localeCompare(b.id)).map((p) => propertyDetails(p, l, adjust)),
  };
}

async function rateAdjustment(deps: PartnerReadDeps, channelId: string): Promise<number> {
  return (await deps.reader.channel(channelId))?.rateAdjustmentPercent ?? 0;
}

/** `/api/listings`: offset paging over the partner channel's listings, ordered by id. */
export async function listPartnerListings(deps: PartnerReadDeps, partner: PartnerPrincipal, page: number, size: number): Promise<ListingsPage> {
  const [ids, adjust] = await Promise.all([deps.reader.distributedListingIds(partner.channelId), rateAdjustment(deps, partner.channelId)]);
  const slice = ids.slice((page - 1) * size, page * size);
  const views = slice.length ? await deps.reader.listingViews(slice) : [];
  return { data: views.map((v) => listingWithProperties(v, adjust)), total: ids.length, page, size };
}

export interface BulkQuery {
  readonly listingIds?: readonly string[];
  readonly propertyIds?: readonly string[];
  readonly from?: string;
  readonly to?: string;
}

interface Scope {
  readonly propertyIds: string[];
  readonly window: { from: string; to: string };
}

/**
 * The properties a bulk read covers, all on the partner's channel. Ids of other channels'
 * listings are simply absent, exactly like ids that do not exist. Filters combine with AND.
 */
async function resolveScope(deps: PartnerReadDeps, partner: PartnerPrincipal, q: BulkQuery): Promise<Scope> {
  const window = resolveWindow(q.from, q.to, indiaToday(deps.clock.now()));
  const visible = new Set(await deps.reader.distributedListingIds(partner.channelId));
  let listingIds: string[];
  if (q.listingIds) listingIds = q.listingIds.filter((id) => visible.has(id));
  else if (q.propertyIds) listingIds = [];
  else {
    if (visible.size > MAX_UNFILTERED_LISTINGS) {
      throw new ValidationError('listingIds', `Your catalogue has ${visible.size} listings; name at most ${MAX_IDS} listingIds or propertyIds per request.`);
    }
    listingIds = [...visible];
  }
  let propertyIds: string[];
  if (q.propertyIds) {
    const owners = await deps.reader.listingsOfProperties(q.propertyIds);
    const allowedListings = q.listingIds ? new Set(listingIds) : visible;
    propertyIds = q.propertyIds.filter((id) => {
      const owner = owners.get(id);
      return owner !== undefined && allowedListings.has(owner);
    });
  } else {
    const views = await deps.reader.listingViews(listingIds);
    propertyIds = views.flatMap((v) => v.properties.map((p) => p.id));
  }
  return { propertyIds: [...new Set(propertyIds)].sort(), window };
}

function* daysInWindow(
  months: readonly PropertyMonth[],
  window: { from: string; to: string },
): Generator<{ propertyId: string; date: string; day: StoredDay }> {
  const byProperty = new Map<string, Map<string, PropertyMonth>>();
  for (const m of months) (byProperty.get(m.propertyId) ?? byProperty.set(m.propertyId, new Map()).get(m.propertyId)!).set(m.month, m);
  // The window's dates once for every property: a year of 50 properties is 365 date steps, not 18,250.
  const dates = [...eachDate(window.from, window.to)].map((date) => ({ date, month: monthOf(date), dd: dayOfMonth(date) }));
  for (const propertyId of [...byProperty.keys()].sort()) {
    const monthsOf = byProperty.get(propertyId)!;
    for (const { date, month, dd } of dates) {
      const day = monthsOf.get(month)?.days[dd];
      if (day) yield { propertyId, date, day };
    }
  }
}

/** A day's adult counts of one meal plan, ascending (Object.keys already gives integer keys so; sorted only when not). */
function adultCounts(byAdults: Readonly<Record<string, number>>): number[] {
  const counts = Object.keys(byAdults).map(Number);
  for (let i = 1; i < counts.length; i++) if (counts[i - 1]! > counts[i]!) return counts.sort((a, b) => a - b);
  return counts;
}

function assertRowBudget(rows: number): void {
  if (rows > MAX_ROWS)
    throw new ValidationError('to', `to: the request would return at least ${rows} rows (more than ${MAX_ROWS}); narrow the window or the id filters.`);
}

export interface InventoryRow {
  id: string;
  date: string;
  quantity: number;
  propertyId: string;
  minimumStay: number;
  maximumStay: number;
  stopSell: boolean;
  createdAt: string;
  updatedAt: string;
  /** Meal plans with restrictions of their own on this date (a channel manager's per-rate-plan restrictions), each as sold; absent when all follow the row. */
  ratePlans?: Partial<Record<MealPlan, PlanRestrictionsView>>;
}

/** The additive `ratePlans` of a read's day: present only when a meal plan has restrictions of its own. */
export function withRatePlans(inventory: DayInventory): { ratePlans?: Partial<Record<MealPlan, PlanRestrictionsView>> } {
  const ratePlans = ratePlansView(inventory);
  return ratePlans ? { ratePlans } : {};
}

/** `/api/inventories`: one row per property and date that has inventory, ordered by property then date. */
export async function readInventories(deps: PartnerReadDeps, partner: PartnerPrincipal, q: BulkQuery): Promise<RowSlices<InventoryRow>> {
  const scope = await resolveScope(deps, partner, q);
  return rowsByGroup(deps, scope, async (months) => {
    const rows: InventoryRow[] = [];
    for (const { propertyId, date, day } of daysInWindow(months, scope.window)) {
      if (!day.inventory) continue;
      rows.push({
        id: `${propertyId}:${date}`,
        date,
        quantity: day.inventory.quantity,
        propertyId,
        minimumStay: day.inventory.minimumStay,
        maximumStay: day.inventory.maximumStay,
        stopSell: day.inventory.stopSell,
        createdAt: day.createdAt,
        updatedAt: day.updatedAt,
        ...withRatePlans(day.inventory),
      });
    }
    return rows;
  });
}

/**
 * The scope's rows a group of properties at a time (RowSlices, in the scope's property order):
 * each group's rows are made as soon as its months arrive, while later groups are still being
 * read. The rows made so far are held to MAX_ROWS after each group.
 */
function rowsByGroup<T>(deps: PartnerReadDeps, scope: Scope, rowsOf: (months: readonly PropertyMonth[]) => Promise<T[]>): RowSlices<T> {
  if (!scope.propertyIds.length) return new RowSlices([]);
  let made = 0;
  return new RowSlices(
    deps.reader.propertyMonthGroups(scope.propertyIds, monthOf(scope.window.from), monthOf(scope.window.to)).map(async (group) => {
      const rows = await rowsOf(await group.months);
      made += rows.length;
      assertRowBudget(made);
      return rows;
    }),
  );
}

export interface RateRow {
  propertyId: string;
  date: string;
  mealPlan: string;
  adults: number;
  rate: number;
}

/** `/api/rates`: channel rates in whole rupees, ordered by property, date, meal plan, adults. */
export async function readRates(deps: PartnerReadDeps, partner: PartnerPrincipal, q: BulkQuery): Promise<RowSlices<RateRow>> {
  const scope = await resolveScope(deps, partner, q);
  if (!scope.propertyIds.length) return new RowSlices([]);
  // A year of rates repeats a few base rates thousands of times: each is adjusted once.
  const soldRate = rateAdjustment(deps, partner.channelId).then((adjust) => {
    const sold = new Map<number, number>();
    return (base: number) => sold.get(base) ?? sold.set(base, toRupees(channelRate(base, adjust))).get(base)!;
  });
  // Read alongside the months; a failure reaches the caller through the first slice.
  soldRate.catch(() => undefined);
  return rowsByGroup(deps, scope, async (months) => {
    const sell = await soldRate;
    const rows: RateRow[] = [];
    for (const { propertyId, date, day } of daysInWindow(months, scope.window)) {
      for (const mealPlan of MEAL_PLANS) {
        const byAdults = day.rates[mealPlan];
        if (!byAdults) continue;
        for (const adults of adultCounts(byAdults)) rows.push({ propertyId, date, mealPlan, adults, rate: sell(byAdults[adults]!) });
      }
    }
    return rows;
  });
}

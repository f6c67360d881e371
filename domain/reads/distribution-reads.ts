import { dayOfMonth, eachDate, monthOf } from '../catalogue/calendar.ts';
import { channelRate } from '../catalogue/channel.ts';
import { ratePlansView, type DayInventory, type MealPlan, type PlanRestrictionsView, type PropertyMonth } from '../catalogue/day.ts';
import type { Listing } from '../catalogue/listing.ts';
import type { Photo, Property, PropertyAmenity } from '../catalogue/property.ts';
import type { Stored } from '../catalogue/versioned.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { toRupees } from '../money.ts';
import type { CatalogueReader, FeedEntry, ListingView } from '../ports/catalogue-reader.ts';
import type { Clock } from '../ports/clock.ts';
import type { CursorCodec, CursorScope } from '../ports/cursor-codec.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { canonicalInstant, indiaToday, resolveWindow, type DateWindow } from './date-window.ts';
import { decodeKeysetPair, encodeKeysetPair } from './keyset-position.ts';
import { MAX_IDS } from './partner-reads.ts';

export interface DistributionReadDeps {
  readonly reader: CatalogueReader;
  readonly clock: Clock;
  readonly cursors: CursorCodec;
}

/**
 * Page sizes of the `/v1/listings` feed. Without `size`, a listingIds request's page is the
 * whole requested set (the contract), any other request's is `defaultSize`.
 */
export const FEED_PAGE = { defaultSize: 20, maxSize: 100 } as const;
/** At most this many listingIds per `/v1/listings` or `/v1/availability` request. */
export const MAX_LISTING_IDS = MAX_IDS;

export interface DistributionProperty {
  id: string;
  name: string;
  brand: string;
  type: string;
  city: string;
  state: string;
  country: string;
  location: string;
  latitude: number;
  longitude: number;
  maxAdults: number;
  maxChildren: number;
  applicableAdult: number;
  applicableChild: number;
  numberOfBeds: number;
  quantity: number;
  price: number;
  isPetFriendly: boolean;
  photos: Photo[];
  amenities: PropertyAmenity[];
}

export interface DistributionListing {
  id: string;
  title: string;
  status: string;
  type: string;
  city: string;
  state: string;
  country: string;
  locality: string;
  latitude: number;
  longitude: number;
  maxAdults: number;
  maxChildren: number;
  price: number;
  createdAt: string;
  updatedAt: string;
  properties: DistributionProperty[];
}

export interface DistributionListingPage {
  data: DistributionListing[];
  nextCursor: string | null;
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function distributionProperty(p: Stored<Property>, l: Listing, adjust: number): DistributionProperty {
  return {
    id: p.id,
    name: p.name,
    brand: p.brand,
    type: p.type,
    city: l.city,
    state: l.state,
    country: l.country,
    location: p.location,
    latitude: p.latitude,
    longitude: p.longitude,
    maxAdults: p.maxAdults,
    maxChildren: p.maxChildren,
    applicableAdult: p.applicableAdult,
    applicableChild: p.applicableChild,
    numberOfBeds: p.numberOfBeds,
    quantity: p.quantity,
    price: toRupees(channelRate(p.basePrice, adjust)),
    isPetFriendly: p.isPetFriendly,
    photos: p.photos.map((ph) => ({ url: ph.url, name: ph.name })),
    amenities: p.amenities.map((a) => ({ icon: a.icon, name: a.name, category: a.category })),
  };
}

/**
 * The `/v1` Listing record. `updatedAt` is the listing's feed position, so a partner that
 * stores the latest updatedAt it has seen can pass it back as updatedSince.
 */
export function distributionListing(view: ListingView, entry: FeedEntry, adjust: number): DistributionListing {
  const l = view.listing;
  return {
    id: l.id,
    title: l.title,
    status: l.status,
    type: l.type,
    city: l.city,
    state: l.state,
    country: l.country,
    locality: l.locality,
    latitude: l.latitude,
    longitude: l.longitude,
    maxAdults: l.maxAdults,
    maxChildren: l.maxChildren,
    price: toRupees(channelRate(l.basePrice, adjust)),
    createdAt: l.createdAt,
    updatedAt: entry.updatedAt,
    properties: [...view.properties].sort((a, b) => byCodeUnits(a.id, b.id)).map((p) => distributionProperty(p, l, adjust)),
  };
}

async function rateAdjustment(reader: CatalogueReader, channelId: string): Promise<number> {
  return (await reader.channel(channelId))?.rateAdjustmentPercent ?? 0;
}

/** Feed order: (updatedAt, listingId) compared as plain strings, exactly as the index sorts `<updatedAt>#<listingId>`. */
const compareFeed = (a: FeedEntry, b: FeedEntry): number => byCodeUnits(a.updatedAt, b.updatedAt) || byCodeUnits(a.listingId, b.listingId);

/** A cursor's position is the last feed entry of the page it ended. */
const encodePosition = (e: FeedEntry): string => encodeKeysetPair([e.updatedAt, e.listingId]);

function decodePosition(position: string): FeedEntry {
  const [updatedAt, listingId] = decodeKeysetPair(position);
  return { updatedAt, listingId };
}

export interface FeedQuery {
  readonly listingIds?: readonly string[];
  readonly updatedSince?: string;
  readonly cursor?: string;
  readonly size?: number;
}

/**
 * The cursor is bound to the caller, the channel and the filters. Page size is left out on
 * purpose: the position is a keyset bound that means the same at any size, so a caller may
 * change size between pages.
 */
const feedScope = (group: AgentGroupPrincipal, since: string | undefined, ids: readonly string[] | undefined): CursorScope => ({
  callerId: group.agentGroupId,
  query: `v1/listings|${group.channelId}|${since ?? '-'}|${ids ? [...ids].sort(byCodeUnits).join(',') : '*'}`,
});

/**
 * `GET /v1/listings`: the channel's listings in feed order (updatedAt, then listingId), so
 * updatedSince plus the cursor is a keyset walk that costs O(page) whatever the catalogue
 * size. A listing changed during a walk moves behind the cursor and is served again later:
 * nothing is missed. With listingIds only those the channel distributes appear. nextCursor
 * comes whenever the page came back full, null otherwise.
 */
export async function listDistributionListings(deps: DistributionReadDeps, group: AgentGroupPrincipal, q: FeedQuery): Promise<DistributionListingPage> {
  const since = q.updatedSince === undefined ? undefined : canonicalInstant(q.updatedSince, 'updatedSince');
  const scope = feedScope(group, since, q.listingIds);
  const after = q.cursor === undefined ? undefined : decodePosition(deps.cursors.decode(scope, q.cursor));
  const size = q.size ?? (q.listingIds ? q.listingIds.length : FEED_PAGE.defaultSize);
  if (size > FEED_PAGE.maxSize) throw new ValidationError('size', `size must be at most ${FEED_PAGE.maxSize}.`);

  const pageOf = async (): Promise<FeedEntry[]> => {
    if (!q.listingIds) return deps.reader.feedPage(group.channelId, { since, after, limit: size });
    const entries = await deps.reader.feedEntries(group.channelId, q.listingIds);
    return entries
      .filter((e) => (since === undefined || e.updatedAt >= since) && (after === undefined || compareFeed(e, after) > 0))
      .sort(compareFeed)
      .slice(0, size);
  };
  const [entries, adjust] = await Promise.all([pageOf(), rateAdjustment(deps.reader, group.channelId)]);
  const views = entries.length ? await deps.reader.listingViews(entries.map((e) => e.listingId)) : [];
  const viewOf = new Map(views.map((v) => [v.listing.id, v]));
  const data = entries.flatMap((e) => {
    const view = viewOf.get(e.listingId);
    return view ? [distributionListing(view, e, adjust)] : [];
  });
  const last = entries.at(-1);
  return { data, nextCursor: last && entries.length === size ? deps.cursors.encode(scope, encodePosition(last)) : null };
}

/**
 * `GET /v1/listings/{listingId}`. The distribution row is read first and the listing only
 * when the channel sells it, so another channel's listing and an unknown id cost the same
 * read and give the same 404.
 */
export async function getDistributionListing(
  deps: Pick<DistributionReadDeps, 'reader'>,
  group: AgentGroupPrincipal,
  listingId: string,
): Promise<DistributionListing> {
  const [entries, adjust] = await Promise.all([deps.reader.feedEntries(group.channelId, [listingId]), rateAdjustment(deps.reader, group.channelId)]);
  const entry = entries.find((e) => e.listingId === listingId);
  if (!entry) throw new NotFoundError('Listing');
  const [view] = await deps.reader.listingViews([listingId]);
  if (!view) throw new NotFoundError('Listing');
  return distributionListing(view, entry, adjust);
}

export interface AvailabilityDay {
  date: string;
  unitsAvailable: number;
  stopSell: boolean;
  minimumStay: number;
  maximumStay: number;
  /** Meal plans with restrictions of their own on this date, each as sold with the units it can sell; absent when all follow the day. */
  ratePlans?: Partial<Record<MealPlan, PlanRestrictionsView & { unitsAvailable: number }>>;
}

export interface PropertyAvailability {
  propertyId: string;
  days: AvailabilityDay[];
}

export interface ListingAvailability {
  listingId: string;
  properties: PropertyAvailability[];
}

export interface Availability {
  from: string;
  to: string;
  data: ListingAvailability[];
}

export interface AvailabilityQuery {
  readonly listingIds: readonly string[];
  readonly from?: string;
  readonly to?: string;
}

/** Each meal plan with restrictions of its own, as sold, with what it can sell (0 when that plan is stop-sold). */
function planAvailability(inventory: DayInventory): Pick<AvailabilityDay, 'ratePlans'> {
  const view = ratePlansView(inventory);
  if (!view) return {};
  const ratePlans: NonNullable<AvailabilityDay['ratePlans']> = {};
  for (const [plan, sold] of Object.entries(view) as [MealPlan, PlanRestrictionsView][])
    ratePlans[plan] = { ...sold, unitsAvailable: sold.stopSell ? 0 : inventory.quantity };
  return { ratePlans };
}

function propertyDays(propertyId: string, window: DateWindow, months: ReadonlyMap<string, PropertyMonth>): AvailabilityDay[] {
  const days: AvailabilityDay[] = [];
  for (const date of eachDate(window.from, window.to)) {
    const inventory = months.get(`${propertyId}|${monthOf(date)}`)?.days[dayOfMonth(date)]?.inventory;
    if (!inventory) continue;
    days.push({
      date,
      // What can be sold: a stop-sold date offers nothing whatever units it holds; stopSell says why.
      unitsAvailable: inventory.stopSell ? 0 : inventory.quantity,
      stopSell: inventory.stopSell,
      minimumStay: inventory.minimumStay,
      maximumStay: inventory.maximumStay,
      ...planAvailability(inventory),
    });
  }
  return days;
}

/**
 * `GET /v1/availability`: per listing (by id), property (by id) and date, what the channel
 * can sell. Listings the channel does not distribute are absent, like unknown ids. Dates
 * with no inventory loaded are absent: they cannot be booked.
 */
export async function readAvailability(
  deps: Pick<DistributionReadDeps, 'reader' | 'clock'>,
  group: AgentGroupPrincipal,
  q: AvailabilityQuery,
): Promise<Availability> {
  const window = resolveWindow(q.from, q.to, indiaToday(deps.clock.now()));
  const entries = await deps.reader.feedEntries(group.channelId, q.listingIds);
  const listingIds = entries.map((e) => e.listingId).sort(byCodeUnits);
  const views = listingIds.length ? await deps.reader.listingViews(listingIds) : [];
  const propertyIdsOf = (v: ListingView): string[] => v.properties.map((p) => p.id).sort(byCodeUnits);
  const propertyIds = views.flatMap(propertyIdsOf);
  const months = propertyIds.length ? await deps.reader.propertyMonths(propertyIds, monthOf(window.from), monthOf(window.to)) : [];
  const byKey = new Map(months.map((m) => [`${m.propertyId}|${m.month}`, m]));
  return {
    from: window.from,
    to: window.to,
    data: views.map((v) => ({
      listingId: v.listing.id,
      properties: propertyIdsOf(v).map((propertyId) => ({ propertyId, days: propertyDays(propertyId, window, byKey) })),
    })),
  };
}

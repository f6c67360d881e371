import type { ListingView } from '../ports/catalogue-reader.ts';
import { searchPriceOf, type SearchPrice } from '../pricing/index.ts';
import { distanceMeters, GROUP_RADIUS_METERS } from './geo.ts';
import type { Party } from './listing-offer.ts';

/** Most listings one combined group may hold. */
export const MAX_GROUP_LISTINGS = 3;
/** Most combined groups one search answers. */
export const MAX_COMBINED_GROUPS = 10;
/** Anchors tried before giving up on finding more groups; bounds the work on dense catalogues. */
const MAX_ANCHORS = 200;

/** A listing that could join a group: what it can hold on every night of the stay. */
export interface GroupCandidate {
  readonly view: ListingView;
  readonly room: Party;
}

export interface GroupPlan {
  readonly members: readonly { readonly view: ListingView; readonly share: Party }[];
  readonly maxPairwiseMeters: number;
}

const idOf = (c: GroupCandidate) => c.view.listing.id;
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Groups of nearby listings that together hold the party, for when no single listing can.
 * Each anchor (largest open capacity first) gathers its nearest neighbours, keeping every
 * pair within GROUP_RADIUS_METERS, until the party fits or MAX_GROUP_LISTINGS is reached;
 * a group is kept once (by its members) and only when it needs every member. Plans come
 * back fewest listings first, then closest together, then by their listing ids.
 */
export function planGroups(pool: readonly GroupCandidate[], party: Party): GroupPlan[] {
  const usable = pool.filter((c) => c.room.adults > 0);
  const anchors = [...usable].sort((a, b) => b.room.adults - a.room.adults || b.room.children - a.room.children || compareText(idOf(a), idOf(b)));
  const plans = new Map<string, GroupPlan>();
  const listing = (c: GroupCandidate) => c.view.listing;

  for (const anchor of anchors.slice(0, MAX_ANCHORS)) {
    if (plans.size >= MAX_COMBINED_GROUPS * 3) break;
    const near = usable
      .filter((c) => c !== anchor)
      .map((c) => ({ c, d: distanceMeters(listing(anchor), listing(c)) }))
      .filter((x) => x.d <= GROUP_RADIUS_METERS)
      .sort((a, b) => a.d - b.d || compareText(idOf(a.c), idOf(b.c)));
    const members = [anchor];
    let room = anchor.room;
    for (const { c } of near) {
      if (room.adults >= party.adults && room.children >= party.children) break;
      if (members.length === MAX_GROUP_LISTINGS) break;
      if (!members.every((m) => distanceMeters(listing(m), listing(c)) <= GROUP_RADIUS_METERS)) continue;
      members.push(c);
      room = { adults: room.adults + c.room.adults, children: room.children + c.room.children };
    }
    if (members.length < 2 || room.adults < party.adults || room.children < party.children) continue;
    const key = members.map(idOf).sort().join('+');
    if (plans.has(key)) continue;
    const shares = splitParty(
      members.map((m) => m.room),
      party,
    );
    if (!shares) continue;
    plans.set(key, { members: members.map((m, i) => ({ view: m.view, share: shares[i]! })), maxPairwiseMeters: maxPairwise(members.map(listing)) });
  }
  return [...plans.entries()]
    .sort(([ka, a], [kb, b]) => a.members.length - b.members.length || a.maxPairwiseMeters - b.maxPairwiseMeters || compareText(ka, kb))
    .map(([, plan]) => plan);
}

/**
 * The party spread over the members in order: one adult each first (every booking needs
 * an adult), then adults and children filling each member up to its room.
 * Undefined when there are fewer adults than members.
 */
export function splitParty(rooms: readonly Party[], party: Party): Party[] | undefined {
  if (party.adults < rooms.length) return undefined;
  let adultsLeft = party.adults - rooms.length;
  let childrenLeft = party.children;
  const shares = rooms.map((room) => {
    const extraAdults = Math.min(room.adults - 1, adultsLeft);
    adultsLeft -= extraAdults;
    const children = Math.min(room.children, childrenLeft);
    childrenLeft -= children;
    return { adults: 1 + extraAdults, children };
  });
  return adultsLeft === 0 && childrenLeft === 0 ? shares : undefined;
}

/** The largest distance between two members, in whole metres. */
export function maxPairwise(places: readonly { latitude: number; longitude: number }[]): number {
  let max = 0;
  for (let i = 0; i < places.length; i++) for (let j = i + 1; j < places.length; j++) max = Math.max(max, distanceMeters(places[i]!, places[j]!));
  return Math.round(max);
}

/** A group's price: the sum of its members' search prices, per-night and percent recomputed on the sums. */
export function groupPrice(prices: readonly SearchPrice[], nights: number): SearchPrice {
  const sum = (f: (p: SearchPrice) => number) => prices.reduce((s, p) => s + f(p), 0);
  const total = sum((p) => p.total);
  const totalBeforeDiscount = sum((p) => p.totalBeforeDiscount);
  return searchPriceOf(
    total,
    totalBeforeDiscount,
    sum((p) => p.totalSaving),
    nights,
  );
}

import { describe, expect, it } from 'vitest';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { groupPrice, MAX_GROUP_LISTINGS, maxPairwise, planGroups, splitParty } from '../../domain/search/combine.ts';
import { distanceMeters, GROUP_RADIUS_METERS, proximityLabel } from '../../domain/search/geo.ts';
import { searchListings } from '../../domain/search/search-listings.ts';
import type { RawParam } from '../../domain/search/search-query.ts';
import { listing, memoryCatalogue, TODAY } from '../support/search-world.ts';

const principal: AgentGroupPrincipal = { kind: 'agent-group', agentGroupId: 'g1', partnerId: 'p1', channelId: 'web', keyId: 'k', keyPrefix: 'pds_x' };
const clock = { now: () => new Date(`${TODAY}T06:00:00Z`) };
const stay = (adults: number, children = 0): RawParam[] => [
  { filterName: 'checkIn', filterValues: ['2027-01-20'] },
  { filterName: 'checkOut', filterValues: ['2027-01-22'] },
  { filterName: 'adults', filterValues: [String(adults)] },
  { filterName: 'children', filterValues: [String(children)] },
];
/** One degree of latitude is about 111.2 km, so 0.001° ≈ 111 m. */
const at = (metresNorth: number) => ({ latitude: 15.58 + metresNorth / 111_195, longitude: 73.74 });
/** A listing of one property with `units` units of 3 adults and 1 child each. */
const villa = (id: string, metresNorth: number, units = 2) => listing(id, at(metresNorth), [{ quantity: units }]);

describe('Function: distanceMeters', () => {
  it('is the haversine distance', () => {
    expect(distanceMeters(at(0), at(1_000))).toBeCloseTo(1_000, 0);
    // Mumbai to Pune, about 120 km as the crow flies.
    expect(distanceMeters({ latitude: 19.076, longitude: 72.8777 }, { latitude: 18.5204, longitude: 73.8567 }) / 1000).toBeCloseTo(120, -1);
  });

  it('labels proximity by the furthest pair', () => {
    expect([0, 250, 251, 1_500, 1_501, GROUP_RADIUS_METERS].map(proximityLabel)).toEqual([
      'Same street',
      'Same street',
      'Walking distance',
      'Walking distance',
      'Short drive',
      'Short drive',
    ]);
  });

  it('maxPairwise is the largest distance in whole metres', () => {
    expect(maxPairwise([at(0), at(400), at(1_000)])).toBe(1_000);
  });
});

describe('Function: splitParty', () => {
  it('gives every member an adult, then fills in order', () => {
    expect(
      splitParty(
        [
          { adults: 6, children: 2 },
          { adults: 6, children: 2 },
        ],
        { adults: 8, children: 3 },
      ),
    ).toEqual([
      { adults: 6, children: 2 },
      { adults: 2, children: 1 },
    ]);
  });

  it('refuses fewer adults than members', () => {
    expect(
      splitParty(
        [
          { adults: 6, children: 2 },
          { adults: 6, children: 2 },
        ],
        { adults: 1, children: 4 },
      ),
    ).toBeUndefined();
  });
});

describe('Function: planGroups', () => {
  const room = (adults: number, children = 2) => ({ adults, children });
  const candidate = (id: string, metres: number, adults: number) => ({ view: villa(id, metres), room: room(adults) });

  it('joins the nearest neighbours until the party fits, never beyond the radius', () => {
    const plans = planGroups([candidate('a', 0, 6), candidate('b', 100, 6), candidate('c', 3_000, 6), candidate('far', 9_000, 6)], { adults: 10, children: 0 });
    expect(plans.map((p) => p.members.map((m) => m.view.listing.id))).toEqual([
      ['a', 'b'],
      ['c', 'b'],
    ]);
    expect(plans[0]!.maxPairwiseMeters).toBe(100);
  });

  it(`holds at most ${MAX_GROUP_LISTINGS} listings`, () => {
    const pool = ['a', 'b', 'c', 'd'].map((id, i) => candidate(id, i * 10, 3));
    expect(planGroups(pool, { adults: 9, children: 0 }).every((p) => p.members.length === 3)).toBe(true);
    expect(planGroups(pool, { adults: 10, children: 0 })).toEqual([]);
  });

  it('keeps every pair within the radius, not only pairs with the anchor', () => {
    const plans = planGroups([candidate('mid', 0, 4), candidate('north', 4_000, 4), candidate('south', -4_000, 4)], { adults: 12, children: 0 });
    expect(plans).toEqual([]);
  });
});

describe('Function: groupPrice', () => {
  it('sums the members and recomputes per-night and percent', () => {
    const a = { perNight: 100, perNightBeforeDiscount: 100, total: 300, totalBeforeDiscount: 300, totalSaving: 0, discountPercent: 0 };
    const b = { perNight: 90, perNightBeforeDiscount: 100, total: 271, totalBeforeDiscount: 301, totalSaving: 30, discountPercent: 9 };
    expect(groupPrice([a, b], 3)).toEqual({
      perNight: 190,
      perNightBeforeDiscount: 200,
      total: 571,
      totalBeforeDiscount: 601,
      totalSaving: 30,
      discountPercent: 4,
    });
  });
});

describe('Function: searchListings — combined groups', () => {
  it('offers nearby listings together when none holds the party alone, priced as the sum of their prices', async () => {
    // Each villa: 2 units × 3 adults = 6 adults; 10 adults need two villas.
    const catalogue = memoryCatalogue({ views: [villa('a', 0), villa('b', 120), villa('c', 2_000), villa('far', 20_000)] });
    const result = await searchListings({ catalogue, clock }, principal, { rawParams: stay(10) });
    expect(result.singleListings).toEqual([]);
    expect(result.totalSingleListings).toBe(0);
    const [first, second] = result.combinedGroups;
    expect(first).toMatchObject({
      groupId: 'a+b',
      listingCount: 2,
      maxPairwiseDistanceMeters: 120,
      proximityLabel: 'Same street',
      totalAdultCapacity: 12,
      totalChildrenCapacity: 4,
    });
    expect(first!.listings.map((l) => l.selectedProperties)).toEqual([
      [{ propertyId: 'a-p1', title: 'Unit a-p1', quantity: 2 }],
      [{ propertyId: 'b-p1', title: 'Unit b-p1', quantity: 2 }],
    ]);
    expect(first!.price.total).toBe(first!.listings.reduce((s, l) => s + l.price.total, 0));
    expect(first!.price.perNight).toBe(first!.price.total / 2);
    expect(second!.proximityLabel).toBe('Short drive');
    expect(result.combinedGroups.flatMap((g) => g.listings.map((l) => l.listingId))).not.toContain('far');
  });

  it('counts only units open on every night', async () => {
    const catalogue = memoryCatalogue({ views: [villa('a', 0), villa('b', 120), villa('c', 200)], inventory: { 'b-p1|2027-01-21': { stopSell: true } } });
    const result = await searchListings({ catalogue, clock }, principal, { rawParams: stay(10) });
    expect(result.combinedGroups.map((g) => g.groupId)).toEqual(['a+c']);
  });

  it('finds groups from the days already read with the shards: no read of its own', async () => {
    const catalogue = memoryCatalogue({ views: [villa('a', 0), villa('b', 120)] });
    const result = await searchListings({ catalogue, clock }, principal, { rawParams: stay(10) });
    expect(result.combinedGroups.map((g) => g.groupId)).toEqual(['a+b']);
    expect(catalogue.reads).toEqual({ head: 1, shards: 1 });

    const fits = memoryCatalogue({ views: [villa('a', 0), villa('b', 120), villa('big', 50, 4)] });
    const found = await searchListings({ catalogue: fits, clock }, principal, { rawParams: stay(10) });
    expect(found.singleListings.map((l) => l.listingId)).toEqual(['big']);
    expect(found.combinedGroups).toEqual([]);
  });

  it('applies the price filters to the group price', async () => {
    const catalogue = memoryCatalogue({ views: [villa('a', 0), villa('b', 120)] });
    const result = await searchListings({ catalogue, clock }, principal, { rawParams: [...stay(10), { filterName: 'maxPrice', filterValues: ['1000'] }] });
    expect(result.combinedGroups).toEqual([]);
  });
});

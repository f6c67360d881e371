import { diffCatalogue, emptyStoredCatalogue, type StoredCatalogue } from '../../domain/catalogue/catalogue-diff.ts';
import { worldCatalogue } from '../../domain/world/world-catalogue.ts';
import { parseWorldShape, type WorldInput } from '../../domain/world/world-schema.ts';

/**
 * A small catalogue of its own for one test file: two channels (the second sells 10 %
 * below base), three listings — one on both channels, one on each — with two
 * properties each, and ten days of inventory and rates from FIXTURE_FROM. Every id
 * carries a fresh suffix, so files never see each other's data.
 */
export const FIXTURE_FROM = '2027-03-01';
export const FIXTURE_TO = '2027-03-10';

/** The ids of fixtureWorld's records. */
export interface CatalogueWorldIds {
  readonly channelA: string;
  readonly channelB: string;
  readonly both: string;
  readonly onlyA: string;
  readonly onlyB: string;
  readonly propertiesOf: Readonly<Record<string, readonly string[]>>;
}

export function fixtureWorld(suffix: string): WorldInput & { ids: CatalogueWorldIds } {
  const channelA = `cha-${suffix}`;
  const channelB = `chb-${suffix}`;
  const plan = `flex-${suffix}`;
  const listing = (id: string, channelIds: string[], lat: number) => ({
    id,
    title: `Villa ${id}`,
    type: 'Villa',
    brand: 'Test Stays',
    locality: 'Anjuna',
    city: 'Goa',
    state: 'Goa',
    addressLine: '1 Beach Road',
    latitude: lat,
    longitude: 73.74,
    maxAdults: 8,
    maxChildren: 4,
    basePrice: 10_000,
    amenities: ['Pool'],
    tags: ['beach'],
    coverPicture: 'https://images.example.com/cover.jpg',
    channelIds,
    cancellationPlanIds: [plan],
    defaultCancellationPlanId: plan,
    properties: [1, 2].map((n) => ({
      id: `${id}-p${n}`,
      name: `Suite ${n}`,
      type: 'Suite',
      bedrooms: n,
      bathrooms: n,
      numberOfBeds: n,
      maxAdults: 2 * n + 1,
      maxChildren: 2,
      applicableAdult: 2 * n,
      applicableChild: 1,
      extraAdultRate: 1_500,
      extraChildRate: 750,
      quantity: 2,
      imageUrl: 'https://images.example.com/suite.jpg',
      photos: [
        { url: 'https://images.example.com/a.jpg', name: 'A' },
        { url: 'https://images.example.com/b.jpg', name: 'B' },
      ],
      amenities: [{ icon: 'wifi', name: 'Wi-Fi', category: 'Basics' }],
      basePrice: 5_000 * n,
    })),
  });
  const both = `both-${suffix}`;
  const onlyA = `onlya-${suffix}`;
  const onlyB = `onlyb-${suffix}`;
  const listings = [listing(both, [channelA, channelB], 15.58), listing(onlyA, [channelA], 15.59), listing(onlyB, [channelB], 15.6)];
  const propertiesOf = Object.fromEntries(listings.map((l) => [l.id, l.properties.map((p) => p.id)]));
  const allProperties = listings.flatMap((l) => l.properties);
  return {
    version: 1,
    channels: [
      { channelId: channelA, name: 'Channel A' },
      { channelId: channelB, name: 'Channel B', rateAdjustmentPercent: -10 },
    ],
    catalogue: {
      cancellationPlans: [
        { planId: plan, name: 'Flexible', planType: 'FLEXIBLE', schedule: [{ daysBeforeCheckIn: 7, refundPercentage: 100, label: 'Full refund' }] },
      ],
      listings,
      inventory: allProperties.flatMap((p) => [
        { propertyId: p.id, from: FIXTURE_FROM, to: FIXTURE_TO, quantity: 2, minimumStay: 1, maximumStay: 14 },
        { propertyId: p.id, from: '2027-03-05', to: '2027-03-05', quantity: 0, stopSell: true },
      ]),
      rates: allProperties.flatMap((p) => [
        { propertyId: p.id, from: FIXTURE_FROM, to: FIXTURE_TO, mealPlan: 'EP' as const, adults: { '1': 4_000, '2': 5_000 } },
        { propertyId: p.id, from: FIXTURE_FROM, to: FIXTURE_TO, mealPlan: 'CP' as const, adults: { '1': 4_500, '2': 5_600 } },
      ]),
    },
    ids: { channelA, channelB, both, onlyA, onlyB, propertiesOf },
  };
}

/** fixtureWorld's catalogue as the records a world import stores first (every one new, stamped `now`): what a catalogue store's save takes. */
export function fixtureCatalogue(suffix: string, now: string): { readonly ids: CatalogueWorldIds; readonly writes: StoredCatalogue } {
  const { ids, ...world } = fixtureWorld(suffix);
  return { ids, writes: diffCatalogue(emptyStoredCatalogue(), worldCatalogue(parseWorldShape(world)), now).writes };
}

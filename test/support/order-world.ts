import { TEST_OPERATOR } from './audit-origin.ts';
import type { WorldInput } from '../../domain/world/world-schema.ts';
import { importWorld } from '../../domain/world/import-world.ts';
import { adminDeps } from '../../infra/container.ts';
import { FIXTURE_FROM, FIXTURE_TO, type CatalogueFixture } from './catalogue-fixture.ts';
import { testServices } from './stack.ts';

/** GST slabs as in force since 2025-09-22: 5 % up to ₹7,500 per unit-night, 18 % above. */
export const GST_SLABS = {
  effectiveFrom: '2025-09-22',
  slabs: [
    { upToPerUnitNight: 7_500, ratePercent: 5 },
    { upToPerUnitNight: null, ratePercent: 18 },
  ],
};

/** Loads GST_SLABS alone (the stage's slab tables are shared; loading the same table again changes nothing): what an order needs to be priced. */
export async function seedGstSlabs(): Promise<void> {
  const svc = testServices();
  await importWorld(
    { ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue },
    { version: 1, gst: { slabTables: [GST_SLABS] } },
    { allowPlaintextKeys: true },
  );
}

export interface OrderWorld {
  /** A villa on channel A with meals, a transfer service and two cancellation plans. */
  readonly villa: string;
  readonly suite: string;
  /** A one-property listing on channel A whose rates a test may change. */
  readonly drift: string;
  readonly driftSuite: string;
  readonly moderatePlan: string;
  readonly flexPlan: string;
  readonly breakfast: string;
  readonly dinner: string;
  readonly transfer: string;
  readonly suv: string;
  /** Re-imports the drift listing with its EP two-adult rate set to `rupees`. */
  readonly setDriftRate: (rupees: number) => Promise<void>;
}

/**
 * Order-pricing catalogue beside a seedCatalogue() fixture, on the fixture's channels:
 * meals, services, plans with a discount, bank offers on both channels (one expired) and
 * the GST slab table pricing needs. Ids carry the fixture's suffix.
 */
export async function seedOrderWorld(fx: CatalogueFixture): Promise<OrderWorld> {
  const suffix = fx.channelA.slice('cha-'.length);
  const ids = {
    villa: `villa-${suffix}`,
    suite: `villa-${suffix}-suite`,
    drift: `drift-${suffix}`,
    driftSuite: `drift-${suffix}-suite`,
    moderatePlan: `moderate-${suffix}`,
    flexPlan: `oflex-${suffix}`,
    breakfast: 'breakfast',
    dinner: 'dinner',
    transfer: 'transfer',
    suv: 'suv',
  };
  const property = (id: string) => ({
    id,
    name: 'Pool Suite',
    type: 'Suite',
    bedrooms: 2,
    bathrooms: 2,
    numberOfBeds: 2,
    maxAdults: 4,
    maxChildren: 2,
    applicableAdult: 2,
    applicableChild: 2,
    extraAdultRate: 1_100,
    extraChildRate: 500,
    quantity: 2,
    imageUrl: 'https://images.example.com/suite.jpg',
    basePrice: 7_000,
  });
  const listing = (id: string, propertyId: string) => ({
    id,
    title: `Casa ${id}`,
    type: 'Villa',
    brand: 'Test Stays',
    locality: 'Anjuna',
    city: 'Goa',
    state: 'Goa',
    addressLine: '2 Beach Road',
    latitude: 15.58,
    longitude: 73.74,
    maxAdults: 8,
    maxChildren: 4,
    basePrice: 7_000,
    coverPicture: 'https://images.example.com/cover.jpg',
    channelIds: [fx.channelA],
    cancellationPlanIds: [ids.flexPlan, ids.moderatePlan],
    defaultCancellationPlanId: ids.flexPlan,
    properties: [property(propertyId)],
    meals: [
      { mealId: ids.breakfast, name: 'Breakfast', mealType: 'BREAKFAST' as const, adultPrice: 450, childPrice: 250 },
      { mealId: ids.dinner, name: 'Dinner', mealType: 'DINNER' as const, adultPrice: 1_100, childPrice: 600, chefOnCallPrice: 1_500 },
    ],
    vas: [{ vasId: ids.transfer, name: 'Airport transfer', pricing: 'PER_UNIT' as const, variants: [{ variantId: ids.suv, name: 'SUV', price: 3_500 }] }],
  });
  const world = (driftRate: number): WorldInput => ({
    version: 1,
    channels: [
      { channelId: fx.channelA, name: 'Channel A' },
      { channelId: fx.channelB, name: 'Channel B', rateAdjustmentPercent: -10 },
    ],
    catalogue: {
      cancellationPlans: [
        { planId: ids.flexPlan, name: 'Flexible', planType: 'FLEXIBLE', schedule: [{ daysBeforeCheckIn: 7, refundPercentage: 100, label: 'Full refund' }] },
        {
          planId: ids.moderatePlan,
          name: 'Moderate',
          planType: 'MODERATE',
          discountPercent: 5,
          schedule: [
            { daysBeforeCheckIn: 15, refundPercentage: 100, label: 'Full refund' },
            { daysBeforeCheckIn: 7, refundPercentage: 50, label: 'Half refund' },
          ],
        },
      ],
      listings: [listing(ids.villa, ids.suite), listing(ids.drift, ids.driftSuite)],
      offers: [
        { channelId: fx.channelA, code: 'SAVE10', title: 'Bank 10 % off', discountType: 'PERCENTAGE', percent: 10, maxDiscount: 2_000, minOrderValue: 5_000 },
        { channelId: fx.channelA, code: 'FLAT500', title: 'Bank ₹500 off', discountType: 'FLAT', flatAmount: 500 },
        { channelId: fx.channelA, code: 'GONE', title: 'Last season', discountType: 'PERCENTAGE', percent: 20, validTo: '2026-01-31' },
        { channelId: fx.channelB, code: 'BONLY', title: 'Channel B only', discountType: 'FLAT', flatAmount: 700 },
      ],
      inventory: [ids.suite, ids.driftSuite].map((propertyId) => ({
        propertyId,
        from: FIXTURE_FROM,
        to: FIXTURE_TO,
        quantity: 2,
        minimumStay: 1,
        maximumStay: 14,
      })),
      rates: [
        { propertyId: ids.suite, from: FIXTURE_FROM, to: FIXTURE_TO, mealPlan: 'EP' as const, adults: { '1': 6_500, '2': 7_000 } },
        { propertyId: ids.driftSuite, from: FIXTURE_FROM, to: FIXTURE_TO, mealPlan: 'EP' as const, adults: { '1': 6_500, '2': driftRate } },
      ],
    },
    gst: { slabTables: [GST_SLABS] },
  });
  const svc = testServices();
  const load = (driftRate: number) =>
    importWorld({ ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue }, world(driftRate), { allowPlaintextKeys: true }).then(() => undefined);
  await load(7_000);
  return { ...ids, setDriftRate: load };
}

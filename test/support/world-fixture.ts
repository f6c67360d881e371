import type { WorldInput } from '../../domain/world/world-schema.ts';

/**
 * A small, complete world whose every id carries `tag`, so tests sharing one table never
 * touch each other's records. Two listings, three properties, a week of days.
 */
export function smallWorld(tag: string, from = '2027-03-01'): WorldInput & { catalogue: NonNullable<WorldInput['catalogue']> } {
  const to = addDays(from, 6);
  const state = `Teststate ${tag}`;
  return {
    version: 1,
    tenants: {
      partners: [{ partnerId: `p-${tag}`, name: 'Fixture Partner', channelId: `web-${tag}` }],
      agentGroups: [
        {
          agentGroupId: `g-${tag}`,
          partnerId: `p-${tag}`,
          name: 'Fixture Agents',
          channelId: `b2b-${tag}`,
          creditLimit: 50_000,
          billingCycle: 'MONTHLY',
          billingAnchorDay: 1,
          gstin: '27AAPFU0939F1ZV',
          legalName: 'Fixture Agents Pvt Ltd',
          address: { line1: '1 Test Road', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'India' },
        },
      ],
    },
    keys: [
      { owner: { kind: 'partner', id: `p-${tag}` }, key: `pds_test_partner_${tag}_key` },
      {
        owner: { kind: 'agent-group', id: `g-${tag}` },
        key: `pds_test_group_${tag}_key`,
        signingSecret: `whsec_test_${tag}_secret`,
        rateLimit: { perMinute: 120, burst: 20 },
      },
    ],
    channels: [
      { channelId: `web-${tag}`, name: 'Web', rateAdjustmentPercent: 0 },
      { channelId: `b2b-${tag}`, name: 'B2B', rateAdjustmentPercent: -10 },
    ],
    catalogue: {
      cancellationPlans: [
        { planId: `flex-${tag}`, name: 'Flexible', planType: 'FLEXIBLE', schedule: [{ daysBeforeCheckIn: 7, refundPercentage: 100, label: 'Full refund' }] },
        { planId: `nr-${tag}`, name: 'Non-refundable', planType: 'NON_REFUNDABLE', discountPercent: 15, schedule: [] },
      ],
      listings: [
        {
          id: `l1-${tag}`,
          title: 'Casa Fixture',
          type: 'VILLA',
          brand: 'Fixture Stays',
          locality: 'Anjuna',
          city: 'Anjuna',
          state,
          addressLine: '1 Beach Road',
          latitude: 15.57,
          longitude: 73.74,
          maxAdults: 10,
          maxChildren: 4,
          basePrice: 9_000,
          coverPicture: 'https://images.example.com/fixture/cover.jpg',
          channelIds: [`web-${tag}`, `b2b-${tag}`],
          cancellationPlanIds: [`flex-${tag}`, `nr-${tag}`],
          defaultCancellationPlanId: `flex-${tag}`,
          properties: [
            {
              id: `l1p1-${tag}`,
              name: 'Entire Villa',
              type: 'ENTIRE_HOME',
              bedrooms: 3,
              bathrooms: 3,
              numberOfBeds: 3,
              maxAdults: 8,
              maxChildren: 2,
              applicableAdult: 6,
              applicableChild: 2,
              extraAdultRate: 1_200,
              extraChildRate: 600,
              quantity: 1,
              imageUrl: 'https://images.example.com/fixture/villa.jpg',
              basePrice: 9_000,
            },
            {
              id: `l1p2-${tag}`,
              name: 'Garden Cottage',
              type: 'COTTAGE',
              bedrooms: 1,
              bathrooms: 1,
              numberOfBeds: 1,
              maxAdults: 3,
              maxChildren: 1,
              applicableAdult: 2,
              applicableChild: 1,
              extraAdultRate: 800,
              extraChildRate: 400,
              quantity: 3,
              imageUrl: 'https://images.example.com/fixture/cottage.jpg',
              basePrice: 4_000,
            },
          ],
          meals: [{ mealId: 'breakfast', name: 'Breakfast', mealType: 'BREAKFAST', adultPrice: 450, childPrice: 250 }],
          vas: [{ vasId: 'transfer', name: 'Airport transfer', pricing: 'PER_UNIT', variants: [{ variantId: 'sedan', name: 'Sedan', price: 2_500 }] }],
          simulator: { mode: 'CONFIRM_AFTER', confirmAfterSeconds: 30 },
        },
        {
          id: `l2-${tag}`,
          title: 'Chalet Fixture',
          type: 'CHALET',
          brand: 'Fixture Stays',
          locality: 'Old Manali',
          city: 'Manali',
          state,
          addressLine: '2 Hill Road',
          latitude: 32.24,
          longitude: 77.19,
          maxAdults: 4,
          maxChildren: 2,
          basePrice: 6_000.5,
          coverPicture: 'https://images.example.com/fixture/chalet.jpg',
          channelIds: [`web-${tag}`],
          cancellationPlanIds: [`flex-${tag}`],
          defaultCancellationPlanId: `flex-${tag}`,
          properties: [
            {
              id: `l2p1-${tag}`,
              name: 'Chalet',
              type: 'ENTIRE_HOME',
              bedrooms: 2,
              bathrooms: 2,
              numberOfBeds: 2,
              maxAdults: 4,
              maxChildren: 2,
              applicableAdult: 4,
              applicableChild: 2,
              extraAdultRate: 0,
              extraChildRate: 0,
              quantity: 1,
              imageUrl: 'https://images.example.com/fixture/chalet.jpg',
              basePrice: 6_000,
            },
          ],
        },
      ],
      offers: [
        { channelId: `web-${tag}`, code: 'HDFC10', title: '10% off', discountType: 'PERCENTAGE', percent: 10, maxDiscount: 2_000 },
        { channelId: `b2b-${tag}`, code: 'FLAT500', title: '₹500 off', discountType: 'FLAT', flatAmount: 500, minOrderValue: 5_000 },
      ],
      inventory: [
        { propertyId: `l1p1-${tag}`, from, to, quantity: 1, minimumStay: 2 },
        { propertyId: `l1p2-${tag}`, from, to, quantity: 3 },
        { propertyId: `l2p1-${tag}`, from, to, quantity: 1 },
        { propertyId: `l1p2-${tag}`, from: addDays(from, 2), to: addDays(from, 2), quantity: 0 },
      ],
      rates: [
        { propertyId: `l1p1-${tag}`, from, to, mealPlan: 'EP', adults: { '1': 8_000, '2': 8_500, '6': 9_000 } },
        { propertyId: `l1p1-${tag}`, from, to, daysOfWeek: ['FRI', 'SAT'], mealPlan: 'EP', adults: { '6': 11_000 } },
        { propertyId: `l1p2-${tag}`, from, to, mealPlan: 'CP', adults: { '1': 3_500, '2': 4_000 } },
        { propertyId: `l2p1-${tag}`, from, to, mealPlan: 'EP', adults: { '2': 6_000, '4': 7_000 } },
      ],
    },
    gst: {
      registrations: [{ state, stateCode: '30', gstin: '30AAKCP4821M1ZC', legalName: 'Fixture Supplier', address: 'Anjuna, Goa' }],
      slabTables: [
        {
          effectiveFrom: '2019-10-01',
          slabs: [
            { upToPerUnitNight: 1_000, ratePercent: 0 },
            { upToPerUnitNight: 7_500, ratePercent: 12 },
            { upToPerUnitNight: null, ratePercent: 18 },
          ],
        },
        {
          effectiveFrom: '2025-09-22',
          slabs: [
            { upToPerUnitNight: 7_500, ratePercent: 5 },
            { upToPerUnitNight: null, ratePercent: 18 },
          ],
        },
      ],
    },
  };
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A deep copy to break in one place. */
export const clone = <T>(value: T): T => structuredClone(value);

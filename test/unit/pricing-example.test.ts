import { describe, expect, it } from 'vitest';
import type { DayData } from '../../domain/catalogue/day.ts';
import type { Property } from '../../domain/catalogue/property.ts';
import { priceOrder, searchPrice, type PriceOrderInput, type PricingContext } from '../../domain/pricing/index.ts';

/**
 * The worked example of docs/pricing.md, number for number: two Pool Suites in Goa for
 * three nights (Wed, Thu and a Friday weekend rate), five adults and a child, breakfast on
 * every night, a chef-cooked Friday dinner, airport transfers, the Moderate plan (5 % off),
 * HDFC10 (10 % capped at ₹2,000) and GST that lands in both slabs.
 */

const rupees = (r: number) => r * 100;

const suite: Property = {
  id: 'goa-anjuna-casa-azul-suite',
  listingId: 'goa-anjuna-casa-azul',
  name: 'Pool Suite',
  title: 'Pool Suite',
  brand: 'Coastal Collection',
  type: 'SUITE',
  bedrooms: 1,
  bathrooms: 1,
  numberOfBeds: 2,
  maxAdults: 4,
  maxChildren: 2,
  applicableAdult: 2,
  applicableChild: 2,
  extraAdultRate: rupees(1_100),
  extraChildRate: rupees(500),
  quantity: 2,
  isPetFriendly: false,
  numberOfPets: 0,
  isStressed: false,
  isHighDemand: false,
  imageUrl: 'https://images.example.com/suite.jpg',
  photos: [],
  amenities: [],
  location: 'Mazal Waddo, Anjuna',
  latitude: 15.57,
  longitude: 73.74,
  basePrice: rupees(7_000),
};

const inventory = { quantity: 2, minimumStay: 1, maximumStay: 30, stopSell: false };
const weekday: DayData = { inventory, rates: { EP: { '1': rupees(6_500), '2': rupees(7_000) } } };
const friday: DayData = { inventory, rates: { EP: { '1': rupees(7_900), '2': rupees(8_400) } } };

const exampleContext: PricingContext = {
  listing: {
    id: 'goa-anjuna-casa-azul',
    title: 'Casa Azul, Anjuna',
    type: 'VILLA',
    status: 'ACTIVE',
    brand: 'Coastal Collection',
    locality: 'Mazal Waddo',
    city: 'Anjuna',
    state: 'Goa',
    country: 'India',
    addressLine: '12, Mazal Waddo, Anjuna, Goa',
    latitude: 15.57,
    longitude: 73.74,
    maxAdults: 8,
    maxChildren: 4,
    basePrice: rupees(7_000),
    amenities: [],
    tags: [],
    coverPicture: 'https://images.example.com/cover.jpg',
    rating: 4.6,
    reviewCount: 120,
    usps: [],
    badges: [],
    cancellationPlanIds: ['flexible', 'moderate', 'non-refundable'],
    defaultCancellationPlanId: 'flexible',
  },
  properties: [suite],
  days: new Map([
    [
      suite.id,
      new Map([
        ['2026-03-18', weekday],
        ['2026-03-19', weekday],
        ['2026-03-20', friday],
      ]),
    ],
  ]),
  meals: [
    {
      listingId: 'goa-anjuna-casa-azul',
      mealId: 'breakfast',
      name: 'Breakfast',
      mealType: 'BREAKFAST',
      adultPrice: rupees(450),
      childPrice: rupees(250),
      chefOnCallPrice: 0,
    },
    {
      listingId: 'goa-anjuna-casa-azul',
      mealId: 'dinner',
      name: 'Regional dinner',
      mealType: 'DINNER',
      adultPrice: rupees(1_100),
      childPrice: rupees(600),
      chefOnCallPrice: rupees(1_500),
    },
  ],
  vas: [
    {
      listingId: 'goa-anjuna-casa-azul',
      vasId: 'airport-transfer',
      name: 'Airport transfer',
      pricing: 'PER_UNIT',
      variants: [
        { variantId: 'sedan', name: 'Sedan (3 guests)', price: rupees(2_500) },
        { variantId: 'suv', name: 'SUV (6 guests)', price: rupees(3_500) },
      ],
    },
  ],
  cancellationPlans: [
    {
      planId: 'flexible',
      name: 'Flexible',
      planType: 'FLEXIBLE',
      discountPercent: 0,
      schedule: [
        { daysBeforeCheckIn: 7, refundPercentage: 100, label: 'Full refund up to 7 days before check-in' },
        { daysBeforeCheckIn: 2, refundPercentage: 50, label: '50% refund up to 2 days before check-in' },
      ],
    },
    {
      planId: 'moderate',
      name: 'Moderate',
      planType: 'MODERATE',
      discountPercent: 5,
      schedule: [
        { daysBeforeCheckIn: 15, refundPercentage: 100, label: 'Full refund up to 15 days before check-in' },
        { daysBeforeCheckIn: 7, refundPercentage: 50, label: '50% refund up to 7 days before check-in' },
      ],
    },
    { planId: 'non-refundable', name: 'Non-refundable', planType: 'NON_REFUNDABLE', discountPercent: 15, schedule: [] },
  ],
  channel: { channelId: 'ota-web', name: 'OTA web', rateAdjustmentPercent: 0 },
  bankOffers: [
    {
      channelId: 'ota-web',
      code: 'HDFC10',
      title: '10% off with HDFC Bank cards, up to ₹2,000',
      discountType: 'PERCENTAGE',
      percent: 10,
      flatAmount: null,
      maxDiscount: rupees(2_000),
      minOrderValue: rupees(5_000),
      stayFrom: null,
      stayTo: null,
      minNights: 0,
      validFrom: '2026-01-01',
      validTo: '2026-12-31',
    },
  ],
  gstSlabTables: [
    {
      effectiveFrom: '2019-10-01',
      slabs: [
        { upToPerUnitNight: rupees(1_000), ratePercent: 0 },
        { upToPerUnitNight: rupees(7_500), ratePercent: 12 },
        { upToPerUnitNight: null, ratePercent: 18 },
      ],
    },
    {
      effectiveFrom: '2025-09-22',
      slabs: [
        { upToPerUnitNight: rupees(7_500), ratePercent: 5 },
        { upToPerUnitNight: null, ratePercent: 18 },
      ],
    },
  ],
  today: '2026-03-02',
};

const exampleInput: PriceOrderInput = {
  request: {
    listingId: 'goa-anjuna-casa-azul',
    checkIn: '2026-03-18',
    checkOut: '2026-03-21',
    adults: 5,
    children: 1,
    infants: 0,
    selectedProperties: [{ propertyId: suite.id, quantity: 2 }],
    meals: [
      { mealId: 'breakfast', dates: [], unsureOfDates: true, adults: 5, children: 1, chefOnCall: false },
      { mealId: 'dinner', dates: ['2026-03-20'], unsureOfDates: false, adults: 5, children: 1, chefOnCall: true },
    ],
    vas: [
      {
        vasId: 'airport-transfer',
        variantId: 'suv',
        dates: ['2026-03-18', '2026-03-21'],
        unsureOfDates: false,
        quantity: 1,
        dateQuantities: [{ date: '2026-03-21', quantity: 2 }],
      },
    ],
    cancellationPlanId: 'moderate',
    bankOfferCode: 'HDFC10',
  },
  context: exampleContext,
};

describe('Function: priceOrder › the worked example of docs/pricing.md', () => {
  const order = priceOrder(exampleInput);

  it('spreads five adults and a child over the two suites, included places first', () => {
    expect(order.breakdown.occupancy).toEqual([
      { propertyId: suite.id, unit: 1, adults: 3, children: 1 },
      { propertyId: suite.id, unit: 2, adults: 2, children: 0 },
    ]);
  });

  it('prices every unit-night: base, plan and bank shares, taxable value, slab and GST', () => {
    const rows = order.breakdown.unitNights.map((l) => [
      l.date,
      l.unit,
      l.occupancyRate,
      l.extraAdults,
      l.extraAdultRate,
      l.base,
      l.cancellationPlanDiscount,
      l.bankOfferDiscount,
      l.taxableValue,
      l.gstRatePercent,
      l.gst,
      l.total,
    ]);
    expect(rows).toEqual([
      ['2026-03-18', 1, 700_000, 1, 110_000, 810_000, 40_500, 21_587, 747_913, 5, 37_396, 785_309],
      ['2026-03-18', 2, 700_000, 0, 110_000, 700_000, 35_000, 18_654, 646_346, 5, 32_317, 678_663],
      ['2026-03-19', 1, 700_000, 1, 110_000, 810_000, 40_500, 21_587, 747_913, 5, 37_396, 785_309],
      ['2026-03-19', 2, 700_000, 0, 110_000, 700_000, 35_000, 18_654, 646_346, 5, 32_317, 678_663],
      ['2026-03-20', 1, 840_000, 1, 110_000, 950_000, 47_500, 25_318, 877_182, 18, 157_893, 1_035_075],
      ['2026-03-20', 2, 840_000, 0, 110_000, 840_000, 42_000, 22_386, 775_614, 18, 139_611, 915_225],
    ]);
  });

  it('prices breakfast on every night, the chef-cooked dinner once, at the stay’s highest rate', () => {
    const rows = order.breakdown.meals.map((l) => [l.mealId, l.date, l.amount, l.bankOfferDiscount, l.taxableValue, l.gstRatePercent, l.gst, l.total]);
    expect(rows).toEqual([
      ['breakfast', '2026-03-18', 250_000, 7_013, 242_987, 18, 43_738, 286_725],
      ['breakfast', '2026-03-19', 250_000, 7_013, 242_987, 18, 43_738, 286_725],
      ['breakfast', '2026-03-20', 250_000, 7_013, 242_987, 18, 43_738, 286_725],
      ['dinner', '2026-03-20', 760_000, 21_320, 738_680, 18, 132_962, 871_642],
    ]);
  });

  it('prices the transfers per date, with the departure day’s two vehicles from dateQuantities', () => {
    const rows = order.breakdown.vas.map((l) => [
      l.date,
      l.quantity,
      l.unitPrice,
      l.amount,
      l.bankOfferDiscount,
      l.taxableValue,
      l.gstRatePercent,
      l.gst,
      l.total,
    ]);
    expect(rows).toEqual([
      ['2026-03-18', 1, 350_000, 350_000, 9_818, 340_182, 18, 61_233, 401_415],
      ['2026-03-21', 2, 350_000, 700_000, 19_637, 680_363, 18, 122_465, 802_828],
    ]);
  });

  it('gives the summary in the contract’s order', () => {
    expect(order.currency).toBe('INR');
    expect(Object.keys(order.summary)).toEqual([
      'baseSubtotal',
      'mealsSubtotal',
      'vasSubtotal',
      'cancellationPlanDiscount',
      'stayAfterCancellationPlan',
      'bankOffer',
      'priceAfterBankOffer',
      'offersDiscount',
      'taxableSubtotal',
      'gst',
      'grandTotal',
    ]);
    expect(order.summary).toEqual({
      baseSubtotal: 4_810_000,
      mealsSubtotal: 1_510_000,
      vasSubtotal: 1_050_000,
      cancellationPlanDiscount: 240_500,
      stayAfterCancellationPlan: 4_569_500,
      bankOffer: {
        code: 'HDFC10',
        title: '10% off with HDFC Bank cards, up to ₹2,000',
        discountType: 'PERCENTAGE',
        discount: 200_000,
        applied: true,
        reason: 'Applied the requested offer HDFC10 (capped at ₹2000.00).',
      },
      priceAfterBankOffer: 6_929_500,
      offersDiscount: 440_500,
      taxableSubtotal: 6_929_500,
      gst: 884_804,
      grandTotal: 7_814_304,
    });
  });

  it('gives the item with the Moderate plan’s schedule from today', () => {
    expect(order.items).toEqual([
      {
        listingId: 'goa-anjuna-casa-azul',
        checkIn: '2026-03-18',
        checkOut: '2026-03-21',
        nights: 3,
        soldOut: false,
        itemSubtotal: 7_129_500,
        cancellationPlanId: 'moderate',
        cancellationPlanDiscount: 240_500,
        cancellationPolicy: [
          { cancelBy: '2026-03-03', refundPercentage: 100, label: 'Full refund up to 15 days before check-in' },
          { cancelBy: '2026-03-11', refundPercentage: 50, label: '50% refund up to 7 days before check-in' },
          { cancelBy: '2026-03-18', refundPercentage: 0, label: 'No refund for cancellations after 2026-03-11' },
        ],
      },
    ]);
  });

  it('gives the search price from the same numbers', () => {
    expect(searchPrice(order)).toEqual({
      perNight: 2_309_833,
      perNightBeforeDiscount: 2_456_667,
      total: 6_929_500,
      totalBeforeDiscount: 7_370_000,
      totalSaving: 440_500,
      discountPercent: 5,
    });
  });
});

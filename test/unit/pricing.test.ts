import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import type { DayData, DayInventory } from '../../domain/catalogue/day.ts';
import type { BankOffer } from '../../domain/catalogue/offers.ts';
import type { Property } from '../../domain/catalogue/property.ts';
import { PricingNotConfiguredError, ValidationError } from '../../domain/errors.ts';
import {
  allocateParty,
  apportion,
  cancellationPolicy,
  chooseUnits,
  MAX_STAY_NIGHTS,
  percentOf,
  perNightOf,
  priceOrder,
  wholePercentDown,
  type OrderRequest,
  type PricingContext,
} from '../../domain/pricing/index.ts';
import { OrderQuoteSchema } from '../../functions/contracts/orders.ts';
import { pricedJson } from '../../functions/orders/order-json.ts';

const rupees = (r: number) => r * 100;
const TODAY = '2026-05-04';
const CHECK_IN = '2026-05-20';
const LISTING = 'kerala-munnar-tea-garden';

function property(over: Partial<Property> & Pick<Property, 'id'>): Property {
  return {
    listingId: LISTING,
    name: over.id,
    title: over.id,
    brand: 'Spice Coast Homes',
    type: 'ROOM',
    bedrooms: 1,
    bathrooms: 1,
    numberOfBeds: 1,
    maxAdults: 3,
    maxChildren: 1,
    applicableAdult: 2,
    applicableChild: 1,
    extraAdultRate: rupees(800),
    extraChildRate: rupees(400),
    quantity: 3,
    isPetFriendly: false,
    numberOfPets: 0,
    isStressed: false,
    isHighDemand: false,
    imageUrl: '',
    photos: [],
    amenities: [],
    location: 'Munnar',
    latitude: 10,
    longitude: 77,
    basePrice: rupees(4_000),
    ...over,
  };
}

const ROOM = property({ id: 'room' });
const VILLA = property({
  id: 'villa',
  type: 'ENTIRE_HOME',
  maxAdults: 8,
  maxChildren: 2,
  applicableAdult: 6,
  applicableChild: 2,
  extraAdultRate: rupees(1_500),
  extraChildRate: rupees(700),
  quantity: 1,
  basePrice: rupees(15_000),
});

const OPEN: DayInventory = { quantity: 3, minimumStay: 1, maximumStay: 30, stopSell: false };

/** Rates per adult count for EP and CP (CP = EP + ₹500 per adult). */
function ratesFor(p: Property, ep: number): DayData['rates'] {
  const plan = (extra: number) =>
    Object.fromEntries(Array.from({ length: p.applicableAdult }, (_, i) => [String(i + 1), rupees(ep + 500 * i + extra * (i + 1))]));
  return { EP: plan(0), CP: plan(500) };
}

function daysFor(p: Property, ep: number, from = TODAY, count = 60, inventory: DayInventory = OPEN): Map<string, DayData> {
  return new Map(Array.from({ length: count }, (_, i) => [addDays(from, i), { inventory, rates: ratesFor(p, ep) }]));
}

const offer = (over: Partial<BankOffer> & Pick<BankOffer, 'code'>): BankOffer => ({
  channelId: 'ota-web',
  title: over.code,
  discountType: 'PERCENTAGE',
  percent: 10,
  flatAmount: null,
  maxDiscount: null,
  minOrderValue: 0,
  stayFrom: null,
  stayTo: null,
  minNights: 0,
  validFrom: null,
  validTo: null,
  ...over,
});

function context(over: Partial<PricingContext> = {}): PricingContext {
  return {
    listing: {
      id: LISTING,
      title: 'Tea Garden Bungalow',
      type: 'VILLA',
      status: 'ACTIVE',
      brand: 'Spice Coast Homes',
      locality: 'Chithirapuram',
      city: 'Munnar',
      state: 'Kerala',
      country: 'India',
      addressLine: '',
      latitude: 10,
      longitude: 77,
      maxAdults: 17,
      maxChildren: 5,
      basePrice: rupees(4_000),
      amenities: [],
      tags: [],
      coverPicture: '',
      rating: 4.5,
      reviewCount: 10,
      usps: [],
      badges: [],
      cancellationPlanIds: ['flexible', 'non-refundable'],
      defaultCancellationPlanId: 'flexible',
    },
    properties: [ROOM, VILLA],
    days: new Map([
      [ROOM.id, daysFor(ROOM, 4_000)],
      [VILLA.id, daysFor(VILLA, 12_000, TODAY, 60, { ...OPEN, quantity: 1 })],
    ]),
    meals: [
      {
        listingId: LISTING,
        mealId: 'breakfast',
        name: 'Breakfast',
        mealType: 'BREAKFAST',
        adultPrice: rupees(450),
        childPrice: rupees(250),
        chefOnCallPrice: 0,
      },
      {
        listingId: LISTING,
        mealId: 'dinner',
        name: 'Dinner',
        mealType: 'DINNER',
        adultPrice: rupees(1_100),
        childPrice: rupees(600),
        chefOnCallPrice: rupees(1_500),
      },
      { listingId: 'another-listing', mealId: 'bbq', name: 'BBQ', mealType: 'BBQ', adultPrice: 1, childPrice: 1, chefOnCallPrice: 0 },
    ],
    vas: [
      {
        listingId: LISTING,
        vasId: 'decoration',
        name: 'Decoration',
        pricing: 'PER_STAY',
        variants: [{ variantId: 'birthday', name: 'Birthday', price: rupees(3_000) }],
      },
      {
        listingId: LISTING,
        vasId: 'bonfire',
        name: 'Bonfire',
        pricing: 'PER_NIGHT',
        variants: [{ variantId: 'standard', name: 'Standard', price: rupees(1_500) }],
      },
      { listingId: LISTING, vasId: 'transfer', name: 'Transfer', pricing: 'PER_UNIT', variants: [{ variantId: 'sedan', name: 'Sedan', price: rupees(2_500) }] },
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
      { planId: 'moderate', name: 'Moderate', planType: 'MODERATE', discountPercent: 5, schedule: [] },
      { planId: 'non-refundable', name: 'Non-refundable', planType: 'NON_REFUNDABLE', discountPercent: 15, schedule: [] },
    ],
    channel: { channelId: 'ota-web', name: 'OTA web', rateAdjustmentPercent: 0 },
    bankOffers: [],
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
    today: TODAY,
    ...over,
  };
}

function request(over: Partial<OrderRequest> = {}): OrderRequest {
  return {
    listingId: LISTING,
    checkIn: CHECK_IN,
    checkOut: addDays(CHECK_IN, 2),
    adults: 2,
    selectedProperties: [{ propertyId: ROOM.id, quantity: 1 }],
    ...over,
  };
}

const price = (req: Partial<OrderRequest> = {}, ctx: Partial<PricingContext> = {}) => priceOrder({ request: request(req), context: context(ctx) });

function refusal(run: () => unknown): ValidationError {
  try {
    run();
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('Rounding', () => {
  it('percentOf rounds half up to the paisa', () => {
    expect(percentOf(12_345, 5)).toBe(617);
    expect(percentOf(12_350, 5)).toBe(618);
    expect(percentOf(100_001, 18)).toBe(18_000);
    expect(percentOf(0, 18)).toBe(0);
  });

  it('percentOf takes a percent with two decimals exactly and refuses finer ones', () => {
    expect(percentOf(100_000, 0.25)).toBe(250);
    expect(() => percentOf(100_000, 0.125)).toThrow(RangeError);
  });

  it('apportion splits proportionally and adds up exactly, leftovers to the largest weights', () => {
    expect(apportion(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(apportion(10, [1, 3])).toEqual([2, 8]);
    expect(apportion(7, [0, 0])).toEqual([4, 3]);
    expect(apportion(0, [])).toEqual([]);
  });

  it('apportion stays exact past 2^53 for amount × weight', () => {
    const shares = apportion(3_400_000_000, [5_000_000, 17_000_000_000, 3]);
    expect(shares.reduce((a, b) => a + b)).toBe(3_400_000_000);
  });

  it('perNightOf rounds half up; wholePercentDown rounds down', () => {
    expect(perNightOf(1_000, 3)).toBe(333);
    expect(perNightOf(1_001, 2)).toBe(501);
    expect(wholePercentDown(1_999, 10_000)).toBe(19);
    expect(wholePercentDown(5, 0)).toBe(0);
  });
});

describe('Occupancy', () => {
  it('fills included places round the units first, then extra places', () => {
    expect(allocateParty([ROOM, ROOM], 5, 2)).toEqual([
      { propertyId: 'room', unit: 1, adults: 3, children: 1 },
      { propertyId: 'room', unit: 2, adults: 2, children: 1 },
    ]);
  });

  it('refuses more adults than the selected units hold, naming adults', () => {
    const err = refusal(() => price({ adults: 4 }));
    expect(err.param).toBe('adults');
    expect(err.message).toContain('At most 3 adults');
  });

  it('refuses more children than the selected units hold, naming children', () => {
    expect(refusal(() => price({ children: 2 })).param).toBe('children');
  });

  it('does not count infants towards capacity or price', () => {
    expect(price({ infants: 3 }).summary).toEqual(price({ infants: 0 }).summary);
  });

  it('prices a unit left without an adult at its single-occupancy rate', () => {
    const order = price({ adults: 1, selectedProperties: [{ propertyId: ROOM.id, quantity: 2 }] });
    expect(order.breakdown.unitNights.map((u) => [u.adults, u.base])).toEqual([
      [1, rupees(4_000)],
      [0, rupees(4_000)],
      [1, rupees(4_000)],
      [0, rupees(4_000)],
    ]);
  });

  it('chooses the smallest single unit that holds the party for a listing-level booking', () => {
    expect(chooseUnits([VILLA, ROOM], 3, 1)).toEqual([{ propertyId: 'room', quantity: 1 }]);
    expect(chooseUnits([VILLA, ROOM], 7, 0)).toEqual([{ propertyId: 'villa', quantity: 1 }]);
  });

  it('chooses the fewest units, largest first, when no single unit holds the party', () => {
    expect(chooseUnits([ROOM, VILLA], 12, 3)).toEqual([
      { propertyId: 'villa', quantity: 1 },
      { propertyId: 'room', quantity: 2 },
    ]);
  });

  it('prices a listing-level booking on the chosen units and reports them', () => {
    const order = price({ adults: 10, selectedProperties: undefined });
    expect(order.breakdown.selectedProperties).toEqual([
      { propertyId: 'villa', quantity: 1 },
      { propertyId: 'room', quantity: 1 },
    ]);
  });

  it('refuses a listing-level party larger than the whole listing, naming adults', () => {
    expect(refusal(() => price({ adults: 18, selectedProperties: [] })).param).toBe('adults');
  });
});

describe('Nightly base', () => {
  it('takes the occupancy rate for the adults in the unit on the EP plan by default', () => {
    const order = price({ adults: 1 });
    expect(order.breakdown.mealPlan).toBe('EP');
    expect(order.summary.baseSubtotal).toBe(2 * rupees(4_000));
  });

  it('takes the requested meal plan', () => {
    expect(price({ mealPlan: 'CP' }).summary.baseSubtotal).toBe(2 * rupees(4_500 + 1_000));
  });

  it('refuses an unknown meal plan', () => {
    expect(refusal(() => price({ mealPlan: 'XX' as never })).param).toBe('mealPlan');
  });

  it('adds extra adults and children beyond the included places at their rates', () => {
    const order = price({ adults: 8, children: 2, selectedProperties: [{ propertyId: VILLA.id, quantity: 1 }] });
    const night = order.breakdown.unitNights[0]!;
    expect([night.occupancyRate, night.extraAdults, night.extraChildren, night.base]).toEqual([rupees(14_500), 2, 0, rupees(14_500 + 2 * 1_500)]);
    const withChild = price({ adults: 3, children: 1 }).breakdown.unitNights[0]!;
    expect([withChild.extraAdults, withChild.extraChildren, withChild.base]).toEqual([1, 0, rupees(4_500 + 800)]);
  });

  it('charges a child beyond applicableChild at extraChildRate', () => {
    const tight = property({ id: 'room', applicableChild: 0 });
    const order = price({ adults: 2, children: 1 }, { properties: [tight, VILLA] });
    expect(order.breakdown.unitNights[0]!.base).toBe(rupees(4_500 + 400));
  });

  it('applies the channel rate to occupancy and extra rates, to whole rupees', () => {
    const order = price({ adults: 3 }, { channel: { channelId: 'ota-web', name: 'B2B', rateAdjustmentPercent: -10 } });
    const night = order.breakdown.unitNights[0]!;
    expect([night.occupancyRate, night.extraAdultRate, night.base]).toEqual([rupees(4_050), rupees(720), rupees(4_770)]);
  });
});

describe('Sold out', () => {
  const soldOutWith = (inv: DayInventory | null, date = CHECK_IN) => {
    const days = daysFor(ROOM, 4_000);
    days.set(date, { inventory: inv, rates: ratesFor(ROOM, 4_000) });
    return price({ selectedProperties: [{ propertyId: ROOM.id, quantity: 2 }], adults: 2 }, { days: new Map([[ROOM.id, days]]) });
  };

  it('marks the item sold out when a night has fewer units than asked, still priced', () => {
    const order = soldOutWith({ ...OPEN, quantity: 1 });
    expect(order.items[0]!.soldOut).toBe(true);
    expect(order.breakdown.soldOutNights).toEqual([{ propertyId: 'room', date: CHECK_IN, reason: 'NOT_ENOUGH_UNITS', requiredUnits: 2, availableUnits: 1 }]);
    expect(order.summary.baseSubtotal).toBe(4 * rupees(4_000));
  });

  it('marks stop-sell nights and nights without inventory', () => {
    expect(soldOutWith({ ...OPEN, stopSell: true }).breakdown.soldOutNights.map((s) => s.reason)).toEqual(['STOP_SELL']);
    expect(soldOutWith(null).breakdown.soldOutNights.map((s) => s.reason)).toEqual(['NO_INVENTORY']);
  });

  it('checks minimum and maximum stay on every night of the stay', () => {
    const min = soldOutWith({ ...OPEN, minimumStay: 3 }, addDays(CHECK_IN, 1));
    expect(min.breakdown.soldOutNights).toEqual([
      { propertyId: 'room', date: addDays(CHECK_IN, 1), reason: 'MINIMUM_STAY', requiredUnits: 2, availableUnits: 3, stayLimit: 3 },
    ]);
    expect(soldOutWith({ ...OPEN, maximumStay: 1 }).breakdown.soldOutNights.map((s) => s.reason)).toEqual(['MAXIMUM_STAY']);
  });

  it('prices a night without a rate at 0 and marks it NO_RATE', () => {
    const days = daysFor(ROOM, 4_000);
    days.set(CHECK_IN, { inventory: OPEN, rates: { CP: { '1': 1, '2': 1 } } });
    const order = price({}, { days: new Map([[ROOM.id, days]]) });
    expect(order.items[0]!.soldOut).toBe(true);
    expect(order.breakdown.unitNights[0]!).toMatchObject({ occupancyRate: null, base: 0 });
    expect(order.breakdown.soldOutNights.map((s) => s.reason)).toEqual(['NO_RATE']);
    expect(order.summary.baseSubtotal).toBe(rupees(4_500));
  });
});

describe('Why a stay cannot be sold (order items)', () => {
  const quoteWith = (changes: Record<string, Partial<DayInventory>>, req: Partial<OrderRequest> = {}) => {
    const days = daysFor(ROOM, 4_000);
    for (const [date, inv] of Object.entries(changes)) days.set(date, { inventory: { ...OPEN, ...inv }, rates: ratesFor(ROOM, 4_000) });
    return v.parse(OrderQuoteSchema, pricedJson(price(req, { days: new Map([[ROOM.id, days]]) })));
  };

  it('names a 3-night minimum on a 1-night stay, with the limit and the stay length, and still prices it', () => {
    // act
    const quote = quoteWith({ [CHECK_IN]: { minimumStay: 3 } }, { checkOut: addDays(CHECK_IN, 1) });

    // assess
    expect(quote.items[0]).toMatchObject({ soldOut: true, itemSubtotal: 4_500 });
    expect(quote.items[0]!.unavailableNights).toEqual([
      {
        propertyId: 'room',
        date: CHECK_IN,
        reason: 'MINIMUM_STAY',
        requiredUnits: 1,
        availableUnits: 3,
        stayLimit: 3,
        message: `Property room needs a stay of at least 3 nights over ${CHECK_IN}; this stay is 1 night.`,
      },
    ]);
  });

  it('names closed to arrival on the check-in night and closed to departure on the check-out date', () => {
    // act
    const quote = quoteWith({ [CHECK_IN]: { closedToArrival: true }, [addDays(CHECK_IN, 2)]: { closedToDeparture: true } });

    // assess
    expect(quote.items[0]!.unavailableNights.map((n) => [n.date, n.reason, n.message])).toEqual([
      [CHECK_IN, 'CLOSED_TO_ARRIVAL', `Property room is closed to arrival on ${CHECK_IN}; the stay cannot start then.`],
      [addDays(CHECK_IN, 2), 'CLOSED_TO_DEPARTURE', `Property room is closed to departure on ${addDays(CHECK_IN, 2)}; the stay cannot end then.`],
    ]);
  });

  it('names stop-sell and sold out (too few units) per night', () => {
    // act
    const quote = quoteWith(
      { [CHECK_IN]: { stopSell: true }, [addDays(CHECK_IN, 1)]: { quantity: 1 } },
      { selectedProperties: [{ propertyId: ROOM.id, quantity: 2 }] },
    );

    // assess
    expect(quote.items[0]!.unavailableNights.map((n) => n.message)).toEqual([
      `Property room is closed to sale (stop-sell) on ${CHECK_IN}.`,
      `Sold out: property room has 1 of the 2 units this stay needs on ${addDays(CHECK_IN, 1)}.`,
    ]);
  });

  it('lists nothing exactly when the item is not sold out', () => {
    // act
    const quote = quoteWith({});

    // assess
    expect(quote.items[0]).toMatchObject({ soldOut: false, unavailableNights: [] });
  });
});

describe('Meals', () => {
  it('charges adults and children per date, and the chef once per serving', () => {
    const order = price({ adults: 2, children: 1, meals: [{ mealId: 'dinner', dates: [CHECK_IN], adults: 2, children: 1, chefOnCall: true }] });
    expect(order.summary.mealsSubtotal).toBe(rupees(2 * 1_100 + 600 + 1_500));
  });

  it('charges every night of the stay when unsureOfDates, ignoring dates', () => {
    const order = price({ meals: [{ mealId: 'breakfast', dates: [addDays(CHECK_IN, 2)], unsureOfDates: true, adults: 2, children: 0 }] });
    expect(order.breakdown.meals.map((m) => m.date)).toEqual([CHECK_IN, addDays(CHECK_IN, 1)]);
    expect(order.summary.mealsSubtotal).toBe(2 * rupees(900));
  });

  it('allows the check-out date and defaults the headcount to the party', () => {
    const order = price({ children: 1, meals: [{ mealId: 'breakfast', dates: [addDays(CHECK_IN, 2)] }] });
    expect(order.breakdown.meals).toMatchObject([{ date: addDays(CHECK_IN, 2), adults: 2, children: 1, amount: rupees(1_150) }]);
  });

  it.each([
    [{ mealId: 'bbq', dates: [CHECK_IN] }, 'meals[0].mealId'],
    [{ mealId: 'breakfast', dates: [addDays(CHECK_IN, 3)] }, 'meals[0].dates'],
    [{ mealId: 'breakfast', dates: [CHECK_IN, CHECK_IN] }, 'meals[0].dates'],
    [{ mealId: 'breakfast', dates: [] }, 'meals[0].dates'],
    [{ mealId: 'breakfast', dates: [CHECK_IN], adults: 3 }, 'meals[0].adults'],
    [{ mealId: 'breakfast', dates: [CHECK_IN], children: 1 }, 'meals[0].children'],
    [{ mealId: 'breakfast', dates: [CHECK_IN], adults: 0, children: 0 }, 'meals[0].adults'],
  ])('refuses %j naming %s', (meal, param) => {
    expect(refusal(() => price({ meals: [meal] })).param).toBe(param);
  });
});

describe('Value-added services', () => {
  it('charges PER_STAY once, whatever the dates', () => {
    const order = price({ vas: [{ vasId: 'decoration', variantId: 'birthday', dates: [CHECK_IN, addDays(CHECK_IN, 1)], quantity: 2 }] });
    expect(order.breakdown.vas).toMatchObject([{ date: null, quantity: 2, amount: rupees(6_000) }]);
  });

  it('charges PER_NIGHT on every night when unsureOfDates, with dateQuantities overriding', () => {
    const order = price({
      vas: [{ vasId: 'bonfire', variantId: 'standard', unsureOfDates: true, quantity: 1, dateQuantities: [{ date: addDays(CHECK_IN, 1), quantity: 3 }] }],
    });
    expect(order.breakdown.vas.map((v) => [v.date, v.quantity, v.amount])).toEqual([
      [CHECK_IN, 1, rupees(1_500)],
      [addDays(CHECK_IN, 1), 3, rupees(4_500)],
    ]);
  });

  it('charges PER_UNIT on each date, and once when unsureOfDates', () => {
    const dated = price({ vas: [{ vasId: 'transfer', variantId: 'sedan', dates: [CHECK_IN, addDays(CHECK_IN, 2)], quantity: 2 }] });
    expect(dated.summary.vasSubtotal).toBe(rupees(10_000));
    const unsure = price({ vas: [{ vasId: 'transfer', variantId: 'sedan', unsureOfDates: true, quantity: 2 }] });
    expect(unsure.breakdown.vas).toMatchObject([{ date: null, quantity: 2, amount: rupees(5_000) }]);
  });

  it.each([
    [{ vasId: 'spa', variantId: 'x', dates: [CHECK_IN] }, 'vas[0].vasId'],
    [{ vasId: 'bonfire', variantId: 'deluxe', dates: [CHECK_IN] }, 'vas[0].variantId'],
    [{ vasId: 'bonfire', variantId: 'standard', dates: [] }, 'vas[0].dates'],
    [{ vasId: 'bonfire', variantId: 'standard', dates: [CHECK_IN], quantity: -1 }, 'vas[0].quantity'],
    [
      { vasId: 'bonfire', variantId: 'standard', dates: [CHECK_IN], dateQuantities: [{ date: addDays(CHECK_IN, 1), quantity: 2 }] },
      'vas[0].dateQuantities[0].date',
    ],
    [{ vasId: 'bonfire', variantId: 'standard', dates: [CHECK_IN], dateQuantities: [{ date: CHECK_IN, quantity: 1.5 }] }, 'vas[0].dateQuantities[0].quantity'],
  ])('refuses %j naming %s', (vas, param) => {
    expect(refusal(() => price({ vas: [vas] })).param).toBe(param);
  });
});

describe('Cancellation plan', () => {
  it('uses the listing default when none is asked for', () => {
    const item = price().items[0]!;
    expect([item.cancellationPlanId, item.cancellationPlanDiscount]).toEqual(['flexible', 0]);
  });

  it('takes its percent off the stay only, rounded half up', () => {
    const order = price({ cancellationPlanId: 'non-refundable', meals: [{ mealId: 'breakfast', dates: [CHECK_IN] }] });
    expect(order.summary.cancellationPlanDiscount).toBe(percentOf(rupees(9_000), 15));
    expect(order.summary.stayAfterCancellationPlan).toBe(rupees(9_000) - rupees(1_350));
    expect(order.items[0]!.itemSubtotal).toBe(rupees(7_650 + 900));
  });

  it('refuses a plan the listing does not offer, naming cancellationPlanId', () => {
    expect(refusal(() => price({ cancellationPlanId: 'moderate' })).param).toBe('cancellationPlanId');
  });

  it('dates each step back from check-in, drops steps already past and closes at check-in', () => {
    const plan = context().cancellationPlans[0]!;
    expect(cancellationPolicy(plan, '2026-05-10', TODAY)).toEqual([
      { cancelBy: '2026-05-08', refundPercentage: 50, label: '50% refund up to 2 days before check-in' },
      { cancelBy: '2026-05-10', refundPercentage: 0, label: 'No refund for cancellations after 2026-05-08' },
    ]);
  });

  it('gives a non-refundable plan one closing step', () => {
    expect(price({ cancellationPlanId: 'non-refundable' }).items[0]!.cancellationPolicy).toEqual([
      { cancelBy: CHECK_IN, refundPercentage: 0, label: 'Non-refundable: no refund on cancellation' },
    ]);
  });
});

describe('Bank offers', () => {
  const offers = [
    offer({ code: 'PCT10', percent: 10, maxDiscount: rupees(500) }),
    offer({ code: 'FLAT700', discountType: 'FLAT', percent: null, flatAmount: rupees(700) }),
    offer({ code: 'OTHER20', channelId: 'agents-b2b', percent: 20 }),
    offer({ code: 'ENDED', percent: 50, validTo: '2026-05-01' }),
  ];
  const withOffers = (req: Partial<OrderRequest>) => price(req, { bankOffers: offers });

  it('applies a requested code even when a richer offer exists', () => {
    const order = withOffers({ bankOfferCode: 'PCT10', applyBestBankOffer: true });
    expect(order.summary.bankOffer).toMatchObject({ code: 'PCT10', discountType: 'PERCENTAGE', discount: rupees(500), applied: true });
    expect(order.summary.priceAfterBankOffer).toBe(rupees(9_000 - 500));
  });

  it('matches codes ignoring case', () => {
    expect(withOffers({ bankOfferCode: 'flat700' }).summary.bankOffer?.code).toBe('FLAT700');
  });

  it('picks the largest eligible discount on the caller’s channel for applyBestBankOffer', () => {
    const order = withOffers({ applyBestBankOffer: true });
    expect(order.summary.bankOffer).toMatchObject({ code: 'FLAT700', discountType: 'FLAT', discount: rupees(700) });
    expect(order.summary.offersDiscount).toBe(rupees(700));
  });

  it('prices without an offer when none is eligible for applyBestBankOffer', () => {
    const order = price({ applyBestBankOffer: true }, { bankOffers: [offer({ code: 'BIG', minOrderValue: rupees(50_000) })] });
    expect(order.summary.bankOffer).toBeNull();
    expect(order.summary.priceAfterBankOffer).toBe(rupees(9_000));
  });

  it('applies no offer unless asked', () => {
    expect(withOffers({}).summary.bankOffer).toBeNull();
  });

  it('refuses an unknown code and another channel’s code with the same message', () => {
    const unknown = refusal(() => withOffers({ bankOfferCode: 'NOPE' }));
    const other = refusal(() => withOffers({ bankOfferCode: 'OTHER20' }));
    expect([unknown.param, other.param]).toEqual(['bankOfferCode', 'bankOfferCode']);
    expect(other.message).toBe(unknown.message.replace('NOPE', 'OTHER20'));
  });

  it.each([
    [offer({ code: 'X', validTo: '2026-05-01' }), 'it ended on 2026-05-01'],
    [offer({ code: 'X', validFrom: '2026-06-01' }), 'it can be used from 2026-06-01'],
    [offer({ code: 'X', stayFrom: '2026-06-01', stayTo: '2026-06-30' }), 'it is for check-in from 2026-06-01 to 2026-06-30'],
    [offer({ code: 'X', minNights: 3 }), 'it needs at least 3 nights; this stay has 2'],
    [offer({ code: 'X', minOrderValue: rupees(10_000) }), 'it needs an order value of at least ₹10000.00; this order is ₹9000.00'],
  ])('refuses an ineligible code and says why (%#)', (o, why) => {
    const err = refusal(() => price({ bankOfferCode: 'X' }, { bankOffers: [o] }));
    expect(err.param).toBe('bankOfferCode');
    expect(err.message).toContain(why);
  });

  it('never discounts more than the order value', () => {
    const order = price(
      { bankOfferCode: 'HUGE' },
      { bankOffers: [offer({ code: 'HUGE', discountType: 'FLAT', percent: null, flatAmount: rupees(1_00_000) })] },
    );
    expect(order.summary.priceAfterBankOffer).toBe(0);
    expect(order.summary.grandTotal).toBe(0);
  });
});

describe('GST', () => {
  it('chooses the slab per unit-night by its value after discounts', () => {
    const order = price({
      adults: 6,
      selectedProperties: [
        { propertyId: VILLA.id, quantity: 1 },
        { propertyId: ROOM.id, quantity: 1 },
      ],
    });
    expect(order.breakdown.unitNights.map((u) => [u.propertyId, u.taxableValue, u.gstRatePercent])).toEqual([
      ['villa', rupees(13_500), 18],
      ['room', rupees(4_500), 5],
      ['villa', rupees(13_500), 18],
      ['room', rupees(4_500), 5],
    ]);
    expect(order.summary.gst).toBe(2 * (rupees(2_430) + rupees(225)));
  });

  it('drops a unit-night into the lower slab when a discount takes it under the bound', () => {
    const villa = property({ id: 'room', applicableAdult: 2, quantity: 3 });
    const days = new Map([[villa.id, daysFor(villa, 7_600)]]);
    const full = price({ adults: 1 }, { properties: [villa], days });
    const discounted = price({ adults: 1, cancellationPlanId: 'non-refundable' }, { properties: [villa], days });
    expect(full.breakdown.unitNights[0]!.gstRatePercent).toBe(18);
    expect(discounted.breakdown.unitNights[0]!.gstRatePercent).toBe(5);
  });

  it('uses the slab table in force on each night', () => {
    const order = price(
      { checkIn: '2025-09-21', checkOut: '2025-09-23' },
      { today: '2025-09-01', days: new Map([[ROOM.id, daysFor(ROOM, 4_000, '2025-09-01')]]) },
    );
    expect(order.breakdown.unitNights.map((u) => u.gstRatePercent)).toEqual([12, 5]);
  });

  it('refuses to price a night no slab table covers as our set-up to fix (503 to retry later), never as a defect', () => {
    const run = () =>
      price({ checkIn: '2019-09-29', checkOut: '2019-10-01' }, { today: '2019-09-01', days: new Map([[ROOM.id, daysFor(ROOM, 4_000, '2019-09-01')]]) });

    expect(run).toThrow(PricingNotConfiguredError);
    expect(run).toThrow('No GST rate is set up for 2019-09-29');
  });

  it('taxes meals and services at the highest rate of the stay', () => {
    const order = price({
      adults: 6,
      selectedProperties: [
        { propertyId: VILLA.id, quantity: 1 },
        { propertyId: ROOM.id, quantity: 1 },
      ],
      meals: [{ mealId: 'breakfast', dates: [CHECK_IN] }],
      vas: [{ vasId: 'decoration', variantId: 'birthday' }],
    });
    expect([...order.breakdown.meals, ...order.breakdown.vas].map((l) => l.gstRatePercent)).toEqual([18, 18]);
  });
});

describe('Request checks', () => {
  it.each([
    [{ checkIn: '2026-02-30' }, 'checkIn'],
    [{ checkIn: '2026-05-03', checkOut: '2026-05-05' }, 'checkIn'],
    [{ checkOut: 'soon' }, 'checkOut'],
    [{ checkOut: CHECK_IN }, 'checkOut'],
    [{ checkOut: addDays(CHECK_IN, MAX_STAY_NIGHTS + 1) }, 'checkOut'],
    [{ adults: 0 }, 'adults'],
    [{ adults: 1.5 }, 'adults'],
    [{ children: -1 }, 'children'],
    [{ infants: -1 }, 'infants'],
    [{ selectedProperties: [{ propertyId: 'elsewhere', quantity: 1 }] }, 'selectedProperties[0].propertyId'],
    [
      {
        selectedProperties: [
          { propertyId: 'room', quantity: 1 },
          { propertyId: 'room', quantity: 1 },
        ],
      },
      'selectedProperties[1].propertyId',
    ],
    [{ selectedProperties: [{ propertyId: 'room', quantity: 0 }] }, 'selectedProperties[0].quantity'],
  ])('refuses %j naming %s', (req, param) => {
    const err = refusal(() => price(req as Partial<OrderRequest>));
    expect(err.param).toBe(param);
    expect(err.message).toContain(param);
    expect(err.code).toBe('VALIDATION_FAILED');
  });

  it('treats an order for another listing than the context as a programming error', () => {
    expect(() => price({ listingId: 'other' })).toThrow(RangeError);
  });
});

describe('A night without a GST slab table, as the partner sees it', () => {
  it('is answered 503 SERVICE_UNAVAILABLE with Retry-After, naming the night', async () => {
    const { errorResult } = await import('../../functions/http/responses.ts');
    const state = { requestId: 'r', path: '/v1/orders', method: 'POST', receivedAt: new Date() };

    const res = errorResult(state, new PricingNotConfiguredError('2019-09-29'));

    expect(res.statusCode).toBe(503);
    expect(res.headers['Retry-After']).toBe('3600');
    expect(JSON.parse(res.body as string)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('2019-09-29') });
  });
});

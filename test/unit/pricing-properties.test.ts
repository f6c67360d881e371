import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import type { DayData } from '../../domain/catalogue/day.ts';
import type { BankOffer } from '../../domain/catalogue/offers.ts';
import type { Property } from '../../domain/catalogue/property.ts';
import { ValidationError } from '../../domain/errors.ts';
import {
  allocateParty,
  chooseUnits,
  priceOrder,
  priceStay,
  searchPrice,
  staySellable,
  type PricedOrder,
  type PriceOrderInput,
  type PricingContext,
} from '../../domain/pricing/index.ts';
import { amendmentMoney, breakdownDelta, breakdownOf, type Breakdown } from '../../domain/bookings/amendment.ts';

const LISTING = 'maharashtra-lonavala-misty-meadows';
const TODAY = '2026-01-10';
const rupees = (r: number) => r * 100;

interface PropertyShape {
  readonly applicableAdult: number;
  readonly extraAdults: number;
  readonly applicableChild: number;
  readonly extraChildren: number;
  readonly extraAdultRate: number;
  readonly extraChildRate: number;
  readonly quantity: number;
  readonly nightly: readonly (readonly number[])[];
  readonly inventory: readonly ({ quantity: number; minimumStay: number; maximumStay: number; stopSell: boolean } | null)[];
}

const MAX_NIGHTS = 5;

const propertyShape: fc.Arbitrary<PropertyShape> = fc.record({
  applicableAdult: fc.integer({ min: 1, max: 4 }),
  extraAdults: fc.integer({ min: 0, max: 2 }),
  applicableChild: fc.integer({ min: 0, max: 2 }),
  extraChildren: fc.integer({ min: 0, max: 2 }),
  extraAdultRate: fc.integer({ min: 0, max: 3_000 }),
  extraChildRate: fc.integer({ min: 0, max: 1_500 }),
  quantity: fc.integer({ min: 1, max: 3 }),
  nightly: fc.array(fc.array(fc.integer({ min: 300, max: 40_000 }), { minLength: 4, maxLength: 4 }), { minLength: MAX_NIGHTS, maxLength: MAX_NIGHTS }),
  inventory: fc.array(
    fc.option(
      // Mostly open nights, so sold-out and open stays both come up often.
      fc.record({
        quantity: fc.constantFrom(3, 3, 3, 3, 3, 3, 3, 3, 2, 0),
        minimumStay: fc.constantFrom(1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3),
        maximumStay: fc.constantFrom(30, 30, 30, 30, 30, 30, 30, 30, 30, 2),
        stopSell: fc.constantFrom(...Array.from({ length: 19 }, () => false), true),
      }),
      { freq: 60 },
    ),
    { minLength: MAX_NIGHTS, maxLength: MAX_NIGHTS },
  ),
});

const offerShape = fc.record({
  percentage: fc.boolean(),
  percent: fc.integer({ min: 1, max: 60 }),
  flat: fc.integer({ min: 0, max: 20_000 }),
  cap: fc.option(fc.integer({ min: 0, max: 10_000 })),
  minOrderValue: fc.integer({ min: 0, max: 30_000 }),
  minNights: fc.integer({ min: 0, max: 4 }),
  otherChannel: fc.boolean(),
});

const scenario = fc
  .record({
    properties: fc.array(propertyShape, { minLength: 1, maxLength: 3 }),
    nights: fc.integer({ min: 1, max: MAX_NIGHTS }),
    leadDays: fc.integer({ min: 0, max: 60 }),
    rateAdjustmentPercent: fc.integer({ min: -30, max: 50 }),
    planDiscount: fc.integer({ min: 0, max: 40 }),
    offers: fc.array(offerShape, { maxLength: 3 }),
    applyBest: fc.constantFrom(true, true, false),
    listingLevel: fc.boolean(),
    picks: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 }),
    adultShare: fc.double({ min: 0, max: 1, noNaN: true }),
    childShare: fc.double({ min: 0, max: 1, noNaN: true }),
    meals: fc.array(
      fc.record({ meal: fc.integer({ min: 0, max: 1 }), unsure: fc.boolean(), chef: fc.boolean(), firstNight: fc.integer({ min: 0, max: MAX_NIGHTS }) }),
      { maxLength: 2 },
    ),
    vas: fc.array(
      fc.record({
        vas: fc.integer({ min: 0, max: 2 }),
        unsure: fc.boolean(),
        quantity: fc.integer({ min: 0, max: 4 }),
        override: fc.option(fc.integer({ min: 0, max: 5 })),
      }),
      { maxLength: 3 },
    ),
    gstBound: fc.integer({ min: 1_000, max: 20_000 }),
  })
  .map(build);

/** A valid order over a random catalogue: every request value is inside the rules, so pricing never refuses it. */
function build(s: {
  properties: PropertyShape[];
  nights: number;
  leadDays: number;
  rateAdjustmentPercent: number;
  planDiscount: number;
  offers: { percentage: boolean; percent: number; flat: number; cap: number | null; minOrderValue: number; minNights: number; otherChannel: boolean }[];
  applyBest: boolean;
  listingLevel: boolean;
  picks: number[];
  adultShare: number;
  childShare: number;
  meals: { meal: number; unsure: boolean; chef: boolean; firstNight: number }[];
  vas: { vas: number; unsure: boolean; quantity: number; override: number | null }[];
  gstBound: number;
}): PriceOrderInput {
  const checkIn = addDays(TODAY, s.leadDays);
  const checkOut = addDays(checkIn, s.nights);
  const nights = Array.from({ length: s.nights }, (_, i) => addDays(checkIn, i));
  const properties: Property[] = s.properties.map((p, i) => ({
    id: `p${i}`,
    listingId: LISTING,
    name: `Property ${i}`,
    title: `Property ${i}`,
    brand: 'Sahyadri Stays',
    type: 'ROOM',
    bedrooms: 1,
    bathrooms: 1,
    numberOfBeds: 1,
    maxAdults: p.applicableAdult + p.extraAdults,
    maxChildren: p.applicableChild + p.extraChildren,
    applicableAdult: p.applicableAdult,
    applicableChild: p.applicableChild,
    extraAdultRate: rupees(p.extraAdultRate),
    extraChildRate: rupees(p.extraChildRate),
    quantity: p.quantity,
    isPetFriendly: false,
    numberOfPets: 0,
    isStressed: false,
    isHighDemand: false,
    imageUrl: '',
    photos: [],
    amenities: [],
    location: '',
    latitude: 18,
    longitude: 73,
    basePrice: rupees(p.nightly[0]![0]!),
  }));
  const days = new Map(
    properties.map((p, i) => {
      const shape = s.properties[i]!;
      const byDate = new Map<string, DayData>();
      nights.forEach((date, n) => {
        // Drop the one-adult rate now and then, so nights without a rate occur.
        const rates = Object.fromEntries(
          Array.from({ length: p.applicableAdult }, (_, a) => [String(a + 1), rupees(shape.nightly[n]![a]!)]).filter(
            ([k]) => !(k === '1' && shape.nightly[n]![3]! < 700),
          ),
        );
        byDate.set(date, { inventory: shape.inventory[n]!, rates: { EP: rates } });
      });
      return [p.id, byDate] as const;
    }),
  );

  const selected = s.listingLevel
    ? undefined
    : properties.map((p, i) => ({ propertyId: p.id, quantity: Math.min(p.quantity, s.picks[i]!) })).filter((x) => x.quantity > 0);
  const units = selected?.length
    ? selected.flatMap((x) => Array.from({ length: x.quantity }, () => properties.find((p) => p.id === x.propertyId)!))
    : properties.flatMap((p) => Array.from({ length: p.quantity }, () => p));
  const adultRoom = units.reduce((n, u) => n + u.maxAdults, 0);
  const childRoom = units.reduce((n, u) => n + u.maxChildren, 0);
  const adults = 1 + Math.floor(s.adultShare * (adultRoom - 1));
  const children = Math.floor(s.childShare * childRoom);

  const offers: BankOffer[] = s.offers.map((o, i) => ({
    channelId: o.otherChannel ? 'agents-b2b' : 'ota-web',
    code: `OFFER${i}`,
    title: `Offer ${i}`,
    discountType: o.percentage ? 'PERCENTAGE' : 'FLAT',
    percent: o.percentage ? o.percent : null,
    flatAmount: o.percentage ? null : rupees(o.flat),
    maxDiscount: o.percentage && o.cap !== null ? rupees(o.cap) : null,
    minOrderValue: rupees(o.minOrderValue),
    stayFrom: null,
    stayTo: null,
    minNights: o.minNights,
    validFrom: null,
    validTo: null,
  }));

  const context: PricingContext = {
    listing: {
      id: LISTING,
      title: 'Misty Meadows',
      type: 'BUNGALOW',
      status: 'ACTIVE',
      brand: 'Sahyadri Stays',
      locality: 'Tungarli',
      city: 'Lonavala',
      state: 'Maharashtra',
      country: 'India',
      addressLine: '',
      latitude: 18,
      longitude: 73,
      maxAdults: 20,
      maxChildren: 10,
      basePrice: rupees(5_000),
      amenities: [],
      tags: [],
      coverPicture: '',
      rating: 4.2,
      reviewCount: 3,
      usps: [],
      badges: [],
      cancellationPlanIds: ['plan'],
      defaultCancellationPlanId: 'plan',
    },
    properties,
    days,
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
    ],
    vas: [
      { listingId: LISTING, vasId: 'decoration', name: 'Decoration', pricing: 'PER_STAY', variants: [{ variantId: 'v', name: 'V', price: rupees(3_000) }] },
      { listingId: LISTING, vasId: 'bonfire', name: 'Bonfire', pricing: 'PER_NIGHT', variants: [{ variantId: 'v', name: 'V', price: rupees(1_500) }] },
      { listingId: LISTING, vasId: 'transfer', name: 'Transfer', pricing: 'PER_UNIT', variants: [{ variantId: 'v', name: 'V', price: rupees(2_499.5) }] },
    ],
    cancellationPlans: [
      {
        planId: 'plan',
        name: 'Plan',
        planType: 'MODERATE',
        discountPercent: s.planDiscount,
        schedule: [{ daysBeforeCheckIn: 7, refundPercentage: 100, label: 'Full refund' }],
      },
    ],
    channel: { channelId: 'ota-web', name: 'OTA web', rateAdjustmentPercent: s.rateAdjustmentPercent },
    bankOffers: offers,
    gstSlabTables: [
      {
        effectiveFrom: '2025-09-22',
        slabs: [
          { upToPerUnitNight: rupees(s.gstBound), ratePercent: 5 },
          { upToPerUnitNight: null, ratePercent: 18 },
        ],
      },
    ],
    today: TODAY,
  };

  const dated = (first: number) => [addDays(checkIn, Math.min(first, s.nights)), checkOut].filter((d, i, all) => all.indexOf(d) === i);
  return {
    request: {
      listingId: LISTING,
      checkIn,
      checkOut,
      adults,
      children,
      infants: 0,
      ...(selected ? { selectedProperties: selected } : {}),
      meals: s.meals.map((m) => ({
        mealId: m.meal === 0 ? 'breakfast' : 'dinner',
        dates: dated(m.firstNight),
        unsureOfDates: m.unsure,
        adults,
        children,
        chefOnCall: m.chef,
      })),
      vas: s.vas.map((v) => {
        const dates = dated(0);
        return {
          vasId: ['decoration', 'bonfire', 'transfer'][v.vas]!,
          variantId: 'v',
          dates,
          unsureOfDates: v.unsure,
          quantity: v.quantity,
          dateQuantities: v.override !== null && !v.unsure ? [{ date: dates[0]!, quantity: v.override }] : [],
        };
      }),
      applyBestBankOffer: s.applyBest,
    },
    context,
  };
}

/** Every number in the priced order, with where it sits. */
function numbers(value: unknown, path = ''): [string, number][] {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbers(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => numbers(v, `${path}.${k}`));
  return [];
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function checkIdentities(o: PricedOrder): void {
  const s = o.summary;
  const b = o.breakdown;
  const bank = s.bankOffer?.discount ?? 0;
  expect(s.baseSubtotal - s.cancellationPlanDiscount).toBe(s.stayAfterCancellationPlan);
  expect(s.stayAfterCancellationPlan + s.mealsSubtotal + s.vasSubtotal - bank).toBe(s.priceAfterBankOffer);
  expect(s.offersDiscount).toBe(s.cancellationPlanDiscount + bank);
  expect(s.taxableSubtotal).toBe(s.priceAfterBankOffer);
  expect(s.taxableSubtotal + s.gst).toBe(s.grandTotal);
  expect(sum(o.items.map((i) => i.itemSubtotal))).toBe(s.stayAfterCancellationPlan + s.mealsSubtotal + s.vasSubtotal);
  expect(sum(o.items.map((i) => i.cancellationPlanDiscount))).toBe(s.cancellationPlanDiscount);

  const lines = [...b.unitNights, ...b.meals, ...b.vas];
  expect(sum(b.unitNights.map((l) => l.base))).toBe(s.baseSubtotal);
  expect(sum(b.meals.map((l) => l.amount))).toBe(s.mealsSubtotal);
  expect(sum(b.vas.map((l) => l.amount))).toBe(s.vasSubtotal);
  expect(sum(lines.map((l) => l.cancellationPlanDiscount))).toBe(s.cancellationPlanDiscount);
  expect(sum(lines.map((l) => l.bankOfferDiscount))).toBe(bank);
  expect(sum(lines.map((l) => l.taxableValue))).toBe(s.taxableSubtotal);
  expect(sum(lines.map((l) => l.gst))).toBe(s.gst);
  expect(sum(lines.map((l) => l.total))).toBe(s.grandTotal);
  expect(o.items[0]!.soldOut).toBe(b.soldOutNights.length > 0);
}

describe('Function: priceOrder › properties over random orders', () => {
  it('keeps every summary identity and every line sum', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        checkIdentities(priceOrder(input));
      }),
      { numRuns: 400 },
    );
  });

  it('never gives a negative amount, and every number is a safe integer', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const bad = numbers(priceOrder(input)).filter(([, n]) => !Number.isSafeInteger(n) || n < 0);
        expect(bad).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('gives identical outputs for identical inputs', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const copy = structuredClone(input);
        expect(JSON.stringify(priceOrder(copy))).toBe(JSON.stringify(priceOrder(input)));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the bank discount within the offer’s terms', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const { summary } = priceOrder(input);
        if (!summary.bankOffer) return;
        const offer = input.context.bankOffers.find((o) => o.code === summary.bankOffer!.code)!;
        expect(offer.channelId).toBe(input.context.channel.channelId);
        if (offer.maxDiscount !== null) expect(summary.bankOffer.discount).toBeLessThanOrEqual(offer.maxDiscount);
        if (offer.flatAmount !== null) expect(summary.bankOffer.discount).toBeLessThanOrEqual(offer.flatAmount);
        expect(summary.stayAfterCancellationPlan + summary.mealsSubtotal + summary.vasSubtotal).toBeGreaterThanOrEqual(offer.minOrderValue);
      }),
      { numRuns: 300 },
    );
  });

  it('either applies a requested code or refuses it naming bankOfferCode', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 3 }), (input, pick) => {
        const code = `OFFER${pick}`;
        const withCode = { ...input, request: { ...input.request, bankOfferCode: code, applyBestBankOffer: true } };
        try {
          expect(priceOrder(withCode).summary.bankOffer?.code).toBe(code);
        } catch (err) {
          expect(err).toBeInstanceOf(ValidationError);
          expect((err as ValidationError).param).toBe('bankOfferCode');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives a search price whose saving is exactly the difference of its totals', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const price = searchPrice(priceOrder(input));
        expect(price.totalBeforeDiscount - price.totalSaving).toBe(price.total);
        expect(price.perNight).toBeLessThanOrEqual(price.perNightBeforeDiscount);
        expect(price.discountPercent).toBeLessThanOrEqual(100);
      }),
      { numRuns: 200 },
    );
  });
});

describe('Function: staySellable › properties over random stays', () => {
  it('is true exactly when priceStay finds no sold-out night (NO_RATE, inventory, stop-sell, stay limits)', () => {
    let sellable = 0;
    fc.assert(
      fc.property(scenario, ({ request, context }) => {
        // The scenario always states the party.
        const adults = request.adults!;
        const children = request.children!;
        const selected = request.selectedProperties?.length ? request.selectedProperties : chooseUnits(context.properties, adults, children);
        const properties = new Map(context.properties.map((p) => [p.id, p]));
        const units = selected.flatMap((s) => Array.from({ length: s.quantity }, () => properties.get(s.propertyId)!));
        const nights = Array.from({ length: (Date.parse(request.checkOut) - Date.parse(request.checkIn)) / 86_400_000 }, (_, i) => addDays(request.checkIn, i));
        const stay = { occupancy: allocateParty(units, adults, children), selected, properties, nights, days: context.days, mealPlan: 'EP' as const };
        const expected = priceStay({ ...stay, rateAdjustmentPercent: context.channel.rateAdjustmentPercent }).soldOutNights.length === 0;
        if (expected) sellable++;
        expect(staySellable(stay)).toBe(expected);
      }),
      // Seeded: the counts below must not depend on the draw.
      { numRuns: 400, seed: 20261125 },
    );
    // Both answers must come up, or the property proves nothing.
    expect(sellable).toBeGreaterThan(20);
    expect(sellable).toBeLessThan(380);
  });
});

describe('Function: breakdownOf and amendmentMoney › properties over random pairs of orders', () => {
  const identity = (b: Breakdown) => b.stay - b.discount + b.meals + b.vas + b.tax === b.total;

  it('keeps stay − discount + meals + vas + tax = total on the current, the amended and the delta side', () => {
    fc.assert(
      fc.property(scenario, scenario, fc.integer({ min: 1, max: 10_000_000_00 }), (a, b, previousTotal) => {
        const current = breakdownOf(priceOrder(a).summary);
        const amended = breakdownOf(priceOrder(b).summary);
        const delta = breakdownDelta(amended, current);
        expect([identity(current), identity(amended), identity(delta)]).toEqual([true, true, true]);
        const money = amendmentMoney(previousTotal, current, amended);
        expect(money.amendmentDelta).toBe(delta.total);
        expect(money.newTotal).toBe(previousTotal + delta.total);
        expect(money.delta).toBe(money.newTotal - money.previousTotal);
        expect(money.rateDriftAbsorbed).toBe(current.total - previousTotal);
      }),
      { numRuns: 300 },
    );
  });
});

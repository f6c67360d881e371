import fc from 'fast-check';
import { addDays } from '../../domain/catalogue/calendar.ts';
import type { SearchBody } from '../../domain/search/search-listings.ts';
import type { WorldInput } from '../../domain/world/world-schema.ts';

/**
 * Generated catalogues and searches for the equivalence property of the search
 * projection (docs/search.md): listings over a few places, one or two channels each,
 * properties of every size, 45 days of inventory and rates across a month end with sold-out
 * nights, stop-sells, stay limits and missing rates; and searches using every filter.
 */
export const GEN_FROM = '2027-03-20';
export const GEN_DAYS = 45;
/** Today for generated searches: before GEN_FROM, so every generated stay is bookable by date. */
export const GEN_TODAY = '2027-03-15';

const PLACES = [
  { state: 'Goa', city: 'Anjuna', latitude: 15.58, longitude: 73.74 },
  { state: 'Goa', city: 'Assagao', latitude: 15.6, longitude: 73.76 },
  { state: 'Kerala', city: 'Munnar', latitude: 10.09, longitude: 77.06 },
];
const LOCALITIES = ['Ward A', 'Ward B'];
const TAGS = ['beach', 'pool', 'quiet'];
const AMENITIES = ['Wi-Fi', 'Pool', 'Barbecue'];

const propertyArb = fc.record({
  maxAdults: fc.integer({ min: 1, max: 6 }),
  applicableShare: fc.integer({ min: 0, max: 5 }),
  maxChildren: fc.integer({ min: 0, max: 2 }),
  quantity: fc.integer({ min: 1, max: 3 }),
  bedrooms: fc.integer({ min: 1, max: 3 }),
  isPetFriendly: fc.boolean(),
  amenity: fc.constantFrom(...AMENITIES),
  base: fc.integer({ min: 20, max: 120 }),
  cpRates: fc.boolean(),
  /** Days (from GEN_FROM) whose inventory is changed: sold out, stop-sold or stay-limited. */
  closures: fc.array(
    fc.record({ day: fc.integer({ min: 0, max: GEN_DAYS - 1 }), kind: fc.constantFrom('soldOut', 'stopSell', 'minStay', 'maxStay', 'noRate') }),
    { maxLength: 4 },
  ),
});

const listingArb = fc.record({
  place: fc.integer({ min: 0, max: PLACES.length - 1 }),
  locality: fc.constantFrom(...LOCALITIES),
  type: fc.constantFrom('VILLA', 'BUNGALOW'),
  brand: fc.constantFrom('Brand A', 'Brand B'),
  tags: fc.subarray(TAGS),
  amenities: fc.subarray(AMENITIES),
  rating: fc.integer({ min: 30, max: 50 }),
  reviewCount: fc.integer({ min: 0, max: 60 }),
  inactive: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  channels: fc.constantFrom('A', 'B', 'AB', 'A'),
  slot: fc.integer({ min: 0, max: 30 }),
  plans: fc.constantFrom('flex', 'both'),
  properties: fc.array(propertyArb, { minLength: 1, maxLength: 2 }),
});

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;
export type GenListing = ValueOf<typeof listingArb>;
export type GenSearch = ValueOf<typeof searchArb>;

export const catalogueArb = fc.array(listingArb, { minLength: 2, maxLength: 7 });

export interface GenIds {
  readonly channelA: string;
  readonly channelB: string;
  readonly plans: readonly string[];
  readonly listingIds: readonly string[];
  readonly propertyIds: readonly string[];
}

export const idsOf = (suffix: string, gen: readonly GenListing[]): GenIds => ({
  channelA: `gen-a-${suffix}`,
  channelB: `gen-b-${suffix}`,
  plans: [`gen-flex-${suffix}`, `gen-nonref-${suffix}`],
  listingIds: gen.map((_, i) => `gen-${suffix}-l${i}`),
  propertyIds: gen.flatMap((l, i) => l.properties.map((_, k) => `gen-${suffix}-l${i}-p${k}`)),
});

/** A listing of the world file, in place `place` (a sync can move it). */
export function listingInput(
  suffix: string,
  gen: GenListing,
  i: number,
  over: Partial<{ place: number; tags: string[]; inactive: boolean; channels: string }> = {},
) {
  const ids = idsOf(suffix, []);
  const place = PLACES[over.place ?? gen.place]!;
  const id = `gen-${suffix}-l${i}`;
  const channels = over.channels ?? gen.channels;
  return {
    id,
    title: `Generated villa ${i}`,
    type: gen.type,
    status: (over.inactive ?? gen.inactive) ? ('INACTIVE' as const) : ('ACTIVE' as const),
    brand: gen.brand,
    locality: gen.locality,
    city: place.city,
    state: place.state,
    addressLine: `${i} Generated Road`,
    latitude: Number((place.latitude + (gen.slot % 6) * 0.004).toFixed(5)),
    longitude: Number((place.longitude + Math.floor(gen.slot / 6) * 0.004).toFixed(5)),
    maxAdults: 20,
    maxChildren: 6,
    basePrice: 10_000,
    amenities: gen.amenities,
    tags: over.tags ?? gen.tags,
    coverPicture: 'https://images.example.com/gen.jpg',
    rating: gen.rating / 10,
    reviewCount: gen.reviewCount,
    channelIds: [...(channels.includes('A') ? [ids.channelA] : []), ...(channels.includes('B') ? [ids.channelB] : [])],
    cancellationPlanIds: gen.plans === 'both' ? ids.plans : [ids.plans[0]!],
    defaultCancellationPlanId: ids.plans[0]!,
    properties: gen.properties.map((p, k) => ({
      id: `${id}-p${k}`,
      name: `Unit ${k}`,
      type: 'SUITE',
      bedrooms: p.bedrooms,
      bathrooms: 1,
      numberOfBeds: p.bedrooms,
      maxAdults: p.maxAdults,
      maxChildren: p.maxChildren,
      applicableAdult: Math.max(1, p.maxAdults - (p.applicableShare % p.maxAdults)),
      applicableChild: Math.min(1, p.maxChildren),
      extraAdultRate: 900,
      extraChildRate: 400,
      quantity: p.quantity,
      isPetFriendly: p.isPetFriendly,
      imageUrl: 'https://images.example.com/gen-unit.jpg',
      amenities: [{ icon: 'i', name: p.amenity, category: 'Basics' }],
      basePrice: p.base * 100,
    })),
  };
}

/** The generated catalogue as a world file: two channels, two plans, GEN_DAYS days of inventory and rates. */
export function worldOf(suffix: string, gen: readonly GenListing[]): WorldInput {
  const ids = idsOf(suffix, gen);
  const to = addDays(GEN_FROM, GEN_DAYS - 1);
  const listings = gen.map((l, i) => listingInput(suffix, l, i));
  const inventory = gen.flatMap((l, i) =>
    l.properties.flatMap((p, k) => {
      const propertyId = `gen-${suffix}-l${i}-p${k}`;
      const closures = p.closures
        .filter((c) => c.kind !== 'noRate')
        .map((c) => {
          const date = addDays(GEN_FROM, c.day);
          const base = { propertyId, from: date, to: date, quantity: p.quantity, minimumStay: 1, maximumStay: 30 };
          switch (c.kind) {
            case 'soldOut':
              return { ...base, quantity: 0 };
            case 'stopSell':
              return { ...base, stopSell: true };
            case 'minStay':
              return { ...base, minimumStay: 3 };
            default:
              return { ...base, maximumStay: 2 };
          }
        });
      return [{ propertyId, from: GEN_FROM, to, quantity: p.quantity, minimumStay: 1, maximumStay: 30 }, ...closures];
    }),
  );
  const rates = gen.flatMap((l, i) =>
    l.properties.flatMap((p, k) => {
      const propertyId = `gen-${suffix}-l${i}-p${k}`;
      const applicable = Math.max(1, p.maxAdults - (p.applicableShare % p.maxAdults));
      const adults = (plus: number) => Object.fromEntries(Array.from({ length: applicable }, (_, a) => [String(a + 1), p.base * 100 + a * 700 + plus]));
      // A night without a rate: the rate range stops short of it (the search must find it sold out, as the order would).
      const gap = p.closures.find((c) => c.kind === 'noRate')?.day;
      const ranges =
        gap === undefined
          ? [[GEN_FROM, to]]
          : [
              [GEN_FROM, addDays(GEN_FROM, gap - 1)],
              [addDays(GEN_FROM, gap + 1), to],
            ].filter(([f, t]) => f! <= t!);
      return ranges.flatMap(([from, t]) => [
        { propertyId, from: from!, to: t!, mealPlan: 'EP' as const, adults: adults(0) },
        ...(p.cpRates ? [{ propertyId, from: from!, to: t!, mealPlan: 'CP' as const, adults: adults(1_200) }] : []),
      ]);
    }),
  );
  return {
    version: 1,
    channels: [
      { channelId: ids.channelA, name: 'Generated A' },
      { channelId: ids.channelB, name: 'Generated B', rateAdjustmentPercent: -10 },
    ],
    catalogue: {
      cancellationPlans: [
        { planId: ids.plans[0]!, name: 'Flexible', planType: 'FLEXIBLE', schedule: [{ daysBeforeCheckIn: 7, refundPercentage: 100, label: 'Full refund' }] },
        { planId: ids.plans[1]!, name: 'Non-refundable', planType: 'NON_REFUNDABLE', discountPercent: 10, schedule: [] },
      ],
      listings,
      inventory,
      rates,
      // Codes out of their titles' order; eligibility by nights and by order value, so offerTitles vary with the stay.
      offers: [
        { channelId: ids.channelA, code: 'ZED5', title: 'Any card 5 % off', discountType: 'PERCENTAGE', percent: 5, maxDiscount: 1_000 },
        { channelId: ids.channelA, code: 'LONG3', title: 'Three nights or more', discountType: 'FLAT', flatAmount: 300, minNights: 3 },
        { channelId: ids.channelA, code: 'BIG', title: 'Big stays', discountType: 'FLAT', flatAmount: 1_000, minOrderValue: 20_000 },
        { channelId: ids.channelB, code: 'BONLY', title: 'Channel B only', discountType: 'FLAT', flatAmount: 700 },
      ],
    },
  } as WorldInput;
}

/** The value once in `oneIn` cases, null otherwise (fc.option's freq works the other way round). */
const sometimes = <T>(arb: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

/** A generated search body; `ids` turns pin and plan indices into the run's ids (some unknown on purpose). */
export const searchArb = fc.record({
  start: fc.integer({ min: 0, max: GEN_DAYS - 8 }),
  nights: fc.integer({ min: 1, max: 6 }),
  adults: fc.integer({ min: 1, max: 14 }),
  children: fc.integer({ min: 0, max: 2 }),
  city: sometimes(
    fc.subarray(
      PLACES.map((p) => p.city),
      { minLength: 1 },
    ),
    2,
  ),
  state: sometimes(fc.constantFrom(['Goa'], ['kerala'], ['Goa', 'Kerala']), 4),
  locality: sometimes(fc.constantFrom(['Ward A'], ['ward b', 'Ward A']), 4),
  propertyType: sometimes(fc.constantFrom(['VILLA'], ['bungalow']), 5),
  brand: sometimes(fc.constantFrom(['Brand A'], ['Brand B']), 5),
  tags: sometimes(fc.subarray(TAGS, { minLength: 1, maxLength: 2 }), 4),
  amenities: sometimes(fc.subarray(['Wi-Fi', 'Pool', 'Barbecue'], { minLength: 1, maxLength: 2 }), 4),
  minPrice: sometimes(fc.integer({ min: 0, max: 200 }), 5),
  maxPrice: sometimes(fc.integer({ min: 100, max: 2_000 }), 4),
  petFriendly: sometimes(fc.boolean(), 5),
  minBedrooms: sometimes(fc.integer({ min: 1, max: 4 }), 5),
  mealPlan: sometimes(fc.constantFrom('EP', 'CP'), 3),
  sort: sometimes(fc.constantFrom('relevance', 'price_asc', 'price_desc', 'rating'), 2),
  page: sometimes(fc.integer({ min: 1, max: 3 }), 3),
  size: sometimes(fc.integer({ min: 1, max: 4 }), 2),
  pins: sometimes(
    fc.array(fc.record({ property: fc.integer({ min: 0, max: 30 }), quantity: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 2 }),
    5,
  ),
  plan: sometimes(fc.constantFrom(0, 1, 2), 4),
});

export function searchBody(q: GenSearch, ids: GenIds): SearchBody {
  const checkIn = addDays(GEN_FROM, q.start);
  const raw: [string, string[]][] = [
    ['checkIn', [checkIn]],
    ['checkOut', [addDays(checkIn, q.nights)]],
    ['adults', [String(q.adults)]],
    ['children', [String(q.children)]],
  ];
  const add = (name: string, value: readonly string[] | null) => value && raw.push([name, [...value]]);
  add('city', q.city);
  add('state', q.state);
  add('locality', q.locality);
  add('propertyType', q.propertyType);
  add('brand', q.brand);
  add('tags', q.tags);
  add('amenities', q.amenities);
  add('minPrice', q.minPrice === null ? null : [String(q.minPrice * 10)]);
  add('maxPrice', q.maxPrice === null ? null : [String(q.maxPrice * 10)]);
  add('petFriendly', q.petFriendly === null ? null : [String(q.petFriendly)]);
  add('minBedrooms', q.minBedrooms === null ? null : [String(q.minBedrooms)]);
  add('mealPlan', q.mealPlan === null ? null : [q.mealPlan]);
  add('sort', q.sort === null ? null : [q.sort]);
  add('page', q.page === null ? null : [String(q.page)]);
  add('size', q.size === null ? null : [String(q.size)]);
  const pins = q.pins
    ? [...new Map(q.pins.map((p): [string, number] => [ids.propertyIds[p.property] ?? `gen-unknown-${p.property}`, p.quantity])).entries()]
    : [];
  return {
    rawParams: raw.map(([filterName, filterValues]) => ({ filterName, filterValues })),
    ...(pins.length ? { selections: pins.map(([id, quantity]) => ({ type: 'PROPERTY', id, quantity })) } : {}),
    ...(q.plan === null ? {} : { selectedCancellationPlanId: q.plan === 2 ? 'gen-no-such-plan' : ids.plans[q.plan]! }),
  };
}

/** The outcome of a search, comparable with toEqual: the result, or the refusal's param and message. */
export async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await run() };
  } catch (err) {
    const e = err as { param?: string; message?: string; name?: string };
    if (e.param === undefined) throw err;
    return { refused: e.param, message: e.message };
  }
}

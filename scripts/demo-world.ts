import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WorldInput } from '../domain/world/world-schema.ts';

/**
 * The demo world: a realistic, deterministic catalogue for local development and tests.
 * `buildDemoWorld(today)` always returns the same document for the same date. Catalogue
 * content comes from a fixed seed, and each day's inventory pattern depends only on the
 * calendar date, so re-importing the next day changes only the days at the window's edges.
 *
 * CLI: `tsx scripts/demo-world.ts <out.json> [yyyy-mm-dd]` writes the document (today by default).
 */

/** Days of inventory and rates from `today`. */
export const DEMO_WINDOW_DAYS = 400;

export interface DemoCredential {
  readonly kind: 'partner' | 'agent-group';
  readonly ownerId: string;
  readonly key: string;
  readonly signingSecret: string | null;
  readonly note?: string;
}

/** Fixed plaintext credentials: local and test stages only (a production import refuses plaintext keys). */
export const DEMO_CREDENTIALS: readonly DemoCredential[] = [
  { kind: 'partner', ownerId: 'tripkart', key: 'pds_demo_partner_tripkart_01', signingSecret: null, note: 'reads channel ota-web' },
  { kind: 'partner', ownerId: 'yatrabiz', key: 'pds_demo_partner_yatrabiz_01', signingSecret: null, note: 'reads channel agents-b2b' },
  {
    kind: 'agent-group',
    ownerId: 'tripkart-agents',
    key: 'pds_demo_group_tripkart_agents_01',
    signingSecret: 'whsec_demo_tripkart_agents_01',
    note: 'ota-web, credit limit 5,00,000 INR',
  },
  {
    kind: 'agent-group',
    ownerId: 'yatrabiz-north',
    key: 'pds_demo_group_yatrabiz_north_01',
    signingSecret: 'whsec_demo_yatrabiz_north_01',
    note: 'agents-b2b, credit limit 50,000 INR',
  },
  {
    kind: 'agent-group',
    ownerId: 'yatrabiz-south',
    key: 'pds_demo_group_yatrabiz_south_01',
    signingSecret: 'whsec_demo_yatrabiz_south_01',
    note: 'agents-b2b, account on hold (bookings get 402)',
  },
];

/** The state whose supplier GST registration is deliberately missing (billing holds it back). */
export const UNREGISTERED_DEMO_STATE = 'Himachal Pradesh';

const SEED = 0x5eed_2026;

/** mulberry32: small, fast, and the same sequence on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a: a stable hash of a string, for patterns that must depend on the date alone. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const GSTIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A GSTIN with its real check character, so demo invoices look like the real thing. */
function gstin(stateCode: string, pan: string, entity = '1'): string {
  const body = `${stateCode}${pan}${entity}Z`;
  let sum = 0;
  [...body].forEach((ch, i) => {
    const product = GSTIN_CHARS.indexOf(ch) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  });
  return body + GSTIN_CHARS[(36 - (sum % 36)) % 36];
}

interface Place {
  readonly city: string;
  readonly localities: readonly string[];
  readonly lat: number;
  readonly lng: number;
}

interface StateSpec {
  readonly state: string;
  readonly stateCode: string;
  readonly type: string;
  readonly brand: string;
  /** Multiplier on nightly rates. */
  readonly priceLevel: number;
  /** Coastal states sell cheaper in the monsoon. */
  readonly monsoonDip: boolean;
  readonly places: readonly Place[];
  readonly names: readonly string[];
  readonly tags: readonly string[];
}

const STATES: readonly StateSpec[] = [
  {
    state: 'Goa',
    stateCode: '30',
    type: 'VILLA',
    brand: 'Coastal Collection',
    priceLevel: 1.25,
    monsoonDip: true,
    places: [
      { city: 'Anjuna', localities: ['Mazal Waddo', 'Flea Market Road'], lat: 15.5736, lng: 73.7407 },
      { city: 'Assagao', localities: ['Badem', 'Mapusa Road'], lat: 15.594, lng: 73.77 },
      { city: 'Candolim', localities: ['Fort Aguada Road', 'Escrivao Vaddo'], lat: 15.518, lng: 73.7627 },
      { city: 'Palolem', localities: ['Ourem', 'Colomb Bay'], lat: 15.01, lng: 74.0232 },
    ],
    names: ['Casa Azul', 'Villa Sossego', 'Casa Mangueira', 'The Salt House', 'Villa Coqueiro', 'Casa Lusa', 'Vila Maresia'],
    tags: ['beach', 'pool', 'party-friendly', 'portuguese-heritage'],
  },
  {
    state: 'Maharashtra',
    stateCode: '27',
    type: 'BUNGALOW',
    brand: 'Sahyadri Stays',
    priceLevel: 1.0,
    monsoonDip: false,
    places: [
      { city: 'Lonavala', localities: ['Tungarli', 'Khandala Ghat'], lat: 18.7546, lng: 73.4062 },
      { city: 'Alibaug', localities: ['Nagaon', 'Varsoli Beach'], lat: 18.6414, lng: 72.8722 },
      { city: 'Mahabaleshwar', localities: ['Panchgani Road', 'Venna Lake'], lat: 17.9307, lng: 73.6477 },
      { city: 'Karjat', localities: ['Kondivade', 'Ulhas Valley'], lat: 18.9107, lng: 73.3235 },
    ],
    names: ['Sahyadri Ridge', 'Misty Meadows', 'The Konkan House', 'Rainforest Retreat', 'Valley View Villa', 'Cloud Nine Bungalow', 'The Lake Pavilion'],
    tags: ['weekend-getaway', 'monsoon', 'pool', 'mountain-view'],
  },
  {
    state: 'Karnataka',
    stateCode: '29',
    type: 'ESTATE_BUNGALOW',
    brand: 'Plantation Trails',
    priceLevel: 0.9,
    monsoonDip: false,
    places: [
      { city: 'Madikeri', localities: ['Galibeedu', 'Abbey Falls Road'], lat: 12.4244, lng: 75.7382 },
      { city: 'Chikmagalur', localities: ['Mullayanagiri Road', 'Kaimara'], lat: 13.3161, lng: 75.772 },
      { city: 'Sakleshpur', localities: ['Hanbal', 'Bisle Ghat'], lat: 12.9442, lng: 75.785 },
    ],
    names: ['Coffee Bean Estate', 'Kaveri Bend', 'Pepper Trail Villa', 'Misty Hills Bungalow', 'The Plantation House', 'Cardamom Cottage', 'Hornbill Hideaway'],
    tags: ['coffee-estate', 'nature', 'birding', 'bonfire'],
  },
  {
    state: 'Kerala',
    stateCode: '32',
    type: 'VILLA',
    brand: 'Spice Coast Homes',
    priceLevel: 1.05,
    monsoonDip: true,
    places: [
      { city: 'Munnar', localities: ['Chithirapuram', 'Pallivasal'], lat: 10.0889, lng: 77.0595 },
      { city: 'Vythiri', localities: ['Lakkidi', 'Pookode Lake'], lat: 11.5497, lng: 76.0385 },
      { city: 'Alappuzha', localities: ['Punnamada', 'Kainakary'], lat: 9.4981, lng: 76.3388 },
      { city: 'Varkala', localities: ['North Cliff', 'Odayam'], lat: 8.7379, lng: 76.7163 },
    ],
    names: ['Backwater Bliss', 'Tea Garden Bungalow', 'Coir House', 'Spice Route Villa', 'The Cliff House', 'Lagoon Tharavad', 'Monsoon Palace'],
    tags: ['backwaters', 'ayurveda', 'tea-country', 'beach'],
  },
  {
    state: 'Himachal Pradesh',
    stateCode: '02',
    type: 'CHALET',
    brand: 'Hillside Retreats',
    priceLevel: 0.85,
    monsoonDip: false,
    places: [
      { city: 'Manali', localities: ['Old Manali', 'Hadimba Road'], lat: 32.2432, lng: 77.1892 },
      { city: 'Kasauli', localities: ['Upper Mall', 'Garkhal'], lat: 30.8987, lng: 76.9654 },
      { city: 'Dharamshala', localities: ['McLeod Ganj', 'Bhagsu'], lat: 32.219, lng: 76.3234 },
      { city: 'Shimla', localities: ['Mashobra', 'Kufri Road'], lat: 31.1048, lng: 77.1734 },
    ],
    names: ['Cedar Lodge', 'Apple Orchard Cottage', 'Deodar Villa', 'Snowline Chalet', 'Pine Cone House', 'The Kangra Manor', 'Riverside Chalet'],
    tags: ['mountains', 'snow', 'orchard', 'workation'],
  },
  {
    state: 'Rajasthan',
    stateCode: '08',
    type: 'HAVELI',
    brand: 'Heritage Havelis',
    priceLevel: 1.15,
    monsoonDip: false,
    places: [
      { city: 'Udaipur', localities: ['Lake Pichola', 'Fateh Sagar'], lat: 24.5854, lng: 73.7125 },
      { city: 'Jaipur', localities: ['Amer Road', 'Civil Lines'], lat: 26.9124, lng: 75.7873 },
      { city: 'Jaisalmer', localities: ['Sam Dunes Road', 'Fort Area'], lat: 26.9157, lng: 70.9083 },
    ],
    names: ['Haveli Suraj', 'Lake Pichola House', 'Desert Rose Villa', 'Aravalli Farmhouse', 'The Pink City Haveli', 'Golden Dunes Retreat', 'Mewar Manor'],
    tags: ['heritage', 'palace-style', 'desert', 'lake-view'],
  },
];

const SUPPLIER_PAN = 'AAKCP4821M';
const SUPPLIER_NAME = 'Pallavi Holiday Homes Private Limited';

const LISTING_AMENITIES = [
  'Wi-Fi',
  'Air conditioning',
  'Private pool',
  'Kitchen',
  'Parking',
  'Caretaker',
  'Power backup',
  'Garden',
  'Barbecue',
  'Smart TV',
  'Board games',
];

const PROPERTY_KINDS = [
  { key: 'villa', name: (b: number) => `Entire Villa (${b}BHK)`, type: 'ENTIRE_HOME', bedrooms: [3, 4, 5], quantity: [1, 1], nightly: 4_200 },
  { key: 'suite', name: () => 'Pool Suite', type: 'SUITE', bedrooms: [1, 1, 2], quantity: [1, 2], nightly: 5_200 },
  { key: 'cottage', name: () => 'Garden Cottage', type: 'COTTAGE', bedrooms: [1, 2, 2], quantity: [2, 4], nightly: 3_900 },
  { key: 'deluxe', name: () => 'Deluxe Room', type: 'ROOM', bedrooms: [1, 1, 1], quantity: [2, 5], nightly: 3_300 },
] as const;

const MEAL_PLAN_SUPPLEMENT = { EP: 0, CP: 450, MAP: 1_100, AP: 1_700 } as const;

const CANCELLATION_PLANS: NonNullable<WorldInput['catalogue']>['cancellationPlans'] = [
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
];

type Listings = NonNullable<NonNullable<WorldInput['catalogue']>['listings']>;
type InventoryRanges = NonNullable<NonNullable<WorldInput['catalogue']>['inventory']>;
type RateRanges = NonNullable<NonNullable<WorldInput['catalogue']>['rates']>;

const roundTo = (x: number, step: number) => Math.round(x / step) * step;
const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const between = (rand: () => number, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

/** Which simulator behaviour each listing index gets: mostly immediate, a few special cases. */
function simulatorFor(index: number): Listings[number]['simulator'] {
  if (index === 3) return { mode: 'NEVER_CONFIRM' };
  if (index === 5) return { mode: 'CONFIRM_IMMEDIATELY', refusesChanges: true };
  if (index === 8) return { mode: 'CONFIRM_IMMEDIATELY', cannotModify: true };
  if (index % 9 === 1) return { mode: 'CONFIRM_AFTER', confirmAfterSeconds: 20 + (index % 4) * 20 };
  return undefined;
}

/** Peak seasons that touch the window: Christmas–New Year and Diwali week, by calendar year. */
function peakSeasons(from: string, to: string): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (let year = Number(from.slice(0, 4)) - 1; year <= Number(to.slice(0, 4)); year++) {
    for (const season of [
      { from: `${year}-10-18`, to: `${year}-10-26` },
      { from: `${year}-12-20`, to: `${year + 1}-01-04` },
    ]) {
      const f = season.from < from ? from : season.from;
      const t = season.to > to ? to : season.to;
      if (f <= t) out.push({ from: f, to: t });
    }
  }
  return out.sort((a, b) => (a.from < b.from ? -1 : 1));
}

function monsoons(from: string, to: string): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    const f = `${year}-06-15` < from ? from : `${year}-06-15`;
    const t = `${year}-09-15` > to ? to : `${year}-09-15`;
    if (f <= t) out.push({ from: f, to: t });
  }
  return out;
}

/** The demo world document for a window of DEMO_WINDOW_DAYS starting at `today` (yyyy-mm-dd). */
export function buildDemoWorld(today: string): WorldInput {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today) || addDays(today, 0) !== today) throw new RangeError(`today must be a calendar date yyyy-mm-dd, got ${today}`);
  const rand = prng(SEED);
  const last = addDays(today, DEMO_WINDOW_DAYS - 1);
  const peaks = peakSeasons(today, last);
  const wet = monsoons(today, last);

  const listings: Listings = [];
  const inventory: InventoryRanges = [];
  const rates: RateRanges = [];

  let index = 0;
  for (const spec of STATES) {
    spec.names.forEach((title, n) => {
      const place = spec.places[n % spec.places.length]!;
      const locality = place.localities[n % place.localities.length]!;
      const id = `${slug(spec.state).split('-')[0]}-${slug(place.city)}-${slug(title).replace(/^the-/, '')}`.slice(0, 63);
      const lat = Number((place.lat + (rand() - 0.5) * 0.04).toFixed(5));
      const lng = Number((place.lng + (rand() - 0.5) * 0.04).toFixed(5));
      const kinds = [PROPERTY_KINDS[0], ...PROPERTY_KINDS.slice(1).filter(() => rand() < 0.6)].slice(0, 4);
      if (kinds.length < 2) kinds.push(PROPERTY_KINDS[3]);

      const properties = kinds.map((kind, k) => {
        const bedrooms = pick(rand, kind.bedrooms);
        const applicableAdult = Math.min(8, bedrooms * 2);
        const nightly = roundTo(kind.nightly * bedrooms * spec.priceLevel * (0.85 + rand() * 0.3), 100);
        return {
          id: `${id.slice(0, 50)}-${kind.key}`,
          name: kind.name(bedrooms),
          type: kind.type,
          bedrooms,
          bathrooms: Math.max(1, bedrooms - (rand() < 0.3 ? 1 : 0)),
          numberOfBeds: bedrooms + (rand() < 0.4 ? 1 : 0),
          maxAdults: applicableAdult + (kind.key === 'deluxe' ? 1 : 2),
          maxChildren: kind.key === 'deluxe' ? 1 : 2,
          applicableAdult,
          applicableChild: kind.key === 'deluxe' ? 1 : 2,
          extraAdultRate: roundTo(nightly * 0.12, 50),
          extraChildRate: roundTo(nightly * 0.06, 50),
          quantity: between(rand, kind.quantity[0], kind.quantity[1]),
          isPetFriendly: k === 0 && rand() < 0.3,
          numberOfPets: 0,
          isStressed: false,
          isHighDemand: rand() < 0.2,
          imageUrl: `https://images.example.com/demo/${id}/${kind.key}/cover.jpg`,
          photos: [1, 2, 3].map((p) => ({ url: `https://images.example.com/demo/${id}/${kind.key}/${p}.jpg`, name: `${kind.name(bedrooms)} ${p}` })),
          amenities: [
            { icon: 'wifi', name: 'Wi-Fi', category: 'Essentials' },
            { icon: 'ac', name: 'Air conditioning', category: 'Comfort' },
            ...(k === 0 ? [{ icon: 'pool', name: 'Private pool', category: 'Outdoors' }] : []),
          ],
          location: `${locality}, ${place.city}`,
          basePrice: nightly,
          nightly,
        };
      });
      for (const p of properties) if (p.isPetFriendly) p.numberOfPets = 2;

      const channelIds = index % 7 === 6 ? ['ota-web'] : index % 11 === 10 ? ['agents-b2b'] : ['ota-web', 'agents-b2b'];
      const cancellationPlanIds = index % 5 === 4 ? ['flexible', 'non-refundable'] : ['flexible', 'moderate', 'non-refundable'];
      const withBbq = rand() < 0.5;
      listings.push({
        id,
        title: `${title}, ${place.city}`,
        type: spec.type,
        status: index === listingCount() - 1 ? 'INACTIVE' : 'ACTIVE',
        brand: spec.brand,
        locality,
        city: place.city,
        state: spec.state,
        country: 'India',
        addressLine: `${between(rand, 1, 240)}, ${locality}, ${place.city}, ${spec.state}`,
        latitude: lat,
        longitude: lng,
        maxAdults: properties.reduce((s, p) => s + p.maxAdults * p.quantity, 0),
        maxChildren: properties.reduce((s, p) => s + p.maxChildren * p.quantity, 0),
        basePrice: Math.min(...properties.map((p) => p.nightly)),
        amenities: LISTING_AMENITIES.filter(() => rand() < 0.6),
        tags: spec.tags.filter(() => rand() < 0.6),
        coverPicture: `https://images.example.com/demo/${id}/cover.jpg`,
        rating: Number((3.8 + rand() * 1.2).toFixed(1)),
        reviewCount: between(rand, 4, 420),
        usps: [
          { id: 1, name: 'Caretaker on site', description: 'A caretaker lives on the property and helps round the clock.', isDifferentiator: false },
          {
            id: 2,
            name: spec.tags[0]!.replace(/-/g, ' '),
            description: `Loved by guests for its ${spec.tags[0]!.replace(/-/g, ' ')}.`,
            isDifferentiator: true,
          },
        ],
        badges: rand() < 0.3 ? [{ label: 'Guest favourite', type: 'HIGHLIGHT', placement: 'TOP_LEFT' }] : [],
        channelIds,
        cancellationPlanIds,
        defaultCancellationPlanId: index % 3 === 0 && cancellationPlanIds.includes('moderate') ? 'moderate' : 'flexible',
        properties: properties.map(({ nightly: _n, ...p }) => p),
        meals: [
          { mealId: 'breakfast', name: 'Breakfast', mealType: 'BREAKFAST', adultPrice: 450, childPrice: 250 },
          { mealId: 'lunch', name: 'Home-style lunch', mealType: 'LUNCH', adultPrice: 900, childPrice: 500 },
          { mealId: 'dinner', name: 'Regional dinner', mealType: 'DINNER', adultPrice: 1_100, childPrice: 600, chefOnCallPrice: 1_500 },
          ...(withBbq ? [{ mealId: 'bbq', name: 'Barbecue night', mealType: 'BBQ' as const, adultPrice: 1_400, childPrice: 700, chefOnCallPrice: 2_000 }] : []),
        ],
        vas: [
          {
            vasId: 'airport-transfer',
            name: 'Airport transfer',
            pricing: 'PER_UNIT',
            variants: [
              { variantId: 'sedan', name: 'Sedan (3 guests)', price: 2_500 },
              { variantId: 'suv', name: 'SUV (6 guests)', price: 3_500 },
            ],
          },
          {
            vasId: 'decoration',
            name: 'Celebration decoration',
            pricing: 'PER_STAY',
            variants: [
              { variantId: 'birthday', name: 'Birthday', price: 3_000 },
              { variantId: 'anniversary', name: 'Anniversary', price: 4_500 },
            ],
          },
          { vasId: 'bonfire', name: 'Evening bonfire', pricing: 'PER_NIGHT', variants: [{ variantId: 'standard', name: 'Standard', price: 1_500 }] },
        ],
        simulator: simulatorFor(index),
      });

      for (const p of properties) {
        const villa = p.type === 'ENTIRE_HOME';
        inventory.push({ propertyId: p.id, from: today, to: last, quantity: p.quantity, minimumStay: villa ? 2 : 1, maximumStay: 30 });
        if (villa)
          inventory.push({ propertyId: p.id, from: today, to: last, daysOfWeek: ['FRI', 'SAT'], quantity: p.quantity, minimumStay: 2, maximumStay: 30 });
        for (const s of peaks) inventory.push({ propertyId: p.id, from: s.from, to: s.to, quantity: p.quantity, minimumStay: 3, maximumStay: 21 });
        // One-off closures and sell-outs follow the calendar date, not the window, so they do not move when today does.
        for (let d = 0; d < DEMO_WINDOW_DAYS; d++) {
          const date = addDays(today, d);
          const h = fnv(`${p.id}|${date}`);
          if (h % 61 === 0) inventory.push({ propertyId: p.id, from: date, to: date, quantity: p.quantity, minimumStay: 1, maximumStay: 30, stopSell: true });
          else if (h % 97 === 0) inventory.push({ propertyId: p.id, from: date, to: date, quantity: 0, minimumStay: 1, maximumStay: 30 });
        }

        const occupancy = (n: number, factor: number, plan: keyof typeof MEAL_PLAN_SUPPLEMENT) =>
          roundTo(p.nightly * factor * (0.75 + (0.25 * n) / p.applicableAdult) + MEAL_PLAN_SUPPLEMENT[plan] * n, 50);
        const adults = (factor: number, plan: keyof typeof MEAL_PLAN_SUPPLEMENT) =>
          Object.fromEntries(Array.from({ length: p.applicableAdult }, (_, i) => [String(i + 1), occupancy(i + 1, factor, plan)]));
        for (const plan of ['EP', 'CP', 'MAP', 'AP'] as const) {
          rates.push({ propertyId: p.id, from: today, to: last, mealPlan: plan, adults: adults(1, plan) });
          rates.push({ propertyId: p.id, from: today, to: last, daysOfWeek: ['FRI', 'SAT'], mealPlan: plan, adults: adults(1.2, plan) });
          if (spec.monsoonDip) for (const s of wet) rates.push({ propertyId: p.id, ...s, mealPlan: plan, adults: adults(0.8, plan) });
          for (const s of peaks) rates.push({ propertyId: p.id, ...s, mealPlan: plan, adults: adults(1.5, plan) });
        }
      }
      index++;
    });
  }

  const validFrom = addDays(today, -30);
  return {
    version: 1,
    tenants: {
      partners: [
        { partnerId: 'tripkart', name: 'TripKart Travel', channelId: 'ota-web' },
        { partnerId: 'yatrabiz', name: 'YatraBiz Distribution', channelId: 'agents-b2b' },
      ],
      agentGroups: [
        {
          agentGroupId: 'tripkart-agents',
          partnerId: 'tripkart',
          name: 'TripKart Holiday Desk',
          channelId: 'ota-web',
          creditLimit: 500_000,
          billingCycle: 'MONTHLY',
          billingAnchorDay: 1,
          gstin: gstin('27', 'AAFCT5521K'),
          legalName: 'TripKart Travel Private Limited',
          address: {
            line1: '4th Floor, Trade Centre',
            line2: 'Bandra Kurla Complex',
            city: 'Mumbai',
            state: 'Maharashtra',
            postalCode: '400051',
            country: 'India',
          },
        },
        {
          agentGroupId: 'yatrabiz-north',
          partnerId: 'yatrabiz',
          name: 'YatraBiz North Agents',
          channelId: 'agents-b2b',
          creditLimit: 50_000,
          billingCycle: 'WEEKLY',
          billingAnchorDay: 1,
          gstin: gstin('07', 'AABCY7342Q'),
          legalName: 'YatraBiz Distribution Private Limited',
          address: { line1: '22 Barakhamba Road', city: 'New Delhi', state: 'Delhi', postalCode: '110001', country: 'India' },
        },
        {
          agentGroupId: 'yatrabiz-south',
          partnerId: 'yatrabiz',
          name: 'YatraBiz South Agents',
          channelId: 'agents-b2b',
          creditLimit: 200_000,
          onHold: true,
          billingCycle: 'FORTNIGHTLY',
          billingAnchorDay: 5,
          gstin: gstin('29', 'AABCY7342Q'),
          legalName: 'YatraBiz Distribution Private Limited',
          address: { line1: '80 Residency Road', city: 'Bengaluru', state: 'Karnataka', postalCode: '560025', country: 'India' },
        },
      ],
    },
    keys: DEMO_CREDENTIALS.map((c) => ({
      owner: { kind: c.kind, id: c.ownerId },
      key: c.key,
      label: 'demo',
      ...(c.signingSecret ? { signingSecret: c.signingSecret } : {}),
    })),
    channels: [
      { channelId: 'ota-web', name: 'OTA web', rateAdjustmentPercent: 0 },
      { channelId: 'agents-b2b', name: 'Agents B2B', rateAdjustmentPercent: -10 },
    ],
    catalogue: {
      cancellationPlans: CANCELLATION_PLANS,
      listings,
      offers: [
        {
          channelId: 'ota-web',
          code: 'HDFC10',
          title: '10% off with HDFC Bank cards, up to ₹2,000',
          discountType: 'PERCENTAGE',
          percent: 10,
          maxDiscount: 2_000,
          minOrderValue: 5_000,
          validFrom,
          validTo: addDays(today, 365),
        },
        {
          channelId: 'ota-web',
          code: 'ICICI1500',
          title: '₹1,500 off two nights or more with ICICI Bank',
          discountType: 'FLAT',
          flatAmount: 1_500,
          minOrderValue: 10_000,
          minNights: 2,
          validFrom,
          validTo: addDays(today, 180),
        },
        {
          channelId: 'ota-web',
          code: 'KOTAK5',
          title: '5% off with Kotak cards (ended)',
          discountType: 'PERCENTAGE',
          percent: 5,
          maxDiscount: 1_000,
          validFrom: addDays(today, -90),
          validTo: addDays(today, -1),
        },
        {
          channelId: 'agents-b2b',
          code: 'AXIS8',
          title: '8% off with Axis Bank corporate cards, up to ₹5,000',
          discountType: 'PERCENTAGE',
          percent: 8,
          maxDiscount: 5_000,
          minOrderValue: 8_000,
          validFrom,
          validTo: addDays(today, 365),
        },
        {
          channelId: 'agents-b2b',
          code: 'SBIFLAT2500',
          title: '₹2,500 off stays in the next 90 days with SBI cards',
          discountType: 'FLAT',
          flatAmount: 2_500,
          minOrderValue: 20_000,
          stayFrom: today,
          stayTo: addDays(today, 90),
          validFrom,
          validTo: addDays(today, 90),
        },
      ],
      inventory,
      rates,
    },
    gst: {
      registrations: STATES.filter((s) => s.state !== UNREGISTERED_DEMO_STATE).map((s) => ({
        state: s.state,
        stateCode: s.stateCode,
        gstin: gstin(s.stateCode, SUPPLIER_PAN),
        legalName: SUPPLIER_NAME,
        address: `${SUPPLIER_NAME}, ${s.places[0]!.localities[0]}, ${s.places[0]!.city}, ${s.state}, India`,
      })),
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

function listingCount(): number {
  return STATES.reduce((n, s) => n + s.names.length, 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [out, date] = process.argv.slice(2);
  if (!out) {
    console.error('usage: tsx scripts/demo-world.ts <out.json> [yyyy-mm-dd]');
    process.exit(2);
  }
  const today = date ?? new Date().toISOString().slice(0, 10);
  writeFileSync(out, `${JSON.stringify(buildDemoWorld(today), null, 2)}\n`);
  console.log(`Demo world for ${today} written to ${out}`);
}

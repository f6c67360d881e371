import {
  MEAL_PLANS,
  parseRatePlans,
  ratePlansContent,
  type DayData,
  type DayInventory,
  type DayRates,
  type MealPlan,
  type PropertyMonth,
} from '../catalogue/day.ts';
import type { BankOffer } from '../catalogue/offers.ts';
import type { Stored } from '../catalogue/versioned.ts';
import type { ListingView } from '../ports/catalogue-reader.ts';
import type { SearchQuery } from './search-query.ts';

/**
 * The per-channel search projection (docs/search.md, "Projection"): what filtering,
 * availability, ranking and indicative pricing need, in a few compact items per place.
 * Everything here is pure: encoding, decoding, sharding and the choice of shards a query
 * reads. The DynamoDB adapter stores the strings this module makes and nothing else.
 *
 * Bump PROJECTION_VERSION whenever an encoding below changes: a projection whose head
 * carries another version is rebuilt from the catalogue before it is read.
 */
export const PROJECTION_VERSION = 3;

/** A place is one city of one state, lower-cased as the place filters compare them. */
export interface Place {
  readonly state: string;
  readonly city: string;
  /** Parts the place's listings are spread over (listing id hash modulo parts). */
  readonly parts: number;
}

/** A channel's projection head: its version, its places, the cancellation plans its listings name and its bank offers. */
export interface ProjectionHead {
  readonly version: number;
  /** placeKey → place. */
  readonly places: ReadonlyMap<string, Place>;
  /** placeKey → localities (lower-cased) of its listings, so a locality filter reads only its places. */
  readonly localities: ReadonlyMap<string, ReadonlySet<string>>;
  readonly planIds: readonly string[];
  /** The channel's bank offers (since version 3), in code order as the catalogue lists them: a search reads them with the head. */
  readonly offers: readonly Stored<BankOffer>[];
}

/** Where one listing (and so each of its properties) sits in a channel's projection. */
export interface Shard {
  readonly placeKey: string;
  readonly part: number;
}

/** Bytes a shard item may hold before a rebuild spreads the place over more parts (DynamoDB's item limit is 400 KB). */
export const SHARD_TARGET_BYTES = 200_000;

export const placeKeyOf = (listing: { state: string; city: string }): string => `${listing.state.toLowerCase()}|${listing.city.toLowerCase()}`;

/** FNV-1a over the id's UTF-16 code units: stable across processes and versions of Node. */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export const partOf = (listingId: string, parts: number): number => hashOf(listingId) % parts;

export const shardOf = (listing: { id: string; state: string; city: string }, places: ReadonlyMap<string, Place>): Shard => {
  const placeKey = placeKeyOf(listing);
  return { placeKey, part: partOf(listing.id, places.get(placeKey)?.parts ?? 1) };
};

export const shardName = (s: Shard): string => `${s.placeKey}#${s.part}`;

export function shardFromName(name: string): Shard {
  const at = name.lastIndexOf('#');
  return { placeKey: name.slice(0, at), part: Number(name.slice(at + 1)) };
}

/**
 * The places a query can find listings in: those whose state and city pass the place
 * filters and, with a locality filter, that hold one of its localities. No place filter
 * means every place of the channel.
 */
export function placesFor(head: ProjectionHead, q: Pick<SearchQuery, 'cities' | 'states' | 'localities'>): string[] {
  return [...head.places]
    .filter(([key, place]) => {
      if (q.states && !q.states.has(place.state)) return false;
      if (q.cities && !q.cities.has(place.city)) return false;
      if (q.localities) {
        const here = head.localities.get(key);
        if (!here || ![...q.localities].some((l) => here.has(l))) return false;
      }
      return true;
    })
    .map(([key]) => key)
    .sort();
}

/** Every shard of these places. */
export const shardsOfPlaces = (head: ProjectionHead, placeKeys: readonly string[]): Shard[] =>
  placeKeys.flatMap((placeKey) => Array.from({ length: head.places.get(placeKey)?.parts ?? 0 }, (_, part) => ({ placeKey, part })));

/** Fields only the result card shows: an entry leaves them out (the page's full views supply them). */
const LISTING_CARD_FIELDS = ['title', 'addressLine', 'coverPicture', 'usps', 'badges'] as const;
const PROPERTY_CARD_FIELDS = ['title', 'name', 'imageUrl', 'photos', 'location'] as const;

/** The listing fields an entry keeps, in the order a positional entry lists their values. */
const LISTING_FIELDS = [
  'id',
  'type',
  'status',
  'brand',
  'locality',
  'city',
  'state',
  'country',
  'latitude',
  'longitude',
  'maxAdults',
  'maxChildren',
  'basePrice',
  'amenities',
  'tags',
  'rating',
  'reviewCount',
  'cancellationPlanIds',
  'defaultCancellationPlanId',
  'createdAt',
  'updatedAt',
] as const;
/** The property fields an entry keeps (amenities as their names), in positional order. */
const PROPERTY_FIELDS = [
  'id',
  'listingId',
  'brand',
  'type',
  'bedrooms',
  'bathrooms',
  'numberOfBeds',
  'maxAdults',
  'maxChildren',
  'applicableAdult',
  'applicableChild',
  'extraAdultRate',
  'extraChildRate',
  'quantity',
  'isPetFriendly',
  'numberOfPets',
  'isStressed',
  'isHighDemand',
  'latitude',
  'longitude',
  'basePrice',
  'createdAt',
  'updatedAt',
  'amenities',
] as const;
/** Property fields that nearly always repeat their listing's (property field → listing field): null in a positional entry when they do. */
const INHERITED: Readonly<Record<string, string>> = {
  listingId: 'id',
  brand: 'brand',
  latitude: 'latitude',
  longitude: 'longitude',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
};

/** True when the record has exactly these fields (besides the card's), none of them undefined or null. */
function hasExactly(record: Readonly<Record<string, unknown>>, fields: readonly string[], card: readonly string[]): boolean {
  let kept = 0;
  for (const key of Object.keys(record)) if (!card.includes(key)) kept++;
  return kept === fields.length && fields.every((f) => record[f] !== undefined && record[f] !== null);
}

/**
 * A listing view without what only the result card shows (titles, pictures, address,
 * USPs, badges, amenity icons): what filters, unit choice, ranking and priceOrder read.
 * The card fields come from the full view of the listings on the returned page.
 *
 * Positional (a JSON array of values in LISTING_FIELDS and PROPERTY_FIELDS order, a
 * property's fields that repeat its listing's as null): an unfiltered search reads and
 * parses every entry of the channel, and field names were two thirds of an entry's bytes.
 * A record with other fields than these (none today) keeps the named form, which
 * viewOfEntry reads as well, so no field is ever dropped or misplaced.
 */
export function searchEntryOf(view: ListingView): string {
  const listing = view.listing as unknown as Record<string, unknown>;
  const properties = view.properties as unknown as readonly Record<string, unknown>[];
  if (hasExactly(listing, LISTING_FIELDS, LISTING_CARD_FIELDS) && properties.every((p) => hasExactly(p, PROPERTY_FIELDS, PROPERTY_CARD_FIELDS))) {
    const names = (p: Record<string, unknown>) => (p.amenities as readonly { name: string }[]).map((a) => a.name);
    return JSON.stringify([
      LISTING_FIELDS.map((f) => listing[f]),
      ...properties.map((p) =>
        PROPERTY_FIELDS.map((f) => (f === 'amenities' ? names(p) : INHERITED[f] !== undefined && p[f] === listing[INHERITED[f]] ? null : p[f])),
      ),
    ]);
  }
  const { title: _t, addressLine: _a, coverPicture: _c, usps: _u, badges: _b, ...named } = view.listing;
  const namedProperties = view.properties.map((p) => {
    const { title: _pt, name: _n, imageUrl: _i, photos: _p, location: _l, amenities, ...rest } = p;
    return { ...rest, amenities: amenities.map((a) => a.name) };
  });
  return JSON.stringify({ listing: named, properties: namedProperties });
}

/**
 * The view an entry stands for, with the card-only fields empty. An unfiltered search
 * decodes every entry of the channel, so the card-only fields are added to the objects
 * being made (no one else holds them) instead of copying each into a new one.
 */
export function viewOfEntry(text: string): ListingView {
  if (text.charCodeAt(0) !== 0x5b /* [ */) return viewOfNamedEntry(text);
  const [l, ...ps] = JSON.parse(text) as unknown[][];
  // Object literals in LISTING_FIELDS and PROPERTY_FIELDS order rather than a loop over the names: every
  // entry then has one shape from the start, which the search's 5,000 reads of each field stay fast on.
  const listing = {
    id: l![0],
    type: l![1],
    status: l![2],
    brand: l![3],
    locality: l![4],
    city: l![5],
    state: l![6],
    country: l![7],
    latitude: l![8],
    longitude: l![9],
    maxAdults: l![10],
    maxChildren: l![11],
    basePrice: l![12],
    amenities: l![13],
    tags: l![14],
    rating: l![15],
    reviewCount: l![16],
    cancellationPlanIds: l![17],
    defaultCancellationPlanId: l![18],
    createdAt: l![19],
    updatedAt: l![20],
    title: '',
    addressLine: '',
    coverPicture: '',
    usps: [],
    badges: [],
  };
  const properties = ps.map((p) => ({
    id: p[0],
    listingId: p[1] ?? listing.id,
    brand: p[2] ?? listing.brand,
    type: p[3],
    bedrooms: p[4],
    bathrooms: p[5],
    numberOfBeds: p[6],
    maxAdults: p[7],
    maxChildren: p[8],
    applicableAdult: p[9],
    applicableChild: p[10],
    extraAdultRate: p[11],
    extraChildRate: p[12],
    quantity: p[13],
    isPetFriendly: p[14],
    numberOfPets: p[15],
    isStressed: p[16],
    isHighDemand: p[17],
    latitude: p[18] ?? listing.latitude,
    longitude: p[19] ?? listing.longitude,
    basePrice: p[20],
    createdAt: p[21] ?? listing.createdAt,
    updatedAt: p[22] ?? listing.updatedAt,
    amenities: (p[23] as string[]).map(amenityNamed),
    title: '',
    name: '',
    imageUrl: '',
    photos: [],
    location: '',
  }));
  return { listing, properties } as unknown as ListingView;
}

const amenityNamed = (name: string) => ({ icon: '', name, category: '' });

/**
 * A listing's card: its whole view as the catalogue stores it, so the result cards of a search
 * of a few shards come with its shards (one read fewer) and are exactly the catalogue's.
 */
export const searchCardOf = (view: ListingView): string => JSON.stringify(view);
export const viewOfCard = (text: string): ListingView => JSON.parse(text) as ListingView;

function viewOfNamedEntry(text: string): ListingView {
  const { listing, properties } = JSON.parse(text) as { listing: Record<string, unknown>; properties: (Record<string, unknown> & { amenities: unknown[] })[] };
  Object.assign(listing, { title: '', addressLine: '', coverPicture: '', usps: [], badges: [] });
  for (const p of properties) {
    Object.assign(p, { title: '', name: '', imageUrl: '', photos: [], location: '' });
    for (let i = 0; i < p.amenities.length; i++) p.amenities[i] = amenityNamed(p.amenities[i] as string);
  }
  return { listing, properties } as unknown as ListingView;
}

const DAYS_IN_MONTH_MAX = 31;
const dd = (i: number) => String(i + 1).padStart(2, '0');

/**
 * The month's units, one value a day ("01"…"31"): the day's quantity, or empty when the
 * day has no inventory or no record, run-length encoded (`count*value` runs joined by a
 * comma: "31*2" for a month of two units; most months are one or two runs). Bookings and
 * cancellations rewrite only this.
 */
export function unitsString(quantityOn: (dd: string) => number | undefined): string {
  const runs: [number, string][] = [];
  for (let i = 0; i < DAYS_IN_MONTH_MAX; i++) {
    const q = quantityOn(dd(i));
    const value = q === undefined ? '' : String(q);
    const last = runs.at(-1);
    if (last && last[1] === value) last[0]++;
    else runs.push([1, value]);
  }
  return runs.map(([n, value]) => `${n}*${value}`).join(',');
}

/** The month's units string back as one value a day (index 0 for the 1st). */
function unitsByDay(units: string): string[] {
  const out: string[] = [];
  for (const run of units.split(',')) {
    const star = run.indexOf('*');
    const value = run.slice(star + 1);
    for (let n = Number(run.slice(0, star)); n > 0; n--) out.push(value);
  }
  return out;
}

export const unitsOfMonth = (days: Readonly<Record<string, { inventory: DayData['inventory'] } | undefined>>): string =>
  unitsString((d) => days[d]?.inventory?.quantity);

/** One day's restrictions and rates: `-` without a record, `minStay,maxStay,stopSell` (or empty without inventory), `|`, the packed rates. */
function restOfDay(day: DayData | undefined): string {
  if (!day) return '-';
  const i = day.inventory;
  // The channel manager's optional restrictions extend the triple only when set, so existing runs keep their text.
  const extra =
    i && (i.closedToArrival || i.closedToDeparture || i.minimumStayArrival !== undefined)
      ? `,${i.closedToArrival ? 1 : 0},${i.closedToDeparture ? 1 : 0},${i.minimumStayArrival ?? ''}`
      : '';
  const inv = i ? `${i.minimumStay},${i.maximumStay},${i.stopSell ? 1 : 0}${extra}` : '';
  const rates = MEAL_PLANS.flatMap((plan) => {
    const byAdults = day.rates[plan];
    if (!byAdults) return [];
    return [
      `${plan}=${Object.keys(byAdults)
        .sort((a, b) => Number(a) - Number(b))
        .map((n) => `${n}:${byAdults[n]}`)
        .join(' ')}`,
    ];
  });
  // Rate-plan restrictions follow a second bar only when set, so existing runs keep their text.
  const plans = ratePlansContent(i?.ratePlans);
  return plans ? `${inv}|${rates.join(';')}|${plans}` : `${inv}|${rates.join(';')}`;
}

/**
 * The month's restrictions and rates, run-length encoded (`count*day` runs joined by a
 * newline): rates rarely change from one night to the next, so a month is a few runs.
 */
export function restOfMonth(days: Readonly<Record<string, DayData | undefined>>): string {
  const runs: [number, string][] = [];
  for (let i = 0; i < DAYS_IN_MONTH_MAX; i++) {
    const text = restOfDay(days[dd(i)]);
    const last = runs.at(-1);
    if (last && last[1] === text) last[0]++;
    else runs.push([1, text]);
  }
  return runs.map(([n, text]) => `${n}*${text}`).join('\n');
}

/** One run's restrictions and rates; undefined for a run of days without a record. */
type Run = { readonly inv: Omit<DayInventory, 'quantity'> | undefined; readonly rates: DayRates } | undefined;

function runOf(rest: string): Run {
  if (rest === '-') return undefined;
  const [inv, packedRates, plans] = rest.split('|') as [string, string, string | undefined];
  const rates: Partial<Record<MealPlan, Record<string, number>>> = {};
  for (const part of packedRates.split(';')) {
    if (!part) continue;
    const [plan, pairs] = part.split('=') as [MealPlan, string];
    const byAdults: Record<string, number> = {};
    for (const pair of pairs.split(' ')) {
      const [n, paise] = pair.split(':');
      byAdults[n!] = Number(paise);
    }
    rates[plan] = byAdults;
  }
  if (!inv) return { inv: undefined, rates: rates as DayRates };
  const [minimumStay, maximumStay, stop, cta, ctd, arrival] = inv.split(',');
  const restrictions = {
    minimumStay: Number(minimumStay),
    maximumStay: Number(maximumStay),
    stopSell: stop === '1',
    ...(cta === '1' ? { closedToArrival: true } : {}),
    ...(ctd === '1' ? { closedToDeparture: true } : {}),
    ...(arrival ? { minimumStayArrival: Number(arrival) } : {}),
    ...(plans ? { ratePlans: parseRatePlans(plans)! } : {}),
  };
  return { inv: restrictions, rates: rates as DayRates };
}

/**
 * Decodes property months back into days, keyed by date (yyyy-mm-dd); only `wanted` dates
 * when given. An unfiltered search decodes about 10,000 property months, so a run is decoded
 * only when one of its days is wanted, and each distinct run text once per decoder (most
 * properties repeat their neighbours' rates): days share their run's rates object, which is
 * safe because days are only read once decoded.
 */
export class DayDecoder {
  private readonly runs = new Map<string, Run>();
  /** yyyy-mm → indices (0 for the 1st) of its days to decode, ascending. */
  private readonly indices = new Map<string, number[]>();

  constructor(private readonly wanted?: ReadonlySet<string>) {}

  month(month: string, units: string, rest: string, into = new Map<string, DayData>()): Map<string, DayData> {
    const days = this.indicesOf(month);
    if (days.length === 0) return into;
    const unitsOn = unitsByDay(units);
    let next = 0;
    let first = 0;
    let start = 0;
    while (start < rest.length && next < days.length) {
      const newline = rest.indexOf('\n', start);
      const end = newline === -1 ? rest.length : newline;
      const star = rest.indexOf('*', start);
      const last = first + Number(rest.slice(start, star));
      if (days[next]! < last) {
        const run = this.runOf(rest.slice(star + 1, end));
        for (; next < days.length && days[next]! < last; next++) {
          const i = days[next]!;
          if (run) into.set(`${month}-${dd(i)}`, { inventory: run.inv ? { quantity: Number(unitsOn[i] ?? ''), ...run.inv } : null, rates: run.rates });
        }
      }
      first = last;
      start = end + 1;
    }
    return into;
  }

  private runOf(text: string): Run {
    if (!this.runs.has(text)) this.runs.set(text, runOf(text));
    return this.runs.get(text);
  }

  private indicesOf(month: string): number[] {
    let days = this.indices.get(month);
    if (!days) {
      days = this.wanted
        ? [...this.wanted]
            .filter((d) => d.startsWith(`${month}-`))
            .map((d) => Number(d.slice(8)) - 1)
            .sort((a, b) => a - b)
        : Array.from({ length: DAYS_IN_MONTH_MAX }, (_, i) => i);
      this.indices.set(month, days);
    }
    return days;
  }
}

/** The days of one property month (yyyy-mm) back from its two strings; only `wanted` dates when given. */
export const daysOfMonth = (
  month: string,
  units: string,
  rest: string,
  wanted?: ReadonlySet<string>,
  into = new Map<string, DayData>(),
): Map<string, DayData> => new DayDecoder(wanted).month(month, units, rest, into);

/** A property month as its two projection strings. */
export const monthStrings = (m: PropertyMonth): { units: string; rest: string } => ({ units: unitsOfMonth(m.days), rest: restOfMonth(m.days) });

/**
 * How many parts a place needs so that no shard item passes SHARD_TARGET_BYTES: its
 * listing entries or cards (the bigger), or its largest month of days, whichever is bigger.
 */
export function partsFor(entryBytes: number, largestMonthBytes: number): number {
  return Math.max(1, Math.ceil(Math.max(entryBytes, largestMonthBytes) / SHARD_TARGET_BYTES));
}

/** One shard's content: its listings' entries and cards and, per month, its properties' day strings. */
export interface ShardContent {
  readonly entries: Map<string, string>;
  /** listingId → the listing's card (searchCardOf), in an item of its own beside the entries. */
  readonly cards: Map<string, string>;
  /** yyyy-mm → propertyId → strings. */
  readonly months: Map<string, Map<string, { units: string; rest: string }>>;
}

/** Where a property's days sit on one channel, and its listing. */
export interface Locator {
  readonly listingId: string;
  readonly shard: Shard;
}

export interface BuiltProjection {
  readonly head: ProjectionHead;
  /** shardName → content. */
  readonly shards: Map<string, ShardContent>;
  /** propertyId → where it sits. */
  readonly locators: Map<string, Locator>;
}

/** One property month as strings, ready for a shard. */
export interface MonthStrings {
  readonly month: string;
  readonly units: string;
  readonly rest: string;
}

/** One place's share of a projection: what a rebuild writes for it. */
export interface BuiltPlace {
  readonly placeKey: string;
  readonly place: Place;
  readonly localities: ReadonlySet<string>;
  /** shardName → content. */
  readonly shards: Map<string, ShardContent>;
  /** propertyId → where it sits. */
  readonly locators: Map<string, Locator>;
}

/**
 * The shards of one place from its listing views and their properties' months (as
 * strings): as many parts as keep each item under SHARD_TARGET_BYTES.
 */
export function buildPlace(views: readonly ListingView[], monthsOf: (propertyId: string) => readonly MonthStrings[]): BuiltPlace {
  const first = views[0]!.listing;
  const placeKey = placeKeyOf(first);
  const entryOf = new Map(views.map((v) => [v.listing.id, searchEntryOf(v)]));
  const cardOf = new Map(views.map((v) => [v.listing.id, searchCardOf(v)]));
  // A listing's entry and card sit in two items of the same shard: the bigger of the two sizes it.
  const listingBytes = views.reduce((s, v) => s + Math.max(entryOf.get(v.listing.id)!.length, cardOf.get(v.listing.id)!.length) + v.listing.id.length, 0);
  const monthBytes = new Map<string, number>();
  for (const v of views)
    for (const p of v.properties)
      for (const m of monthsOf(p.id)) monthBytes.set(m.month, (monthBytes.get(m.month) ?? 0) + m.units.length + m.rest.length + 2 * p.id.length);
  const place: Place = { state: first.state.toLowerCase(), city: first.city.toLowerCase(), parts: partsFor(listingBytes, Math.max(0, ...monthBytes.values())) };

  const shards = new Map<string, ShardContent>();
  const locators = new Map<string, Locator>();
  for (const v of views) {
    const shard = { placeKey, part: partOf(v.listing.id, place.parts) };
    const name = shardName(shard);
    const content = shards.get(name) ?? { entries: new Map(), cards: new Map(), months: new Map() };
    shards.set(name, content);
    content.entries.set(v.listing.id, entryOf.get(v.listing.id)!);
    content.cards.set(v.listing.id, cardOf.get(v.listing.id)!);
    for (const p of v.properties) {
      locators.set(p.id, { listingId: v.listing.id, shard });
      for (const m of monthsOf(p.id)) {
        const month = content.months.get(m.month) ?? new Map();
        content.months.set(m.month, month);
        month.set(p.id, { units: m.units, rest: m.rest });
      }
    }
  }
  return { placeKey, place, localities: new Set(views.map((v) => v.listing.locality.toLowerCase())), shards, locators };
}

/** Listing views grouped by place, each group in listing id order. */
export function viewsByPlace(views: readonly ListingView[]): Map<string, ListingView[]> {
  const out = new Map<string, ListingView[]>();
  for (const v of [...views].sort((a, b) => (a.listing.id < b.listing.id ? -1 : 1)))
    out.set(placeKeyOf(v.listing), [...(out.get(placeKeyOf(v.listing)) ?? []), v]);
  return out;
}

/** The head over built places, with the channel's bank offers. */
export function headOfPlaces(built: readonly BuiltPlace[], planIds: Iterable<string>, offers: readonly Stored<BankOffer>[]): ProjectionHead {
  return {
    version: PROJECTION_VERSION,
    places: new Map(built.map((b) => [b.placeKey, b.place])),
    localities: new Map(built.map((b) => [b.placeKey, b.localities])),
    planIds: [...new Set(planIds)].sort(),
    offers: sortOffers(offers),
  };
}

/** Offers in code order, as the catalogue's Query on `OFFER#<code>` lists them (UTF-8 byte order, which is code-unit order for these codes). */
export const sortOffers = <T extends { readonly code: string }>(offers: readonly T[]): T[] =>
  [...offers].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

/** A channel's whole projection from its listing views, their properties' months and its bank offers. */
export function buildProjection(views: readonly ListingView[], months: readonly PropertyMonth[], offers: readonly Stored<BankOffer>[] = []): BuiltProjection {
  const stringsOf = new Map<string, MonthStrings[]>();
  for (const m of months) stringsOf.set(m.propertyId, [...(stringsOf.get(m.propertyId) ?? []), { month: m.month, ...monthStrings(m) }]);
  const built = [...viewsByPlace(views).values()].map((here) => buildPlace(here, (id) => stringsOf.get(id) ?? []));
  return {
    head: headOfPlaces(
      built,
      views.flatMap((v) => v.listing.cancellationPlanIds),
      offers,
    ),
    shards: new Map(built.flatMap((b) => [...b.shards])),
    locators: new Map(built.flatMap((b) => [...b.locators])),
  };
}

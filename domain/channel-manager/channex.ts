import { addDays, daysBetween, eachDate, CALENDAR_DATE_RULE, isCalendarDate, monthOf } from '../catalogue/calendar.ts';
import {
  MEAL_PLANS,
  ratePlansContent,
  restrictionsFor,
  type DayInventory,
  type MealPlan,
  type PlanRestrictions,
  type PropertyMonth,
} from '../catalogue/day.ts';
import type { Property } from '../catalogue/property.ts';
import { ValidationError } from '../errors.ts';
import type { ListingView } from '../ports/catalogue-reader.ts';

/**
 * Channex's Open Channel API as the service speaks it (docs.channex.io, "For OTA → Open
 * Channel API"; copy in github.com/gungcahyadipp/channex-open-channel, docs_channex.md).
 *
 * Mapping: Channex's `hotel_code` is our listing id; a room type is one of the listing's
 * properties (room_type_id = property id); a rate plan is one meal plan of that property,
 * id `<propertyId>:<PLAN>`, sold per_person because our rates are per adult count.
 */

/** "Changes API", availability changes: units open per night over date_from..date_to. */
export interface AvailabilityChange {
  readonly type: 'availability_changes';
  readonly attributes: {
    readonly room_type_id: string;
    readonly rate_plan_id?: string | null;
    readonly date_from: string;
    readonly date_to: string;
    readonly availability: number;
  };
}

/** "Changes API", rates as "Prices (rates)" describes them: a decimal string, per occupancy. */
export interface ChannexRate {
  readonly rate: string;
  readonly currency?: string;
  readonly fraction_size?: number;
  readonly occupancy?: number;
}

/** "Changes API", restriction changes: only the fields present change. */
export interface RestrictionChange {
  readonly type: 'restriction_changes';
  readonly attributes: {
    readonly room_type_id: string;
    readonly rate_plan_id: string;
    readonly date_from: string;
    readonly date_to: string;
    readonly rates?: readonly ChannexRate[];
    readonly stop_sell?: boolean;
    readonly closed_to_arrival?: boolean;
    readonly closed_to_departure?: boolean;
    readonly min_stay_arrival?: number;
    readonly min_stay_through?: number;
    /** "Min Stay Requirements": sent instead of the two when a channel supports one kind only. */
    readonly min_stay?: number;
    /** 0 means no maximum. */
    readonly max_stay?: number;
  };
}

export type ChannexChange = AvailabilityChange | RestrictionChange;

/** "Changes Notification": one request_id (UUID v4) per notification. */
export interface ChangesNotification {
  readonly type: 'changes_notification';
  readonly attributes: {
    readonly request_id: string;
    readonly hotel_code: string;
    readonly changes: readonly ChannexChange[];
  };
}

export const CHANNEX_CURRENCY = 'INR';
/** The longest stay the catalogue holds; Channex's max_stay 0 ("no maximum") is stored as this. */
export const NO_MAXIMUM_STAY = 365;
/** How far ahead a change may reach: the catalogue's longest range (docs/world-file.md), from today in India. */
export const WINDOW_DAYS = 730;

export const ratePlanId = (propertyId: string, plan: MealPlan): string => `${propertyId}:${plan}`;

/** "Mapping details endpoint": every property of the listing, each with its four meal plans. */
export function mappingDetails(view: ListingView) {
  return {
    data: {
      type: 'mapping_details' as const,
      attributes: {
        room_types: view.properties.map((p) => ({
          id: p.id,
          title: p.title || p.name,
          rate_plans: MEAL_PLANS.map((plan) => ({
            id: ratePlanId(p.id, plan),
            title: `${p.title || p.name} · ${PLAN_TITLES[plan]}`,
            sell_mode: 'per_person' as const,
            // The most guests a unit takes: Channex prices every occupancy up to it (rates per adult count).
            max_persons: p.maxAdults,
            currency: CHANNEX_CURRENCY,
            read_only: false,
          })),
        })),
      },
    },
  };
}

const PLAN_TITLES: Readonly<Record<MealPlan, string>> = {
  EP: 'Room only (EP)',
  CP: 'Breakfast (CP)',
  MAP: 'Breakfast and one meal (MAP)',
  AP: 'All meals (AP)',
};

/**
 * Refuses a notification that cannot be applied at all, naming the path: a hotel that is not
 * one of our listings connected to Channex, or a date that is not a calendar date or a range
 * that ends before it starts. An unknown room type or rate plan is not a refusal: the rest of
 * the notification applies and that change is reported (changeProblems).
 */
export function checkNotification(n: ChangesNotification, view: ListingView | undefined, base: string): void {
  const { hotel_code: hotelCode, changes } = n.attributes;
  if (!view)
    throw new ValidationError(`${base}.attributes.hotel_code`, `Unknown hotel_code '${hotelCode}': no listing of ours connected to Channex has this id.`);
  // A batch names the same few hundred dates tens of thousands of times: each is checked once.
  const dates = new Map<string, boolean>();
  const isDate = (d: string) => dates.get(d) ?? dates.set(d, isCalendarDate(d)).get(d)!;
  changes.forEach((c, i) => {
    const at = `${base}.attributes.changes[${i}].attributes`;
    const a = c.attributes;
    if (!isDate(a.date_from)) throw new ValidationError(`${at}.date_from`, `date_from must be ${CALENDAR_DATE_RULE}.`);
    if (!isDate(a.date_to)) throw new ValidationError(`${at}.date_to`, `date_to must be ${CALENDAR_DATE_RULE}.`);
    if (a.date_from > a.date_to) throw new ValidationError(`${at}.date_to`, `date_to (${a.date_to}) must not be before date_from (${a.date_from}).`);
  });
}

/** Why a change names nothing the listing has (reported, the change not applied), or undefined. */
function unknownTarget(c: ChannexChange, properties: ReadonlyMap<string, Property>, hotelCode: string, path: string): NotApplied | undefined {
  const a = c.attributes;
  if (!properties.has(a.room_type_id))
    return { path: `${path}.room_type_id`, reason: `Unknown room_type_id '${a.room_type_id}': listing '${hotelCode}' has no such property; not applied.` };
  if (c.type === 'restriction_changes' && planOf(c.attributes.rate_plan_id, a.room_type_id) === undefined) {
    return {
      path: `${path}.rate_plan_id`,
      reason: `Unknown rate_plan_id '${c.attributes.rate_plan_id}': property '${a.room_type_id}' sells ${MEAL_PLANS.map((p) => ratePlanId(a.room_type_id, p)).join(', ')}; not applied.`,
    };
  }
  return undefined;
}

/**
 * Everything of a checked notification that will not be applied as sent, known from the
 * notification and the listing alone (the answer's `warnings`): dates outside the window,
 * changes naming a room type or rate plan the listing does not have, and values the catalogue
 * cannot hold (availability above the units, another currency, an occupancy above max_persons,
 * a rate in paise or out of range, a stay length out of range). The apply step reports the
 * same, plus what only the stored days show (planChanges).
 */
export function changeProblems(n: ChangesNotification, view: ListingView, base: string, today: string): NotApplied[] {
  const properties = new Map(view.properties.map((p) => [p.id, p]));
  const { ranges, notApplied } = datesInWindow(n, base, today);
  const report = (path: string, reason: string) => notApplied.push({ path, reason });
  n.attributes.changes.forEach((change, i) => {
    if (ranges[i]!.from > ranges[i]!.to) return;
    const path = `${base}.attributes.changes[${i}].attributes`;
    const unknown = unknownTarget(change, properties, n.attributes.hotel_code, path);
    if (unknown) return notApplied.push(unknown);
    const property = properties.get(change.attributes.room_type_id)!;
    if (change.type === 'availability_changes') return availabilityPatch(change, property, path, report);
    restrictionPatch(change, path, report);
    ratesOf(change, property, path, report);
  });
  return notApplied;
}

function planOf(ratePlan: string | null | undefined, propertyId: string): MealPlan | undefined {
  if (!ratePlan?.startsWith(`${propertyId}:`)) return undefined;
  const plan = ratePlan.slice(propertyId.length + 1);
  return (MEAL_PLANS as readonly string[]).includes(plan) ? (plan as MealPlan) : undefined;
}

/** Something a notification asked for that is reported back and not applied. */
export interface NotApplied {
  readonly path: string;
  readonly reason: string;
}

/** The dates of a notification's changes that fall inside the window, and what falls outside it, reported. */
export function datesInWindow(n: ChangesNotification, base: string, today: string): { ranges: { from: string; to: string }[]; notApplied: NotApplied[] } {
  const last = addDays(today, WINDOW_DAYS);
  const notApplied: NotApplied[] = [];
  const ranges = n.attributes.changes.map((c, i) => {
    const { date_from: from, date_to: to } = c.attributes;
    const path = () => `${base}.attributes.changes[${i}]`;
    if (from < today)
      notApplied.push({ path: path(), reason: `${from}..${to < today ? to : addDays(today, -1)} is in the past (today is ${today} in India); not applied.` });
    if (to > last)
      notApplied.push({
        path: path(),
        reason: `${from > last ? from : addDays(last, 1)}..${to} is beyond the ${WINDOW_DAYS}-day window (last date ${last}); not applied.`,
      });
    return { from: from < today ? today : from, to: to > last ? last : to };
  });
  return { ranges, notApplied };
}

/** A catalogue sync document (docs/catalogue-sync.md) and what could not go into it. */
export interface ChannexPlan {
  readonly document: { version: 1; catalogue: { inventory: Record<string, unknown>[]; rates: Record<string, unknown>[] } };
  readonly notApplied: readonly NotApplied[];
  readonly nights: number;
}

type PlanPatch = { -readonly [K in keyof PlanRestrictions]?: PlanRestrictions[K] };
/** What a notification sets on one property's date: the units (availability) and each rate plan's restrictions. */
type InventoryPatch = { quantity?: number; ratePlans?: Partial<Record<MealPlan, PlanPatch>> };

/**
 * Turns one checked notification into the catalogue sync document that applies it. Later
 * changes win over earlier ones on the dates they share, as Channex sends them in order.
 * Availability sets the room's units; restrictions come per rate plan and merge into that
 * plan's restrictions on the day's stored inventory (ratePlans), so a plan's stop-sell
 * closes that plan only (a restriction-only change keeps the units; a day with no inventory
 * yet gets 0 units until availability arrives);
 * rates merge per plan and adult count, as a sync does. Values the catalogue cannot hold
 * are reported and left out, never clamped. Work is proportional to the nights changed.
 */
export function planChanges(n: ChangesNotification, view: ListingView, months: readonly PropertyMonth[], base: string, today: string): ChannexPlan {
  const properties = new Map(view.properties.map((p) => [p.id, p]));
  const { ranges, notApplied } = datesInWindow(n, base, today);
  const patches = new Map<string, Map<string, InventoryPatch>>();
  const rates = new Map<string, Map<string, Partial<Record<MealPlan, Record<string, number>>>>>();
  const report = (path: string, reason: string) => notApplied.push({ path, reason });
  let nights = 0;

  n.attributes.changes.forEach((change, i) => {
    const range = ranges[i]!;
    if (range.from > range.to) return;
    const path = `${base}.attributes.changes[${i}].attributes`;
    const unknown = unknownTarget(change, properties, n.attributes.hotel_code, path);
    if (unknown) return notApplied.push(unknown);
    const property = properties.get(change.attributes.room_type_id)!;
    const plan = change.type === 'restriction_changes' ? planOf(change.attributes.rate_plan_id, property.id)! : 'EP';
    const restrictions = change.type === 'restriction_changes' ? restrictionPatch(change, path, report) : undefined;
    const units = change.type === 'availability_changes' ? availabilityPatch(change, property, path, report) : undefined;
    const prices = change.type === 'restriction_changes' ? ratesOf(change, property, path, report) : undefined;
    if (units === undefined && !restrictions && !prices) return;
    const propertyPatches = mapOf(patches, property.id);
    const propertyRates = mapOf(rates, property.id);
    for (const date of eachDate(range.from, range.to)) {
      nights++;
      if (units !== undefined || restrictions) {
        const was = propertyPatches.get(date) ?? {};
        propertyPatches.set(date, {
          quantity: units ?? was.quantity,
          ratePlans: restrictions ? { ...was.ratePlans, [plan]: { ...was.ratePlans?.[plan], ...restrictions } } : was.ratePlans,
        });
      }
      if (prices) {
        const day = propertyRates.get(date) ?? {};
        day[plan] = { ...day[plan], ...prices };
        propertyRates.set(date, day);
      }
    }
  });

  const stored = new Map<string, DayInventory | null>();
  for (const m of months) for (const [d, day] of Object.entries(m.days)) stored.set(`${m.propertyId}|${m.month}-${d}`, day.inventory);

  const inventory: Record<string, unknown>[] = [];
  for (const [propertyId, byDate] of patches) {
    const days: [string, DayInventory][] = [];
    for (const [date, patch] of [...byDate].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const was: DayInventory = { quantity: 0, minimumStay: 1, maximumStay: 30, stopSell: false, ...stored.get(`${propertyId}|${date}`) };
      const ratePlans = { ...was.ratePlans };
      for (const plan of MEAL_PLANS) {
        const own = patch.ratePlans?.[plan];
        if (!own) continue;
        const next = { ...ratePlans[plan], ...own };
        const sold = restrictionsFor({ ...was, ratePlans: { [plan]: next } }, plan);
        const longest = Math.max(sold.minimumStay, sold.minimumStayArrival ?? 1);
        if (longest > sold.maximumStay) {
          report(
            `${base}.attributes.hotel_code`,
            `${ratePlanId(propertyId, plan)} on ${date}: the minimum stay (${longest}) would exceed the maximum stay (${sold.maximumStay}); that date's restrictions of this rate plan are not applied.`,
          );
          continue;
        }
        ratePlans[plan] = next;
      }
      const { ratePlans: _, ...room } = was;
      days.push([date, { ...room, quantity: patch.quantity ?? was.quantity, ...(ratePlansContent(ratePlans) ? { ratePlans } : {}) }]);
    }
    for (const run of runs(days, inventoryKey)) inventory.push({ propertyId, from: run.from, to: run.to, ...run.value });
  }
  const rateRanges: Record<string, unknown>[] = [];
  for (const [propertyId, byDate] of rates) {
    const sorted = [...byDate].sort(([a], [b]) => (a < b ? -1 : 1));
    for (const plan of MEAL_PLANS) {
      const days = sorted.filter(([, r]) => r[plan]).map(([date, r]): [string, Record<string, number>] => [date, r[plan]!]);
      for (const run of runs(days, (r) => JSON.stringify(r))) rateRanges.push({ propertyId, from: run.from, to: run.to, mealPlan: plan, adults: run.value });
    }
  }
  return { document: { version: 1, catalogue: { inventory, rates: rateRanges } }, notApplied, nights };
}

const mapOf = <K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> => {
  let inner = outer.get(key);
  if (!inner) outer.set(key, (inner = new Map()));
  return inner;
};

const inventoryKey = (i: DayInventory): string =>
  `${i.quantity},${i.minimumStay},${i.maximumStay},${i.stopSell},${i.minimumStayArrival ?? ''},${i.closedToArrival ?? ''},${i.closedToDeparture ?? ''}|${ratePlansContent(i.ratePlans)}`;

/** Consecutive dates with the same value, as ranges: a 500-night change of one price is one range. */
function* runs<T>(days: readonly (readonly [string, T])[], key: (value: T) => string): Generator<{ from: string; to: string; value: T }> {
  let current: { from: string; to: string; value: T; key: string } | undefined;
  for (const [date, value] of days) {
    const k = key(value);
    if (current && current.key === k && daysBetween(current.to, date) === 1) {
      current.to = date;
      continue;
    }
    if (current) yield current;
    current = { from: date, to: date, value, key: k };
  }
  if (current) yield current;
}

function availabilityPatch(c: AvailabilityChange, property: Property, path: string, report: (path: string, reason: string) => void): number | undefined {
  const units = c.attributes.availability;
  if (units > property.quantity) {
    report(`${path}.availability`, `availability ${units} exceeds the ${property.quantity} unit(s) property '${property.id}' has; not applied.`);
    return undefined;
  }
  return units;
}

function restrictionPatch(c: RestrictionChange, path: string, report: (path: string, reason: string) => void): PlanPatch | undefined {
  const a = c.attributes;
  const patch: PlanPatch = {};
  if (a.stop_sell !== undefined) patch.stopSell = a.stop_sell;
  if (a.closed_to_arrival !== undefined) patch.closedToArrival = a.closed_to_arrival;
  if (a.closed_to_departure !== undefined) patch.closedToDeparture = a.closed_to_departure;
  const nights = (field: string, value: number | undefined, min: number): number | undefined => {
    if (value === undefined) return undefined;
    if (value < min || value > NO_MAXIMUM_STAY) {
      report(`${path}.${field}`, `${field} ${value} is outside ${min}..${NO_MAXIMUM_STAY} nights; not applied.`);
      return undefined;
    }
    return value;
  };
  const through = nights('min_stay_through', a.min_stay_through, 1) ?? nights('min_stay', a.min_stay, 1);
  if (through !== undefined) patch.minimumStay = through;
  const arrival = nights('min_stay_arrival', a.min_stay_arrival, 1);
  if (arrival !== undefined) patch.minimumStayArrival = arrival;
  const max = nights('max_stay', a.max_stay, 0);
  if (max !== undefined) patch.maximumStay = max === 0 ? NO_MAXIMUM_STAY : max;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** Rupees per adult count, 1..max_persons (maxAdults). A rate without occupancy is for max_persons. */
function ratesOf(c: RestrictionChange, property: Property, path: string, report: (path: string, reason: string) => void): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  (c.attributes.rates ?? []).forEach((r, j) => {
    const at = `${path}.rates[${j}]`;
    const occupancy = r.occupancy ?? property.maxAdults;
    if (r.currency !== undefined && r.currency !== CHANNEX_CURRENCY)
      return report(`${at}.currency`, `rates are in ${CHANNEX_CURRENCY}; ${r.currency} not applied.`);
    if (occupancy < 1 || occupancy > property.maxAdults) {
      return report(`${at}.occupancy`, `occupancy ${occupancy} is outside 1..${property.maxAdults} (the property's max_persons); not applied.`);
    }
    const rupees = rupeesOf(r.rate);
    if (rupees === undefined) return report(`${at}.rate`, `rate '${r.rate}' is not rupees up to 10,000,000 with at most two decimals (paise); not applied.`);
    out[String(occupancy)] = rupees;
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * "200.00" → 200, "150.50" → 150.5 (the sync document's rupees; stored as 15050 paise exactly);
 * a third decimal that is not 0 → undefined (INR's fraction_size is 2: "Prices (rates)").
 */
function rupeesOf(rate: string): number | undefined {
  const m = /^(\d{1,8})(?:\.(\d{1,2})(0*))?$/.exec(rate);
  if (!m) return undefined;
  const paise = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return paise <= 1_000_000_000 ? paise / 100 : undefined;
}

/** The months a plan must read: those holding the window-clipped dates of the changes. */
export function monthsTouched(n: ChangesNotification, base: string, today: string): { propertyIds: string[]; fromMonth: string; toMonth: string } | undefined {
  const { ranges } = datesInWindow(n, base, today);
  const live = ranges.map((r, i) => ({ ...r, propertyId: n.attributes.changes[i]!.attributes.room_type_id })).filter((r) => r.from <= r.to);
  if (live.length === 0) return undefined;
  return {
    propertyIds: [...new Set(live.map((r) => r.propertyId))],
    fromMonth: monthOf(live.reduce((a, r) => (r.from < a ? r.from : a), live[0]!.from)),
    toMonth: monthOf(live.reduce((a, r) => (r.to > a ? r.to : a), live[0]!.to)),
  };
}

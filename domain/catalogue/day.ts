import type { Minor } from '../money.ts';
import type { Versioned } from './versioned.ts';

export const MEAL_PLANS = ['EP', 'CP', 'MAP', 'AP'] as const;
/** EP room only, CP with breakfast, MAP breakfast and one meal, AP all meals. */
export type MealPlan = (typeof MEAL_PLANS)[number];

export interface DayInventory {
  /** Units open for sale on this date; 0 = sold out. */
  readonly quantity: number;
  readonly minimumStay: number;
  readonly maximumStay: number;
  readonly stopSell: boolean;
  /**
   * Stays may not begin on this date (Channex closed_to_arrival). Absent = open; the three
   * optional restrictions are stored only when a channel manager set them.
   */
  readonly closedToArrival?: boolean;
  /** Stays may not end on this date, i.e. check out on it (Channex closed_to_departure). */
  readonly closedToDeparture?: boolean;
  /** A stay arriving on this date is at least this many nights (Channex min_stay_arrival); minimumStay applies to every night. */
  readonly minimumStayArrival?: number;
  /**
   * Restrictions of one rate plan (meal plan) on this date, as a channel manager sends them
   * per rate plan: each field set replaces the room's for stays sold on that plan only
   * (restrictionsFor). Absent = every plan follows the room.
   */
  readonly ratePlans?: RatePlanRestrictions;
}

/** The restrictions a rate plan may set on a date; each replaces the room's when present. */
export interface PlanRestrictions {
  readonly stopSell?: boolean;
  readonly minimumStay?: number;
  readonly maximumStay?: number;
  readonly closedToArrival?: boolean;
  readonly closedToDeparture?: boolean;
  readonly minimumStayArrival?: number;
}

export type RatePlanRestrictions = Readonly<Partial<Record<MealPlan, PlanRestrictions>>>;

const PLAN_FIELDS = ['stopSell', 'minimumStay', 'maximumStay', 'closedToArrival', 'closedToDeparture', 'minimumStayArrival'] as const;
const FLAG_FIELDS: ReadonlySet<string> = new Set(['stopSell', 'closedToArrival', 'closedToDeparture']);

/**
 * The day's restrictions for stays sold on one meal plan: the room's, with each field the
 * plan sets in its place. Quantity stays the room's (units are shared by every plan).
 */
export function restrictionsFor(inv: DayInventory, plan: MealPlan): DayInventory {
  const own = inv.ratePlans?.[plan];
  return own ? { ...inv, ...own } : inv;
}

/** One rate plan's restrictions as sold on a date, every field filled (the room's where the plan sets none): what reads show. */
export interface PlanRestrictionsView {
  readonly stopSell: boolean;
  readonly minimumStay: number;
  readonly maximumStay: number;
  readonly closedToArrival: boolean;
  readonly closedToDeparture: boolean;
  readonly minimumStayArrival?: number;
}

/** The meal plans with restrictions of their own on this date, each as sold; undefined when every plan follows the room. */
export function ratePlansView(inv: DayInventory): Partial<Record<MealPlan, PlanRestrictionsView>> | undefined {
  if (!ratePlansContent(inv.ratePlans)) return undefined;
  const out: Partial<Record<MealPlan, PlanRestrictionsView>> = {};
  for (const plan of MEAL_PLANS) {
    if (!ratePlansContent({ [plan]: inv.ratePlans?.[plan] })) continue;
    const sold = restrictionsFor(inv, plan);
    out[plan] = {
      stopSell: sold.stopSell,
      minimumStay: sold.minimumStay,
      maximumStay: sold.maximumStay,
      closedToArrival: sold.closedToArrival ?? false,
      closedToDeparture: sold.closedToDeparture ?? false,
      ...(sold.minimumStayArrival !== undefined ? { minimumStayArrival: sold.minimumStayArrival } : {}),
    };
  }
  return out;
}

/**
 * Rate-plan restrictions as a canonical string (plans in MEAL_PLANS order, `PLAN=` then the six
 * fields comma-separated, empty when unset, flags 1/0, plans joined by `;`): '' when none.
 * Used for change detection, storage and the search projection alike.
 */
export function ratePlansContent(rp: RatePlanRestrictions | undefined): string {
  if (!rp) return '';
  const parts: string[] = [];
  for (const plan of MEAL_PLANS) {
    const own = rp[plan];
    if (!own || PLAN_FIELDS.every((f) => own[f] === undefined)) continue;
    parts.push(
      `${plan}=${PLAN_FIELDS.map((f) => (own[f] === undefined ? '' : typeof own[f] === 'boolean' ? (own[f] ? '1' : '0') : String(own[f]))).join(',')}`,
    );
  }
  return parts.join(';');
}

/** The inverse of ratePlansContent; undefined for ''. */
export function parseRatePlans(text: string | undefined): RatePlanRestrictions | undefined {
  if (!text) return undefined;
  const out: Partial<Record<MealPlan, PlanRestrictions>> = {};
  for (const part of text.split(';')) {
    const [plan, values] = part.split('=') as [MealPlan, string];
    const own: Record<string, boolean | number> = {};
    values.split(',').forEach((v, i) => {
      if (v === '') return;
      const field = PLAN_FIELDS[i]!;
      own[field] = FLAG_FIELDS.has(field) ? v === '1' : Number(v);
    });
    out[plan] = own;
  }
  return out;
}

/** Meal plan → adult count ("1", "2", …) → nightly rate for the unit, whole rupees in paise. */
export type DayRates = Readonly<Partial<Record<MealPlan, Readonly<Record<string, Minor>>>>>;

/** One property on one date. A date can have rates without inventory (not bookable yet). */
export interface DayData {
  readonly inventory: DayInventory | null;
  readonly rates: DayRates;
}

export type StoredDay = DayData & Versioned;

/** A property's days within one calendar month, stored as one item ("01"…"31" → day). */
export interface PropertyMonth {
  readonly propertyId: string;
  /** yyyy-mm */
  readonly month: string;
  readonly days: Readonly<Record<string, StoredDay>>;
}

/** A day's inventory as a canonical string, for change detection (null = no inventory). */
export function inventoryContent(inv: DayInventory | null | undefined): string {
  if (!inv) return '-';
  const base = `${inv.quantity},${inv.minimumStay},${inv.maximumStay},${inv.stopSell ? 1 : 0}`;
  // The optional restrictions extend the string only when set, so days without them compare as before.
  const withOptional =
    inv.closedToArrival || inv.closedToDeparture || inv.minimumStayArrival !== undefined
      ? `${base},${inv.closedToArrival ? 1 : 0},${inv.closedToDeparture ? 1 : 0},${inv.minimumStayArrival ?? ''}`
      : base;
  const plans = ratePlansContent(inv.ratePlans);
  return plans ? `${withOptional}|${plans}` : withOptional;
}

/** A day's rates as a canonical string: plans in MEAL_PLANS order, adult counts ascending. */
export function ratesContent(rates: DayRates | undefined): string {
  if (!rates) return '';
  let out = '';
  for (const plan of MEAL_PLANS) {
    const byAdults = rates[plan];
    if (!byAdults) continue;
    out += `${plan}:`;
    for (const n of Object.keys(byAdults).sort((a, b) => Number(a) - Number(b))) out += `${n}=${byAdults[n]},`;
    out += ';';
  }
  return out;
}

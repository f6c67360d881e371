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
  return inv.closedToArrival || inv.closedToDeparture || inv.minimumStayArrival !== undefined
    ? `${base},${inv.closedToArrival ? 1 : 0},${inv.closedToDeparture ? 1 : 0},${inv.minimumStayArrival ?? ''}`
    : base;
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

import type { Meal, ValueAddedService } from '../catalogue/add-ons.ts';
import { isCalendarDate } from '../catalogue/calendar.ts';
import { ValidationError } from '../errors.ts';
import type { Minor } from '../money.ts';
import { times } from './amounts.ts';
import type { MealSelection, VasSelection } from './order-request.ts';

/** Most servings, people or service units one selection may ask for on one date. */
export const MAX_ADD_ON_QUANTITY = 100;

/** The stay as add-ons see it. */
export interface StayDates {
  readonly checkIn: string;
  readonly checkOut: string;
  /** checkIn … checkOut − 1 */
  readonly nights: readonly string[];
  readonly adults: number;
  readonly children: number;
}

export interface MealCharge {
  readonly selection: number;
  readonly mealId: string;
  readonly date: string;
  readonly adults: number;
  readonly children: number;
  readonly chefOnCall: boolean;
  readonly amount: Minor;
}

export interface VasCharge {
  readonly selection: number;
  readonly vasId: string;
  readonly variantId: string;
  readonly date: string | null;
  readonly quantity: number;
  readonly unitPrice: Minor;
  readonly amount: Minor;
}

/**
 * One charge per meal selection per date: adults × adultPrice + children × childPrice,
 * plus chefOnCallPrice once per serving when a chef is asked for. unsureOfDates prices the
 * meal on every night of the stay (check-in to the night before check-out) and ignores
 * `dates`. Adults and children default to the whole party and may not exceed it.
 */
export function priceMeals(selections: readonly MealSelection[], catalogue: readonly Meal[], stay: StayDates): MealCharge[] {
  const charges: MealCharge[] = [];
  selections.forEach((sel, i) => {
    const at = `meals[${i}]`;
    const meal = catalogue.find((m) => m.mealId === sel.mealId);
    if (!meal) throw new ValidationError(`${at}.mealId`, `${at}.mealId ${sel.mealId} is not a meal this listing serves.`);
    const adults = headcount(sel.adults ?? stay.adults, stay.adults, `${at}.adults`, 'adults');
    const children = headcount(sel.children ?? stay.children, stay.children, `${at}.children`, 'children');
    if (adults + children === 0) throw new ValidationError(`${at}.adults`, `${at} needs at least one adult or child.`);
    const chefOnCall = sel.chefOnCall ?? false;
    const dates = sel.unsureOfDates ? stay.nights : stayDates(sel.dates ?? [], stay, `${at}.dates`);
    if (dates.length === 0) throw new ValidationError(`${at}.dates`, `${at}.dates needs at least one date, or set unsureOfDates.`);
    const perServing = times(meal.adultPrice, adults) + times(meal.childPrice, children) + (chefOnCall ? meal.chefOnCallPrice : 0);
    for (const date of dates) charges.push({ selection: i, mealId: meal.mealId, date, adults, children, chefOnCall, amount: perServing });
  });
  return charges;
}

/**
 * Charges for value-added services, by the service's pricing kind:
 * - PER_STAY: variant price × quantity, once for the stay (date null); dates and
 *   dateQuantities must lie in the stay but do not change the charge.
 * - PER_NIGHT: variant price × the quantity on each date; unsureOfDates means every night.
 * - PER_UNIT (a service used on a day, such as a transfer vehicle): variant price × the
 *   quantity on each date; with unsureOfDates it is charged once, undated.
 * dateQuantities override quantity on their dates, and each must be a date the selection
 * is charged on; an undated charge only checks that they lie in the stay.
 */
export function priceVas(selections: readonly VasSelection[], catalogue: readonly ValueAddedService[], stay: StayDates): VasCharge[] {
  const charges: VasCharge[] = [];
  selections.forEach((sel, i) => {
    const at = `vas[${i}]`;
    const service = catalogue.find((s) => s.vasId === sel.vasId);
    if (!service) throw new ValidationError(`${at}.vasId`, `${at}.vasId ${sel.vasId} is not a service this listing offers.`);
    const variant = service.variants.find((v) => v.variantId === sel.variantId);
    if (!variant) throw new ValidationError(`${at}.variantId`, `${at}.variantId ${sel.variantId} is not a variant of ${service.vasId}.`);
    const quantity = count(sel.quantity ?? 1, `${at}.quantity`);
    const explicit = sel.unsureOfDates ? [] : stayDates(sel.dates ?? [], stay, `${at}.dates`);
    const line = (date: string | null, n: number): VasCharge => ({
      selection: i,
      vasId: service.vasId,
      variantId: variant.variantId,
      date,
      quantity: n,
      unitPrice: variant.price,
      amount: times(variant.price, n),
    });

    if (service.pricing === 'PER_STAY') {
      checkDateQuantities(sel, [], stay, at);
      charges.push(line(null, quantity));
      return;
    }
    const dated = sel.unsureOfDates ? (service.pricing === 'PER_NIGHT' ? stay.nights : []) : explicit;
    if (!sel.unsureOfDates && dated.length === 0) throw new ValidationError(`${at}.dates`, `${at}.dates needs at least one date, or set unsureOfDates.`);
    const overrides = checkDateQuantities(sel, dated, stay, at);
    if (dated.length === 0) charges.push(line(null, quantity));
    for (const date of dated) charges.push(line(date, overrides.get(date) ?? quantity));
  });
  return charges;
}

/** dateQuantities as date → quantity, each on a date the selection is charged on (any stay date when `charged` is empty). */
function checkDateQuantities(sel: VasSelection, charged: readonly string[], stay: StayDates, at: string): Map<string, number> {
  const out = new Map<string, number>();
  (sel.dateQuantities ?? []).forEach((dq, j) => {
    const param = `${at}.dateQuantities[${j}]`;
    if (!isCalendarDate(dq.date) || dq.date < stay.checkIn || dq.date > stay.checkOut) {
      throw new ValidationError(`${param}.date`, `${param}.date must be a date from checkIn to checkOut.`);
    }
    if (charged.length > 0 && !charged.includes(dq.date))
      throw new ValidationError(`${param}.date`, `${param}.date ${dq.date} is not one of the selection's dates.`);
    if (out.has(dq.date)) throw new ValidationError(`${param}.date`, `${param}.date ${dq.date} is listed twice.`);
    out.set(dq.date, count(dq.quantity, `${param}.quantity`));
  });
  return out;
}

/** Dates inside the stay (check-in to check-out, both inclusive: a departure-day breakfast or transfer is fine), no repeats. */
function stayDates(dates: readonly string[], stay: StayDates, param: string): string[] {
  const seen = new Set<string>();
  for (const d of dates) {
    if (!isCalendarDate(d) || d < stay.checkIn || d > stay.checkOut)
      throw new ValidationError(param, `${param} must hold dates from checkIn to checkOut; ${d} is not one.`);
    if (seen.has(d)) throw new ValidationError(param, `${param} lists ${d} twice.`);
    seen.add(d);
  }
  return [...seen].sort();
}

function headcount(value: number, party: number, param: string, who: string): number {
  if (!Number.isInteger(value) || value < 0) throw new ValidationError(param, `${param} must be a whole number, at least 0.`);
  if (value > party) throw new ValidationError(param, `${param} is ${value}, more than the ${party} ${who} in the order.`);
  return value;
}

function count(value: number, param: string): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_ADD_ON_QUANTITY) {
    throw new ValidationError(param, `${param} must be a whole number from 0 to ${MAX_ADD_ON_QUANTITY}.`);
  }
  return value;
}

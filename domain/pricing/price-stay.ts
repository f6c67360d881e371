import { addDays } from '../catalogue/calendar.ts';
import { channelRate } from '../catalogue/channel.ts';
import { restrictionsFor, type DayData, type MealPlan } from '../catalogue/day.ts';
import type { Property } from '../catalogue/property.ts';
import type { Minor } from '../money.ts';
import { times } from './amounts.ts';
import type { SelectedProperty } from './order-request.ts';
import type { SoldOutNight, UnitOccupancy } from './priced-order.ts';

/** A unit-night before discounts and tax. */
export interface UnitNightBase extends UnitOccupancy {
  readonly date: string;
  /** Channel rate for the adults the occupancy rate includes; null when the night has no rate. */
  readonly occupancyRate: Minor | null;
  readonly extraAdults: number;
  readonly extraAdultRate: Minor;
  readonly extraChildren: number;
  readonly extraChildRate: Minor;
  /** occupancyRate + extras; 0 when there is no rate. */
  readonly base: Minor;
}

export interface StayPrices {
  readonly unitNights: UnitNightBase[];
  readonly soldOutNights: SoldOutNight[];
}

type Days = ReadonlyMap<string, ReadonlyMap<string, DayData>>;

/**
 * The nightly base of every unit on every night, and every reason the stay cannot be sold.
 *
 * A unit-night costs the channel rate of the meal plan's occupancy rate for the adults in
 * the unit (at least one; see occupancyOf), plus the channel rate of extraAdultRate per
 * adult beyond those that rate covers and of extraChildRate per child beyond applicableChild.
 * A night without that occupancy rate is priced at 0 and marks the stay sold out (NO_RATE):
 * the rest of the stay is still priced so the caller can show what is missing.
 */
export function priceStay(args: {
  readonly occupancy: readonly UnitOccupancy[];
  readonly selected: readonly SelectedProperty[];
  readonly properties: ReadonlyMap<string, Property>;
  readonly nights: readonly string[];
  readonly days: Days;
  readonly mealPlan: MealPlan;
  readonly rateAdjustmentPercent: number;
}): StayPrices {
  const { occupancy, selected, properties, nights, days, mealPlan, rateAdjustmentPercent } = args;
  const unitNights: UnitNightBase[] = [];
  const soldOutNights: SoldOutNight[] = [];
  const noRate = new Set<string>();

  for (const [index, night] of nights.entries()) {
    for (const occ of occupancy) {
      const property = properties.get(occ.propertyId)!;
      const day = days.get(occ.propertyId)?.get(night);
      const { listed, covered } = occupancyOf(day, mealPlan, occ, property);
      const occupancyRate = listed === undefined ? null : channelRate(listed, rateAdjustmentPercent);
      const extraAdults = Math.max(0, occ.adults - covered);
      const extraChildren = Math.max(0, occ.children - property.applicableChild);
      const extraAdultRate = channelRate(property.extraAdultRate, rateAdjustmentPercent);
      const extraChildRate = channelRate(property.extraChildRate, rateAdjustmentPercent);
      const base = occupancyRate === null ? 0 : occupancyRate + times(extraAdultRate, extraAdults) + times(extraChildRate, extraChildren);
      if (occupancyRate === null) noRate.add(`${occ.propertyId}|${night}`);
      unitNights.push({ ...occ, date: night, occupancyRate, extraAdults, extraAdultRate, extraChildren, extraChildRate, base });
    }
    for (const { propertyId, quantity } of selected) {
      const day = days.get(propertyId)?.get(night);
      soldOutNights.push(...nightRestrictions(propertyId, night, quantity, nights.length, day, mealPlan, index === 0));
      if (noRate.has(`${propertyId}|${night}`)) {
        soldOutNights.push({ propertyId, date: night, reason: 'NO_RATE', requiredUnits: quantity, availableUnits: day?.inventory?.quantity ?? 0 });
      }
    }
  }
  for (const { propertyId, quantity } of selected) soldOutNights.push(...departureRestrictions(propertyId, nights, quantity, days, mealPlan));
  return { unitNights, soldOutNights };
}

/**
 * The listed rate of the unit's occupancy on that day and the adults it covers. Above
 * applicableAdult, a rate listed for that very adult count (a channel manager prices every
 * occupancy up to max_persons, the property's maxAdults) covers them all; otherwise the rate
 * for applicableAdult (at least one adult) covers that many and the rest pay extraAdultRate.
 */
function occupancyOf(day: DayData | undefined, mealPlan: MealPlan, occ: UnitOccupancy, property: Property): { listed: number | undefined; covered: number } {
  const adults = Math.max(occ.adults, 1);
  const byAdults = day?.rates[mealPlan];
  const own = adults > property.applicableAdult ? byAdults?.[String(adults)] : undefined;
  if (own !== undefined) return { listed: own, covered: adults };
  const covered = Math.min(adults, property.applicableAdult);
  return { listed: byAdults?.[String(covered)], covered };
}

/**
 * True when priceStay would find no sold-out night, by the same rules (nightRestrictions
 * and NO_RATE: every unit's occupancy rate listed), without pricing a night: search checks
 * thousands of stays and prices only the page it shows. Every unit of `occupancy` belongs to
 * a selected property, as allocateParty over the selected units makes it.
 */
export function staySellable(args: Omit<Parameters<typeof priceStay>[0], 'rateAdjustmentPercent'>): boolean {
  const { occupancy, selected, properties, nights, days, mealPlan } = args;
  for (const [index, night] of nights.entries()) {
    for (const occ of occupancy) {
      if (occupancyOf(days.get(occ.propertyId)?.get(night), mealPlan, occ, properties.get(occ.propertyId)!).listed === undefined) return false;
    }
    for (const { propertyId, quantity } of selected) {
      if (nightRestrictions(propertyId, night, quantity, nights.length, days.get(propertyId)?.get(night), mealPlan, index === 0).length > 0) return false;
    }
  }
  return selected.every(({ propertyId, quantity }) => departureRestrictions(propertyId, nights, quantity, days, mealPlan).length === 0);
}

/**
 * Why a property cannot sell `required` units on one night of a stay of `stayNights`.
 * Stay limits are checked on every night of the stay, not only on arrival: a stay that
 * touches a night with a 3-night minimum must be at least 3 nights long. On the arrival
 * night also: closed to arrival, and the minimum stay for stays arriving then. The
 * restrictions are those of the meal plan sold (restrictionsFor): a plan's stop-sell closes
 * that plan only.
 */
export function nightRestrictions(
  propertyId: string,
  date: string,
  required: number,
  stayNights: number,
  day: DayData | undefined,
  mealPlan: MealPlan,
  arrival = false,
): SoldOutNight[] {
  const inv = day?.inventory && restrictionsFor(day.inventory, mealPlan);
  if (!inv) return [{ propertyId, date, reason: 'NO_INVENTORY', requiredUnits: required, availableUnits: 0 }];
  const out: SoldOutNight[] = [];
  const base = { propertyId, date, requiredUnits: required, availableUnits: inv.quantity };
  if (inv.stopSell) out.push({ ...base, reason: 'STOP_SELL' });
  if (inv.quantity < required) out.push({ ...base, reason: 'NOT_ENOUGH_UNITS' });
  if (stayNights < inv.minimumStay) out.push({ ...base, reason: 'MINIMUM_STAY', stayLimit: inv.minimumStay });
  if (stayNights > inv.maximumStay) out.push({ ...base, reason: 'MAXIMUM_STAY', stayLimit: inv.maximumStay });
  if (arrival && inv.closedToArrival) out.push({ ...base, reason: 'CLOSED_TO_ARRIVAL' });
  if (arrival && inv.minimumStayArrival !== undefined && stayNights < inv.minimumStayArrival)
    out.push({ ...base, reason: 'MINIMUM_STAY', stayLimit: inv.minimumStayArrival });
  return out;
}

/**
 * The check-out date's rule: a stay may not end on a date closed to departure. The date is
 * the day after the last night; callers load it with the nights (a missing day is open).
 */
export function departureRestrictions(propertyId: string, nights: readonly string[], required: number, days: Days, mealPlan: MealPlan): SoldOutNight[] {
  if (nights.length === 0) return [];
  const departure = addDays(nights[nights.length - 1]!, 1);
  const stored = days.get(propertyId)?.get(departure)?.inventory;
  const inv = stored && restrictionsFor(stored, mealPlan);
  return inv?.closedToDeparture ? [{ propertyId, date: departure, reason: 'CLOSED_TO_DEPARTURE', requiredUnits: required, availableUnits: inv.quantity }] : [];
}

import type { Property } from '../catalogue/property.ts';
import { ValidationError } from '../errors.ts';
import type { SelectedProperty } from './order-request.ts';
import type { UnitOccupancy } from './priced-order.ts';

/**
 * Units for a listing-level booking (no selectedProperties). The choice reads only the
 * catalogue's structure, never a night's inventory, so the same party always gets the same
 * units and a sell-out shows up as soldOut instead of silently moving the party elsewhere.
 *
 * 1. One unit if one can hold the whole party: the smallest such property (fewest adults,
 *    then fewest children, then lowest base price, then id).
 * 2. Otherwise the fewest units, largest first: properties by most adults, then most
 *    children, then lowest base price, then id, taking each property's units in turn
 *    until the party fits.
 */
export function chooseUnits(properties: readonly Property[], adults: number, children: number): SelectedProperty[] {
  const single = [...properties]
    .filter((p) => p.quantity >= 1 && p.maxAdults >= adults && p.maxChildren >= children)
    .sort((a, b) => a.maxAdults - b.maxAdults || a.maxChildren - b.maxChildren || a.basePrice - b.basePrice || compareText(a.id, b.id))[0];
  if (single) return [{ propertyId: single.id, quantity: 1 }];

  const largestFirst = [...properties].sort(
    (a, b) => b.maxAdults - a.maxAdults || b.maxChildren - a.maxChildren || a.basePrice - b.basePrice || compareText(a.id, b.id),
  );
  const chosen: SelectedProperty[] = [];
  let adultRoom = 0;
  let childRoom = 0;
  for (const p of largestFirst) {
    let taken = 0;
    while (taken < p.quantity && (adultRoom < adults || childRoom < children)) {
      taken++;
      adultRoom += p.maxAdults;
      childRoom += p.maxChildren;
    }
    if (taken > 0) chosen.push({ propertyId: p.id, quantity: taken });
  }
  if (adultRoom < adults) throw new ValidationError('adults', `At most ${adultRoom} adults fit in this listing; the order has ${adults}.`);
  if (childRoom < children) throw new ValidationError('children', `At most ${childRoom} children fit in this listing; the order has ${children}.`);
  return chosen;
}

/**
 * Spreads the party over the units, in the order the units are listed, deterministically:
 * adults go round the units one at a time, first up to each unit's applicableAdult (the
 * adults its occupancy rate includes), then up to its maxAdults; children likewise with
 * applicableChild and maxChildren. Filling included places first keeps extra-person
 * charges for when the included places are full, as a front desk would.
 * A unit can end up with no adult when there are more units than adults; it is then
 * priced at its single-occupancy rate.
 */
export function allocateParty(units: readonly Property[], adults: number, children: number): UnitOccupancy[] {
  const adultCounts = spread(
    units.map((u) => u.applicableAdult),
    units.map((u) => u.maxAdults),
    adults,
  );
  if (!adultCounts) {
    const room = units.reduce((s, u) => s + u.maxAdults, 0);
    throw new ValidationError('adults', `At most ${room} adults fit in the selected units; the order has ${adults}.`);
  }
  const childCounts = spread(
    units.map((u) => u.applicableChild),
    units.map((u) => u.maxChildren),
    children,
  );
  if (!childCounts) {
    const room = units.reduce((s, u) => s + u.maxChildren, 0);
    throw new ValidationError('children', `At most ${room} children fit in the selected units; the order has ${children}.`);
  }
  const seen = new Map<string, number>();
  return units.map((u, i) => {
    const unit = (seen.get(u.id) ?? 0) + 1;
    seen.set(u.id, unit);
    return { propertyId: u.id, unit, adults: adultCounts[i]!, children: childCounts[i]! };
  });
}

/** Round-robin to the first limits, then to the second; undefined when the people do not fit. */
function spread(included: readonly number[], max: readonly number[], people: number): number[] | undefined {
  const counts = included.map(() => 0);
  let left = people;
  for (const limits of [included.map((n, i) => Math.min(n, max[i]!)), max]) {
    let placed = true;
    while (left > 0 && placed) {
      placed = false;
      for (let i = 0; i < counts.length && left > 0; i++) {
        if (counts[i]! < limits[i]!) {
          counts[i] = counts[i]! + 1;
          left--;
          placed = true;
        }
      }
    }
  }
  return left === 0 ? counts : undefined;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

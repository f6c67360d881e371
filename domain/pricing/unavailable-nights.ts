import type { SoldOutNight } from './priced-order.ts';

/** A sold-out night with the sentence a partner's developer or agent reads. */
export interface UnavailableNight extends SoldOutNight {
  readonly message: string;
}

const nightsText = (n: number): string => `${n} night${n === 1 ? '' : 's'}`;

/**
 * Why one property cannot be sold on one night, in words: the rule, the figure it needs and
 * the figure the stay has. `stayNights` is the length of the stay the night belongs to.
 */
export function explainSoldOutNight(night: SoldOutNight, stayNights: number): string {
  const { propertyId: p, date, requiredUnits, availableUnits, stayLimit } = night;
  switch (night.reason) {
    case 'NO_INVENTORY':
      return `Property ${p} has no inventory for ${date}.`;
    case 'NOT_ENOUGH_UNITS':
      return `Sold out: property ${p} has ${availableUnits} of the ${requiredUnits} units this stay needs on ${date}.`;
    case 'STOP_SELL':
      return `Property ${p} is closed to sale (stop-sell) on ${date}.`;
    case 'MINIMUM_STAY':
      return `Property ${p} needs a stay of at least ${nightsText(stayLimit ?? 0)} over ${date}; this stay is ${nightsText(stayNights)}.`;
    case 'MAXIMUM_STAY':
      return `Property ${p} allows a stay of at most ${nightsText(stayLimit ?? 0)} over ${date}; this stay is ${nightsText(stayNights)}.`;
    case 'NO_RATE':
      return `Property ${p} has no rate for this occupancy and meal plan on ${date}.`;
    case 'CLOSED_TO_ARRIVAL':
      return `Property ${p} is closed to arrival on ${date}; the stay cannot start then.`;
    case 'CLOSED_TO_DEPARTURE':
      return `Property ${p} is closed to departure on ${date}; the stay cannot end then.`;
  }
}

/** Every sold-out night of a stay, each with its sentence. */
export const explainSoldOutNights = (nights: readonly SoldOutNight[], stayNights: number): UnavailableNight[] =>
  nights.map((n) => ({ ...n, message: explainSoldOutNight(n, stayNights) }));

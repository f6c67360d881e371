import { ConflictError } from '../errors.ts';
import { formatRupees, toRupees, type Minor } from '../money.ts';
import type { PricedSummary, UnavailableNight } from '../pricing/index.ts';
import { summaryInRupees } from '../pricing/rupees.ts';

/** The order no longer prices at acceptedTotal (docs/bookings.md): 409 with expectedTotal and breakup. */
export class PriceMovedError extends ConflictError {
  constructor(accepted: Minor, current: PricedSummary) {
    super(
      'PRICE_MOVED',
      `The order now totals ${formatRupees(current.grandTotal)} INR, not the accepted ${formatRupees(accepted)} INR; review breakup and send acceptedTotal ${formatRupees(current.grandTotal)} to book at the new price.`,
      { param: 'acceptedTotal', expectedTotal: toRupees(current.grandTotal), breakup: summaryInRupees(current) },
    );
  }
}

/**
 * A night of the stay can no longer be sold; booking it would only be refused by the property.
 * The message names the rules (minimum stay, stop-sell, …) and `unavailableNights` lists them
 * per night, as the order's items do.
 */
export class SoldOutError extends ConflictError {
  constructor(listingId: string, nights: readonly UnavailableNight[]) {
    const why = [...new Set(nights.map((n) => ` ${n.message}`))].join('');
    super('SOLD_OUT', `Listing ${listingId} cannot be booked for this stay.${why} Search again and create a new order.`, {
      unavailableNights: nights,
    });
  }
}

/** The booking's state does not allow the operation (a cancellation after the stay started). */
export class BookingStateError extends ConflictError {}

import { gstRatePercent, slabTableOn, type GstSlabTable } from '../catalogue/gst.ts';
import { PricingNotConfiguredError } from '../errors.ts';
import type { Minor } from '../money.ts';
import { percentOf } from './rounding.ts';

/**
 * GST percent for one unit-night: the slab table in force on the night itself (the day the
 * accommodation is supplied), and in it the slab for the unit-night's value after its
 * share of every discount. Dating by the night, not the booking, means a quote, the
 * booking and the invoice of the same stay always agree, and an old invoice re-renders
 * the same from the dated table.
 */
export function unitNightGstRate(tables: readonly GstSlabTable[], night: string, taxableValue: Minor): number {
  const table = slabTableOn(tables, night);
  if (!table) throw new PricingNotConfiguredError(night);
  return gstRatePercent(table, taxableValue);
}

/**
 * GST percent for meals and services: they are supplied with the stay as one composite
 * supply whose principal supply is the accommodation, so they take the accommodation's
 * rate. When the stay's unit-nights fall in different slabs the highest of their rates is
 * used, so tax is never under-collected.
 */
export function addOnGstRate(unitNightRates: readonly number[]): number {
  if (unitNightRates.length === 0) throw new RangeError('an order without unit-nights has no accommodation rate');
  return Math.max(...unitNightRates);
}

/** GST on one line, rounded half up to the paisa (the order's gst is the sum of its lines). */
export function lineGst(taxableValue: Minor, ratePercent: number): Minor {
  return percentOf(taxableValue, ratePercent);
}

import { assertMinor, type Minor } from '../money.ts';

export interface TaxSplit {
  readonly cgst: Minor;
  readonly sgst: Minor;
  readonly igst: Minor;
}

/**
 * How one line's GST is shown: CGST and SGST, half each, when the supplier's registration
 * is in the place of supply (an odd paisa goes to CGST, so the halves always add up to the
 * line's GST); IGST otherwise. The GST itself was fixed when the stay was priced.
 */
export function splitTax(gst: Minor, supplierStateCode: string, placeOfSupplyStateCode: string): TaxSplit {
  assertMinor(gst);
  if (supplierStateCode !== placeOfSupplyStateCode) return { cgst: 0, sgst: 0, igst: gst };
  const sign = gst < 0 ? -1 : 1;
  const half = Math.floor(Math.abs(gst) / 2);
  return { cgst: sign * (Math.abs(gst) - half), sgst: sign * half, igst: 0 };
}

/**
 * A tax-inclusive amount split into taxable value and GST at `ratePercent`: the taxable
 * value is amount × 100 / (100 + rate) rounded half away from zero to the paisa, and GST is
 * the rest, so the two add up to the amount exactly. Used where what was charged is a total
 * (a retained cancellation amount, a price difference absorbed by an amendment).
 */
export function splitInclusive(amount: Minor, ratePercent: number): { taxableValue: Minor; gst: Minor } {
  assertMinor(amount);
  if (!Number.isInteger(ratePercent * 100) || ratePercent < 0)
    throw new RangeError(`rate must be a non-negative percent with at most 2 decimals, got ${ratePercent}`);
  const r = BigInt(Math.round(ratePercent * 100));
  const a = BigInt(Math.abs(amount));
  // taxable = a × 10000 / (10000 + r), half up: (2·a·10000 + d) / (2·d).
  const d = 10000n + r;
  const taxable = Number((2n * a * 10000n + d) / (2n * d));
  const sign = amount < 0 ? -1 : 1;
  return { taxableValue: sign * taxable, gst: sign * (Math.abs(amount) - taxable) };
}

import { halfUp, multiply, toSnapshot, transformScale } from 'dinero.js';
import { allocate as allocateBig, dinero as dineroBig, toSnapshot as toSnapshotBig } from 'dinero.js/bigint';
import { INR as INR_BIG } from 'dinero.js/bigint/currencies';
import { assertMinor, inr, type Minor } from '../money.ts';

/**
 * The only places pricing rounds money. Everything else in domain/pricing adds and
 * subtracts whole paise, so a total can always be traced to one of these functions.
 */

/**
 * A percentage as a dinero scaled amount. Percents in the catalogue are whole (discounts,
 * offers) or carry at most two decimals (a statutory rate such as 0.25 %), so the
 * conversion is exact; anything finer is refused rather than silently approximated.
 */
function percentRate(percent: number): { amount: number; scale: number } {
  if (Number.isInteger(percent)) return { amount: percent, scale: 2 };
  const hundredths = Math.round(percent * 100);
  if (hundredths / 100 !== percent) throw new RangeError(`percent must have at most two decimals, got ${percent}`);
  return { amount: hundredths, scale: 4 };
}

/**
 * `percent` % of `amount`, rounded half up to whole paise. Used for the cancellation-plan
 * discount, percentage bank offers and GST on one line.
 */
export function percentOf(amount: Minor, percent: number): Minor {
  assertMinor(amount);
  const exact = multiply(inr(amount), percentRate(percent));
  return toSnapshot(transformScale(exact, 2, halfUp)).amount;
}

/**
 * Splits `amount` into shares proportional to `weights` that add up to `amount` exactly
 * (dinero's allocate: each share rounded down, the leftover paise one each to the largest
 * weights). When every weight is zero the amount is shared equally, so a discount is never
 * lost for want of a base. Runs on bigint because amount × weight can pass 2^53 for a long
 * stay of many units, where number arithmetic would silently lose paise.
 */
export function apportion(amount: Minor, weights: readonly Minor[]): Minor[] {
  assertMinor(amount);
  if (weights.length === 0) {
    if (amount !== 0) throw new RangeError('cannot apportion a non-zero amount over no lines');
    return [];
  }
  for (const w of weights) if (!Number.isSafeInteger(w) || w < 0) throw new RangeError(`weights must be non-negative integers, got ${w}`);
  const ratios = weights.some((w) => w > 0) ? weights : weights.map(() => 1);
  const shares = allocateBig(dineroBig({ amount: BigInt(amount), currency: INR_BIG }), ratios.map(BigInt));
  return shares.map((share) => Number(toSnapshotBig(share).amount));
}

/** `total` shared over `count` (nights), rounded half up to whole paise: a display figure only. */
export function perNightOf(total: Minor, count: number): Minor {
  assertMinor(total);
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${count}`);
  if (total < 0) return -perNightOf(-total, count);
  return Math.floor((2 * total + count) / (2 * count));
}

/**
 * How many whole percent `part` is of `whole`, rounded down, so an advertised saving is
 * never larger than the real one. 0 when `whole` is 0.
 */
export function wholePercentDown(part: Minor, whole: Minor): number {
  assertMinor(part);
  assertMinor(whole);
  if (whole <= 0 || part <= 0) return 0;
  return Math.floor((part * 100) / whole);
}

import { multiply, toSnapshot } from 'dinero.js';
import { assertMinor, inr, type Minor } from '../money.ts';

/** `price` × a whole `count` (people, units, servings): exact, no rounding. */
export function times(price: Minor, count: number): Minor {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  return toSnapshot(multiply(inr(price), count)).amount;
}

/** The sum of whole-paise amounts, checked to stay a safe integer. */
export function sumOf(amounts: Iterable<Minor>): Minor {
  let total = 0;
  for (const a of amounts) total += a;
  assertMinor(total);
  return total;
}

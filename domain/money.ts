import { dinero, toSnapshot, type Dinero } from 'dinero.js';
import { INR } from 'dinero.js/currencies';

/**
 * Money inside the domain is an integer count of paise (minor units). JSON numbers in
 * rupees exist only at the edge (`toRupees` / `parseRupees`). Arithmetic that needs
 * rounding goes through dinero.js in the pricing and GST modules.
 */
export type Minor = number;

export const CURRENCY = 'INR';

export function inr(amount: Minor): Dinero<number> {
  return dinero({ amount, currency: INR });
}

export function minorOf(d: Dinero<number>): Minor {
  const { amount, scale } = toSnapshot(d);
  if (scale !== 2) throw new RangeError(`expected scale 2, got ${scale}: round in a named place first`);
  return amount;
}

/** Paise → rupees as a JSON number with at most two decimals, exact for |x| < 2^53 paise. */
export function toRupees(amount: Minor): number {
  assertMinor(amount);
  return amount / 100;
}

const RUPEES = /^-?(0|[1-9][0-9]{0,12})(\.[0-9]{1,2})?$/;

/**
 * Rupees (a JSON number or a decimal string) → paise, exactly. Returns undefined for
 * anything that is not a finite amount with at most two decimals, so the caller can name
 * the offending field.
 */
export function parseRupees(value: unknown): Minor | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value.trim() : '';
  if (!RUPEES.test(text)) return undefined;
  const negative = text.startsWith('-');
  const [whole = '0', frac = ''] = text.replace('-', '').split('.');
  const paise = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return negative ? -paise : paise;
}

/** Paise as rupees with exactly two decimals for messages ("250.50"), from integers alone. */
export function formatRupees(amount: Minor): string {
  assertMinor(amount);
  const abs = Math.abs(amount);
  return `${amount < 0 ? '-' : ''}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function assertMinor(amount: Minor): void {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`money must be a safe integer of paise, got ${amount}`);
}

/**
 * Paise in Indian digit grouping with two decimals ("1,23,456.78"): the last three
 * digits of the rupees, then pairs (lakh, crore). From integers alone, like formatRupees.
 */
export function formatIndianGrouping(amount: Minor): string {
  const [sign, rupees, paise] = /^(-?)(\d+)\.(\d\d)$/.exec(formatRupees(amount))!.slice(1);
  const head = rupees!.slice(0, -3);
  const grouped = head ? `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${rupees!.slice(-3)}` : rupees!;
  return `${sign}${grouped}.${paise}`;
}

/** Paise as a printed rupee amount with the rupee sign and Indian grouping ("₹1,23,456.78", "-₹50.00"). */
export function formatInr(amount: Minor): string {
  const grouped = formatIndianGrouping(amount);
  return grouped.startsWith('-') ? `-₹${grouped.slice(1)}` : `₹${grouped}`;
}

import { assertMinor, type Minor } from '../money.ts';

const ONES = [
  'Zero',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
] as const;
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'] as const;

/** 1–99: "Seven", "Nineteen", "Forty", "Fifty-Six". */
function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  const unit = n % 10;
  return unit === 0 ? TENS[Math.trunc(n / 10)]! : `${TENS[Math.trunc(n / 10)]}-${ONES[unit]}`;
}

/** 1–999: "Four Hundred Fifty-Six" (no "and": the Indian invoice convention). */
function belowThousand(n: number): string {
  const hundreds = Math.trunc(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (hundreds > 0) parts.push(`${ONES[hundreds]} Hundred`);
  if (rest > 0) parts.push(belowHundred(rest));
  return parts.join(' ');
}

/**
 * A positive whole number in the Indian system: crore (10^7), lakh (10^5), thousand,
 * hundred. Crores above 99 are themselves counted in this system ("One Lakh Crore"), which
 * is how Indian accounts write them; there is no larger named unit in common use.
 */
function indianWords(n: number): string {
  const crore = Math.trunc(n / 10_000_000);
  const lakh = Math.trunc(n / 100_000) % 100;
  const thousand = Math.trunc(n / 1000) % 100;
  const rest = n % 1000;
  const parts: string[] = [];
  if (crore > 0) parts.push(`${indianWords(crore)} Crore`);
  if (lakh > 0) parts.push(`${belowHundred(lakh)} Lakh`);
  if (thousand > 0) parts.push(`${belowHundred(thousand)} Thousand`);
  if (rest > 0) parts.push(belowThousand(rest));
  return parts.join(' ');
}

/**
 * An amount in words as printed on an Indian tax invoice:
 * 12345678 → "Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Seventy-Eight Paise Only".
 * Zero is "Rupees Zero Only"; paise alone are "Rupees Zero and Fifty Paise Only" so the
 * line always starts with the currency. Documents print positive amounts (a credit note
 * says what it credits), so a negative amount is a programming error.
 */
export function amountInWordsINR(minor: Minor): string {
  assertMinor(minor);
  if (minor < 0) throw new RangeError(`amount in words is for non-negative amounts, got ${minor}`);
  const rupees = Math.trunc(minor / 100);
  const paise = minor % 100;
  const rupeeWords = rupees === 0 ? 'Zero' : indianWords(rupees);
  return paise === 0 ? `Rupees ${rupeeWords} Only` : `Rupees ${rupeeWords} and ${belowHundred(paise)} Paise Only`;
}

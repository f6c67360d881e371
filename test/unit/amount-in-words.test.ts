import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountInWordsINR } from '../../domain/invoicing/invoice-document.ts';

const SMALL: Record<string, number> = Object.fromEntries(
  [
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
  ].map((w, i) => [w, i]),
);
const TENS: Record<string, number> = { Twenty: 20, Thirty: 30, Forty: 40, Fifty: 50, Sixty: 60, Seventy: 70, Eighty: 80, Ninety: 90 };

/** Reads Indian-style number words back ("Four Lakh Fifty-Six Thousand Seven" → 456007): the inverse under test. */
function readWords(words: string): number {
  let total = 0;
  let section = 0;
  let current = 0;
  for (const token of words.split(' ')) {
    if (token === 'Hundred') current *= 100;
    else if (token === 'Thousand') [section, current] = [section + current * 1000, 0];
    else if (token === 'Lakh') [section, current] = [section + current * 100_000, 0];
    else if (token === 'Crore') [total, section, current] = [total + (section + current) * 10_000_000, 0, 0];
    else {
      const [tens, unit] = token.split('-');
      const value = unit !== undefined ? TENS[tens!]! + SMALL[unit]! : (SMALL[token] ?? TENS[token]);
      if (value === undefined) throw new Error(`unknown word ${token}`);
      current += value;
    }
  }
  return total + section + current;
}

/** "Rupees X [and Y Paise] Only" → paise. */
function readAmount(text: string): number {
  const m = /^Rupees (.+?)(?: and (.+) Paise)? Only$/.exec(text);
  if (!m) throw new Error(`not an amount in words: ${text}`);
  return readWords(m[1]!) * 100 + (m[2] ? readWords(m[2]) : 0);
}

describe('amountInWordsINR', () => {
  it.each([
    [0, 'Rupees Zero Only'],
    [1, 'Rupees Zero and One Paise Only'],
    [99, 'Rupees Zero and Ninety-Nine Paise Only'],
    [100, 'Rupees One Only'],
    [1_000, 'Rupees Ten Only'],
    [10_100, 'Rupees One Hundred One Only'],
    [12_345_678, 'Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Seventy-Eight Paise Only'],
    [100_000_00, 'Rupees One Lakh Only'],
    [1_000_000_000, 'Rupees One Crore Only'],
    [1_000_000_001, 'Rupees One Crore and One Paise Only'],
    [1_234_567_890_12, 'Rupees One Hundred Twenty-Three Crore Forty-Five Lakh Sixty-Seven Thousand Eight Hundred Ninety and Twelve Paise Only'],
    [99_99_99_999_99, 'Rupees Ninety-Nine Crore Ninety-Nine Lakh Ninety-Nine Thousand Nine Hundred Ninety-Nine and Ninety-Nine Paise Only'],
    [1_00_00_000_00_00_000, 'Rupees One Lakh Crore Only'],
    [
      Number.MAX_SAFE_INTEGER,
      'Rupees Ninety Lakh Seven Thousand One Hundred Ninety-Nine Crore Twenty-Five Lakh Forty-Seven Thousand Four Hundred Nine and Ninety-One Paise Only',
    ],
    [2_000_020_00, 'Rupees Twenty Lakh Twenty Only'],
    [1_100_000_00, 'Rupees Eleven Lakh Only'],
  ])('%i paise is %s', (paise, words) => {
    expect(amountInWordsINR(paise)).toBe(words);
  });

  it('refuses negative and fractional amounts', () => {
    expect(() => amountInWordsINR(-1)).toThrow(RangeError);
    expect(() => amountInWordsINR(1.5)).toThrow(RangeError);
  });

  it('reads back as the same amount, for any amount of paise', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 100_000_000_00 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })), (paise) => {
        expect(readAmount(amountInWordsINR(paise))).toBe(paise);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes every unit at most once, largest first, with title-case words only', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (paise) => {
        const words = amountInWordsINR(paise);
        expect(words).toMatch(/^Rupees ([A-Z][a-z]+(-[A-Z][a-z]+)? )+(and ([A-Z][a-z]+(-[A-Z][a-z]+)? )+Paise )?Only$/);
        const rupeePart = /^Rupees (.+?)(?: and .+ Paise)? Only$/.exec(words)![1]!;
        // Below the crore count, thousand, lakh and crore each appear once and in descending order.
        const tail = rupeePart.split(' Crore').pop()!;
        const units = tail.split(' ').filter((w) => w === 'Lakh' || w === 'Thousand');
        expect(units).toEqual([...new Set(units)]);
        if (units.length === 2) expect(units).toEqual(['Lakh', 'Thousand']);
        expect(words).not.toMatch(/\bZero\b.*\bZero\b/);
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatRupees, parseRupees, toRupees } from '../../domain/money.ts';

/** The largest amount parseRupees accepts: 13 rupee digits and 2 paise digits. */
const MAX_PAISE = 999_999_999_999_999;

describe('parseRupees', () => {
  it.each([
    [12.5, 1250],
    [0.01, 1],
    [100, 10_000],
    ['12.50', 1250],
    [' 7.5 ', 750],
    [-3.25, -325],
    ['-0.05', -5],
  ])('parses %j as %i paise', (input, paise) => {
    expect(parseRupees(input)).toBe(paise);
  });

  it.each([
    [0.001],
    ['1.234'],
    [0.1 + 0.2],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [1e21],
    ['12,50'],
    ['1e3'],
    ['01.5'],
    [''],
    ['.5'],
    [null],
    [undefined],
    [true],
    [{}],
  ])('refuses %j', (input) => {
    expect(parseRupees(input)).toBeUndefined();
  });

  it('refuses more than 13 rupee digits rather than losing paise', () => {
    expect(parseRupees('12345678901234.56')).toBeUndefined();
  });
});

describe('toRupees', () => {
  it('turns paise into a rupee number with two decimals', () => {
    expect(toRupees(123_456)).toBe(1234.56);
  });

  it('throws on a fraction of a paisa', () => {
    expect(() => toRupees(1.5)).toThrow(RangeError);
  });

  it('round-trips every amount through parseRupees(toRupees(x)) exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_PAISE, max: MAX_PAISE }), (paise) => {
        // +0 and −0 are the same amount; compare as amounts.
        return parseRupees(toRupees(paise)) === paise;
      }),
      { numRuns: 5_000 },
    );
  });

  it('round-trips every amount written as a JSON decimal string', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_PAISE, max: MAX_PAISE }), (paise) => {
        const text = JSON.stringify(toRupees(paise));
        return parseRupees(JSON.parse(text) as number) === paise && parseRupees(text) === paise;
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('formatRupees', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [25_050, '250.50'],
    [-199, '-1.99'],
    [12_345_678_900, '123456789.00'],
  ])('formats %i paise as %s', (paise, text) => {
    expect(formatRupees(paise)).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import { durationOption, rupeesOption } from '../../bin/admin/input.ts';
import { UsageError } from '../../bin/admin/command.ts';
import { formatInr } from '../../domain/money.ts';

describe('Amounts typed at the admin tool', () => {
  it.each([
    ['500000', 50_000_000],
    ['5,00,000', 50_000_000],
    ['500,000', 50_000_000],
    ['₹5,00,000.00', 50_000_000],
    ['₹ 1999.50', 199_950],
    ['1,23,45,678.5', 1_234_567_850],
    ['12,345', 1_234_500],
    ['-1,000', -100_000],
    ['999', 99_900],
  ])('reads %s as %i paise', (text, paise) => {
    expect(rupeesOption('credit-limit', text)).toBe(paise);
  });

  it.each(['5,0000', '50,00,00', ',500', '5,00,000,', '1,2', '5,00,000.123', '5 00 000', '₹', 'five'])(
    'refuses %s naming the flag, rather than read it as another amount',
    (text) => {
      expect(() => rupeesOption('credit-limit', text)).toThrow(UsageError);
      expect(() => rupeesOption('credit-limit', text)).toThrow(/--credit-limit/);
    },
  );

  it('takes back exactly what the tool prints', () => {
    for (const paise of [0, 5, 100, 99_999, 50_000_000, 1_234_567_850]) {
      expect(rupeesOption('amount', formatInr(paise))).toBe(paise);
    }
  });
});

describe('Durations typed at the admin tool', () => {
  it.each([
    ['90s', 90_000],
    ['15m', 900_000],
    ['2h', 7_200_000],
    [' 24H ', 86_400_000],
  ])('reads %s as %i ms', (text, ms) => {
    expect(durationOption('timeout', text)).toBe(ms);
  });

  it.each(['30', '0s', '25h', '1.5m', '-5m', 'soon'])('refuses %s naming the flag', (text) => {
    expect(() => durationOption('timeout', text)).toThrow(/--timeout must be a duration/);
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { dayOrInstant, resolveWindow } from '../../domain/reads/date-window.ts';

describe('Function: resolveWindow', () => {
  it('defaults to 30 dates from today', () => {
    expect(resolveWindow(undefined, undefined, '2027-03-01')).toEqual({ from: '2027-03-01', to: '2027-03-30' });
  });

  it('refuses a window over 365 dates naming to, first in the message', () => {
    const refuse = () => resolveWindow('2027-01-01', '2028-01-01', '2026-11-25');

    expect(refuse).toThrow(ValidationError);
    expect(refuse).toThrow(/^to: the window from 2027-01-01 to 2028-01-01 covers more than 365 dates\.$/);
  });
});

describe('Function: dayOrInstant', () => {
  it('reads an India date as the first instant of the IST day for a start and its last for an end', () => {
    expect(dayOrInstant('2026-11-01', 'from', 'start')).toBe('2026-10-31T18:30:00.000Z');
    expect(dayOrInstant('2026-11-30', 'to', 'end')).toBe('2026-11-30T18:29:59.999Z');
  });

  it('takes an instant as before, in its canonical form, whichever edge', () => {
    expect(dayOrInstant('2026-11-01T05:30:00+05:30', 'from', 'start')).toBe('2026-11-01T00:00:00.000Z');
    expect(dayOrInstant('2026-11-01T05:30:00+05:30', 'to', 'end')).toBe('2026-11-01T00:00:00.000Z');
  });

  it.each([
    ['2026-02-29', 'from'],
    ['2100-01-01', 'to'],
    ['2026-11', 'from'],
    ['01-11-2026', 'to'],
  ])('refuses %s naming %s', (value, param) => {
    expect(() => dayOrInstant(value, param, 'start')).toThrow(expect.objectContaining({ param }));
    expect(() => dayOrInstant(value, param, 'start')).toThrow(ValidationError);
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { resolveWindow } from '../../domain/reads/date-window.ts';

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

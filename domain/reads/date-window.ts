import { addDays, daysBetween } from '../catalogue/calendar.ts';
import { ValidationError } from '../errors.ts';

/** Bulk reads cover at most this many dates, `from` and `to` both counted. */
export const MAX_WINDOW_DATES = 365;
/** Without `to`, a window covers this many dates from `from`. */
export const DEFAULT_WINDOW_DATES = 30;

export interface DateWindow {
  readonly from: string;
  readonly to: string;
}

/**
 * The inclusive window a bulk read covers. `from` defaults to today in India, `to` to 30
 * dates on; `from` after `to` and windows over 365 dates are refused, never clamped.
 */
export function resolveWindow(from: string | undefined, to: string | undefined, today: string): DateWindow {
  const start = from ?? (to ? addDays(to, -(DEFAULT_WINDOW_DATES - 1)) : today);
  const end = to ?? addDays(start, DEFAULT_WINDOW_DATES - 1);
  if (start > end) throw new ValidationError('from', `from (${start}) must not be after to (${end}).`);
  if (daysBetween(start, end) + 1 > MAX_WINDOW_DATES) throw new ValidationError('to', `to: the window from ${start} to ${end} covers more than ${MAX_WINDOW_DATES} dates.`);
  return { from: start, to: end };
}

/** Today's date in India (IST, UTC+5:30), where every property and partner calendar lives. */
export function indiaToday(now: Date): string {
  return new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

/** A caller's instant in the one form stored timestamps have (`toISOString`), so string order is time order. */
export function canonicalInstant(value: string, param: string): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new ValidationError(param, `${param} must be an ISO 8601 date-time such as 2027-03-01T00:00:00Z.`);
  return at.toISOString();
}

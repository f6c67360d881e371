import { addDays, CALENDAR_DATE_RULE, daysBetween, HORIZON, isCalendarDate } from '../catalogue/calendar.ts';
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
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (value !== undefined) requireCalendarDate(name, value);
  const start = from ?? (to ? addDays(to, -(DEFAULT_WINDOW_DATES - 1)) : today);
  const end = to ?? addDays(start, DEFAULT_WINDOW_DATES - 1);
  if (start > end) throw new ValidationError('from', `from (${start}) must not be after to (${end}).`);
  if (daysBetween(start, end) + 1 > MAX_WINDOW_DATES)
    throw new ValidationError('to', `to: the window from ${start} to ${end} covers more than ${MAX_WINDOW_DATES} dates.`);
  return { from: start, to: end };
}

/** `value` when it is a calendar date within the horizon; otherwise a 400 naming `name`. */
export function requireCalendarDate(name: string, value: string): string {
  if (!isCalendarDate(value)) throw new ValidationError(name, `${name} must be ${CALENDAR_DATE_RULE}; got ${JSON.stringify(value.slice(0, 64))}.`);
  return value;
}

/** Today's date in India (IST, UTC+5:30), where every property and partner calendar lives. */
export function indiaToday(now: Date): string {
  return new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

/** The instants the service accepts: HORIZON's days, in UTC. */
export const INSTANT_HORIZON = { first: `${HORIZON.first}T00:00:00.000Z`, last: `${HORIZON.last}T23:59:59.999Z` } as const;

/** How a refusal states the rule for an instant, after the parameter's name. */
export const INSTANT_RULE = `an ISO 8601 date-time with its offset, such as 2027-03-01T00:00:00Z or 2027-03-01T05:30:00+05:30, from ${INSTANT_HORIZON.first} to ${INSTANT_HORIZON.last}`;

/**
 * A date-time whose date is a real calendar date as written (JavaScript would roll
 * 2027-02-31 over to 3 March) and whose instant lies within INSTANT_HORIZON.
 */
export function isInstant(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}[T ]/.test(value) || !isCalendarDate(value.slice(0, 10))) return false;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return false;
  const iso = new Date(at).toISOString();
  return iso >= INSTANT_HORIZON.first && iso <= INSTANT_HORIZON.last;
}

/** The instant an India date begins (00:00 IST), as stored instants are written. */
export const indiaMidnight = (date: string): string => new Date(`${date}T00:00:00+05:30`).toISOString();

/** How a refusal states the rule for a bound that may be an India date or an instant. */
export const DAY_OR_INSTANT_RULE = `${CALENDAR_DATE_RULE} (a whole India day, IST) or ${INSTANT_RULE}`;

/** True for a bound `dayOrInstant` accepts. */
export const isDayOrInstant = (value: string): boolean => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? isCalendarDate(value) : isInstant(value));

/**
 * A window bound that may be an India date: `start` of the window is the day's first instant
 * (00:00 IST), `end` its last (23:59:59.999 IST), so `from=2026-11-01&to=2026-11-30` covers
 * November in India, as invoices and the CSV date it. Anything else must be an instant.
 */
export function dayOrInstant(value: string, param: string, edge: 'start' | 'end'): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return canonicalInstant(value, param);
  if (!isCalendarDate(value)) throw new ValidationError(param, `${param} must be ${DAY_OR_INSTANT_RULE}; got ${JSON.stringify(value)}.`);
  return edge === 'start' ? indiaMidnight(value) : new Date(Date.parse(indiaMidnight(addDays(value, 1))) - 1).toISOString();
}

/** A caller's instant in the one form stored timestamps have (`toISOString`), so string order is time order. */
export function canonicalInstant(value: string, param: string): string {
  if (!isInstant(value)) throw new ValidationError(param, `${param} must be ${INSTANT_RULE}; got ${JSON.stringify(value.slice(0, 64))}.`);
  return new Date(value).toISOString();
}

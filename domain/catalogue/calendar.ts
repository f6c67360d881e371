/** Calendar dates as yyyy-mm-dd strings, computed in UTC so no time zone can shift a day. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

export const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * The dates the service accepts anywhere (partner APIs, the admin tool, the world file):
 * every date and instant a caller gives lies from the first day to the last, both inclusive.
 * Nothing the service sells or bills lies outside; a bound keeps every calendar walk short and
 * every stored key in the one form (four-digit years) whose string order is time order.
 */
export const HORIZON = { first: '2000-01-01', last: '2099-12-31' } as const;

/** What every date and time parameter's description adds (OpenAPI). */
export const HORIZON_NOTE = `Dates from ${HORIZON.first} to ${HORIZON.last} (instants in UTC); one beyond, or not in the calendar (31 February), is a 400 naming the parameter.`;

/** How a refusal states the rule, after the parameter's name: "checkIn must be …". */
export const CALENDAR_DATE_RULE = `a calendar date (yyyy-mm-dd) from ${HORIZON.first} to ${HORIZON.last}`;

/**
 * A guest's dates of their own life (date of birth, anniversary) reach further back than
 * anything the service sells; they are kept, never walked, so only the lower bound moves.
 */
export const PERSONAL_HORIZON = { first: '1900-01-01', last: HORIZON.last } as const;
export const PERSONAL_DATE_RULE = `a calendar date (yyyy-mm-dd) from ${PERSONAL_HORIZON.first} to ${PERSONAL_HORIZON.last}`;

/** A real calendar date (no 31 February) within the horizon (HORIZON unless told). */
export function isCalendarDate(value: string, horizon: { readonly first: string; readonly last: string } = HORIZON): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value && value >= horizon.first && value <= horizon.last;
}

export const CALENDAR_MONTH_RULE = `a month (yyyy-mm) from ${HORIZON.first.slice(0, 7)} to ${HORIZON.last.slice(0, 7)}`;

/** A month `yyyy-mm` whose days lie within HORIZON. */
export function isCalendarMonth(value: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value) && value >= HORIZON.first.slice(0, 7) && value <= HORIZON.last.slice(0, 7);
}

const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** A day number back to yyyy-mm-dd; a date that would not have four digits is a programming error, never a wrapped string. */
function dateOfDay(day: number): string {
  const d = new Date(day * DAY_MS);
  const year = d.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) throw new RangeError(`date out of range: day ${day}`);
  return d.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return dateOfDay(dayNumber(date) + days);
}

/** Whole days from a to b (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

export function weekdayOf(date: string): Weekday {
  // getUTCDay: 0 = Sunday.
  return WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;
}

/**
 * Every date from `from` to `to`, both inclusive, counted as days rather than compared as
 * strings, so it ends at `to` whatever the year (none when either is not a date).
 */
export function* eachDate(from: string, to: string): Generator<string> {
  const last = dayNumber(to);
  for (let day = dayNumber(from); day <= last; day++) yield dateOfDay(day);
}

/** Every month `yyyy-mm` from `fromMonth` to `toMonth`, both inclusive, counted as months (none when either is not a month). */
export function eachMonth(fromMonth: string, toMonth: string): string[] {
  const index = (m: string) => (/^\d{4}-\d{2}$/.test(m) ? Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1 : Number.NaN);
  const months: string[] = [];
  const last = Math.min(index(toMonth), 9999 * 12 + 11);
  for (let i = index(fromMonth); i <= last; i++) months.push(`${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`);
  return months;
}

export const monthOf = (date: string): string => date.slice(0, 7);
export const dayOfMonth = (date: string): string => date.slice(8, 10);

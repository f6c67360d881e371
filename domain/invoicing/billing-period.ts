import { createHash } from 'node:crypto';
import { addDays, daysBetween, weekdayOf, WEEKDAYS } from '../catalogue/calendar.ts';
import type { Clock } from '../ports/clock.ts';
import type { BillingCycle } from '../tenants.ts';

export interface BillingPeriod {
  readonly from: string;
  readonly to: string;
}

/** India is UTC+05:30 all year (no daylight saving). */
const INDIA_OFFSET = '+05:30';

/** The last instant of `date` in India time, as a UTC instant: charges up to it are billed. */
export function cutoffOf(to: string): string {
  return new Date(`${to}T23:59:59.999${INDIA_OFFSET}`).toISOString();
}

/**
 * Fortnights are counted from this Monday, so "every other Wednesday" is the same pair of
 * weeks for every group and every year.
 */
export const FORTNIGHT_EPOCH = '2024-01-01';

const isoWeekday = (date: string): number => WEEKDAYS.indexOf(weekdayOf(date)) + 1;

/**
 * The period most recently closed on `today` (India) for a cycle that closes on
 * `anchorDay`: MONTHLY closes on that day of each month (1–28), WEEKLY on that weekday
 * (1 = Monday … 7 = Sunday), FORTNIGHTLY on that weekday of every second week from
 * FORTNIGHT_EPOCH. A period closes at the end of its last day, so a period ending today
 * is not closed yet; `to` is always before today.
 */
export function lastClosedPeriod(cycle: BillingCycle, anchorDay: number, today: string): BillingPeriod {
  const yesterday = addDays(today, -1);
  if (cycle === 'MONTHLY') {
    const [y, m] = yesterday.split('-').map(Number) as [number, number];
    const anchorThisMonth = `${y}-${String(m).padStart(2, '0')}-${String(anchorDay).padStart(2, '0')}`;
    const to = anchorThisMonth <= yesterday ? anchorThisMonth : shiftMonth(anchorThisMonth, -1);
    return { from: addDays(shiftMonth(to, -1), 1), to };
  }
  let to = yesterday;
  while (isoWeekday(to) !== anchorDay) to = addDays(to, -1);
  if (cycle === 'WEEKLY') return { from: addDays(to, -6), to };
  if (Math.floor(daysBetween(FORTNIGHT_EPOCH, to) / 7) % 2 !== 0) to = addDays(to, -7);
  return { from: addDays(to, -13), to };
}

function shiftMonth(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The Indian financial year (April–March) a date falls in, as `2026-27`. */
export function financialYearOf(date: string): string {
  const y = Number(date.slice(0, 4));
  const start = Number(date.slice(5, 7)) >= 4 ? y : y - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/**
 * A statutory number from a registration's series: `I<state code>/<yy-yy>/<n, 6 digits>`,
 * e.g. `I07/26-27/000001` (16 characters). The leading `I` keeps the first character off `0`,
 * which the IRP refuses (state codes 01–09); numbers issued before in the form
 * `29/26-27/000041` keep it, and the series' counter goes on unchanged (docs/decisions.md,
 * "Invoice numbers the IRP accepts in every state").
 */
export function invoiceNumberOf(stateCode: string, financialYear: string, sequence: number): string {
  if (!/^[0-9]{2}$/.test(stateCode)) throw new RangeError(`state code must be two digits, got ${stateCode}`);
  return `I${stateCode}/${financialYear.slice(2)}/${sequenceOf(sequence)}`;
}

/** A series' running number as printed: six digits, 000001–999999. */
export const sequenceOf = (sequence: number): string => {
  if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence > 999_999) throw new RangeError(`sequence out of range: ${sequence}`);
  return String(sequence).padStart(6, '0');
};

/**
 * A number from a sandbox test clock's own series (docs/decisions.md, "Test clocks keep their
 * own series"): `T<kind><clock code>/<yy>/<n, 6 digits>`, kind I (invoice) or C (credit
 * note), the clock code four base-36 characters of its id's SHA-256, yy the financial year's
 * first year; 16 characters, never the form of a registration's series.
 */
export function testClockNumberOf(kind: 'I' | 'C', testClockId: string, financialYear: string, sequence: number): string {
  const code = BigInt(`0x${createHash('sha256').update(testClockId).digest('hex').slice(0, 12)}`)
    .toString(36)
    .toUpperCase()
    .slice(-4)
    .padStart(4, '0');
  return `T${kind}${code}/${financialYear.slice(2, 4)}/${sequenceOf(sequence)}`;
}

/**
 * How a document dated on `clock` is numbered: on a sandbox test clock from the clock's own
 * series (its id goes to the store, which keys the counter by it); on real time from the
 * registration's series (`registration`).
 */
export function numberingOf(
  clock: Clock,
  kind: 'I' | 'C',
  financialYear: string,
  registration: (sequence: number) => string,
): { readonly numberOf: (sequence: number) => string; readonly testClockId?: string } {
  const id = clock.testClockId;
  return id === undefined ? { numberOf: registration } : { numberOf: (n) => testClockNumberOf(kind, id, financialYear, n), testClockId: id };
}

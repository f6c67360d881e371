import { CALENDAR_MONTH_RULE, isCalendarMonth } from '../catalogue/calendar.ts';
import { ValidationError } from '../errors.ts';
import type { AuditEvent } from './audit-event.ts';

/** A month `YYYY-MM` as the instants bounding it, [first ms, last ms]. */
export function monthWindow(month: string): { from: string; to: string } {
  if (!isCalendarMonth(month)) throw new ValidationError('month', `month must be ${CALENDAR_MONTH_RULE}, e.g. 2026-11.`);
  const [y, m] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
  const start = Date.UTC(y, m - 1, 1);
  const end = Date.UTC(y, m, 1) - 1;
  return { from: new Date(start).toISOString(), to: new Date(end).toISOString() };
}

/** The export's object key in the stage bucket; one object per month, replaced by a later export of the same month. */
export const exportKey = (month: string): string => `audit/${month}.jsonl`;

/** One event per line, oldest first, every field including the chain's hashes, so auditors can re-check the chains. */
export const jsonLines = (events: readonly AuditEvent[]): string => events.map((e) => JSON.stringify(e)).join('\n') + (events.length ? '\n' : '');

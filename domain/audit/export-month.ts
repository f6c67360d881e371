import { ValidationError } from '../errors.ts';
import type { AuditEvent } from './audit-event.ts';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A month `YYYY-MM` as the instants bounding it, [first ms, last ms]. */
export function monthWindow(month: string): { from: string; to: string } {
  const m = MONTH.exec(month);
  if (!m) throw new ValidationError('month', 'month must be YYYY-MM, e.g. 2026-11.');
  const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, 1);
  const end = Date.UTC(Number(m[1]), Number(m[2]), 1) - 1;
  return { from: new Date(start).toISOString(), to: new Date(end).toISOString() };
}

/** The export's object key in the stage bucket; one object per month, replaced by a later export of the same month. */
export const exportKey = (month: string): string => `audit/${month}.jsonl`;

/** One event per line, oldest first, every field including the chain's hashes, so auditors can re-check the chains. */
export const jsonLines = (events: readonly AuditEvent[]): string => events.map((e) => JSON.stringify(e)).join('\n') + (events.length ? '\n' : '');

import { ValidationError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';

/** How far a clock may be moved from the instant it was created (docs/sandbox.md). */
export const TEST_CLOCK_SPAN_YEARS = 2;

export const TEST_CLOCK_STATUSES = ['advancing', 'ready'] as const;
export type TestClockStatus = (typeof TEST_CLOCK_STATUSES)[number];

/**
 * A sandbox group's own time. The clock runs at real speed from the instant it was last set
 * (`setTo` at the real instant `setAt`), so the booking workflow's windows, the simulator's
 * landings and the callback retries, which measure elapsed time, keep working; advancing
 * moves it forward in one jump. A clock exists only on sandbox stages.
 */
export interface TestClock {
  readonly id: string;
  readonly agentGroupId: string;
  /** Real instant of creation, which was also the clock's own time then; the 2-year bound counts from it. */
  readonly createdAt: string;
  readonly setTo: string;
  readonly setAt: string;
  /** `advancing` while the work the jump made due (billing, credit control) runs; `ready` after. */
  readonly status: TestClockStatus;
  readonly version: number;
}

export function newTestClock(id: string, agentGroupId: string, realNow: Date): TestClock {
  const at = realNow.toISOString();
  return { id, agentGroupId, createdAt: at, setTo: at, setAt: at, status: 'ready', version: 1 };
}

/** The clock's time at a real instant. */
export const timeOf = (tc: TestClock, realNow: Date): Date => new Date(Date.parse(tc.setTo) + (realNow.getTime() - Date.parse(tc.setAt)));

/** The group's `Clock` port while the test clock exists. */
export const clockOf = (tc: TestClock, real: Clock): Clock => ({ now: () => timeOf(tc, real.now()), testClockId: tc.id });

/** The latest instant the clock may be advanced to. */
export function advanceLimitOf(tc: Pick<TestClock, 'createdAt'>): Date {
  const limit = new Date(tc.createdAt);
  limit.setUTCFullYear(limit.getUTCFullYear() + TEST_CLOCK_SPAN_YEARS);
  return limit;
}

/**
 * The clock moved to `to`: forward only (not before the clock's current time) and at most
 * two years past its creation. Each refusal names `to`; nothing is clamped.
 */
export function advanced(tc: TestClock, to: Date, realNow: Date): TestClock {
  // The contract's pattern lets a few impossible instants through (a 31 February written with a space, say).
  if (Number.isNaN(to.getTime())) throw new ValidationError('to', 'to must be a real ISO 8601 instant, e.g. 2027-04-01T00:30:00+05:30.');
  const now = timeOf(tc, realNow);
  if (to.getTime() < now.getTime())
    throw new ValidationError('to', `to must not be before the clock's current time ${now.toISOString()}: a test clock only moves forward.`);
  const limit = advanceLimitOf(tc);
  if (to.getTime() > limit.getTime())
    throw new ValidationError('to', `to must be at most ${TEST_CLOCK_SPAN_YEARS} years after the clock was created (${limit.toISOString()}).`);
  return { ...tc, setTo: to.toISOString(), setAt: realNow.toISOString(), status: 'advancing', version: tc.version + 1 };
}

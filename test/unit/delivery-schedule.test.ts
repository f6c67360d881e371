import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verdictFor } from '../../domain/deliveries/attempt-delivery.ts';
import {
  attemptDueAt,
  CATALOGUE_SCHEDULE_SECONDS,
  CATALOGUE_TAIL_GAP_SECONDS,
  delaySecondsUntil,
  MAX_QUEUE_DELAY_SECONDS,
  nominalOffsetSeconds,
} from '../../domain/deliveries/schedule.ts';

const EVENT = new Date('2026-03-01T10:00:00.000Z');
const offsetSeconds = (due: Date): number => (due.getTime() - EVENT.getTime()) / 1000;

describe('Function: nominalOffsetSeconds', () => {
  it('follows the product schedule: 0 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h', () => {
    const offsets = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => nominalOffsetSeconds(n));

    expect(offsets).toEqual([0, 30, 120, 600, 1800, 3600, 3 * 3600, 6 * 3600]);
    expect(offsets).toEqual([...CATALOGUE_SCHEDULE_SECONDS]);
  });

  it('spaces attempts 9 to 15 six hours apart', () => {
    expect(nominalOffsetSeconds(9)).toBe(6 * 3600 + CATALOGUE_TAIL_GAP_SECONDS);
    expect(nominalOffsetSeconds(15)).toBe(6 * 3600 + 7 * CATALOGUE_TAIL_GAP_SECONDS);
  });

  it('refuses attempt numbers below 1', () => {
    expect(() => nominalOffsetSeconds(0)).toThrow(RangeError);
  });
});

describe('Function: attemptDueAt', () => {
  it('keeps every attempt within ±10 % of its nominal offset', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 15 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const nominal = nominalOffsetSeconds(attempt);

        const actual = offsetSeconds(attemptDueAt(EVENT, attempt, 1, () => r));

        expect(actual).toBeGreaterThanOrEqual(nominal * 0.9 - 0.001);
        expect(actual).toBeLessThanOrEqual(nominal * 1.1 + 0.001);
      }),
    );
  });

  it('reaches both ends of the jitter band', () => {
    expect(offsetSeconds(attemptDueAt(EVENT, 4, 1, () => 0))).toBe(540);
    expect(offsetSeconds(attemptDueAt(EVENT, 4, 1, () => 0.999_999_9))).toBeCloseTo(660, 2);
    expect(offsetSeconds(attemptDueAt(EVENT, 4, 1, () => 0.5))).toBe(600);
  });

  it('divides every offset by the time scale', () => {
    const scaled = offsetSeconds(attemptDueAt(EVENT, 8, 1000, () => 0.5));

    expect(scaled).toBeCloseTo(21.6, 3);
  });

  it('sends the first attempt at once', () => {
    expect(attemptDueAt(EVENT, 1, 1, () => 0.9).getTime()).toBe(EVENT.getTime());
  });
});

describe('Function: delaySecondsUntil', () => {
  it('is 0 when the attempt is due or overdue', () => {
    expect(delaySecondsUntil(EVENT, EVENT)).toBe(0);
    expect(delaySecondsUntil(EVENT, new Date(EVENT.getTime() + 5000))).toBe(0);
  });

  it('rounds up to whole seconds, so a message never arrives early', () => {
    expect(delaySecondsUntil(new Date(EVENT.getTime() + 30), EVENT)).toBe(1);
    expect(delaySecondsUntil(new Date(EVENT.getTime() + 29_001), EVENT)).toBe(30);
  });

  it('stops at the SQS maximum of 900 s', () => {
    expect(delaySecondsUntil(new Date(EVENT.getTime() + 3600_000), EVENT)).toBe(MAX_QUEUE_DELAY_SECONDS);
  });

  it('chains a six-hour gap in 900 s hops and arrives exactly on time', () => {
    const due = new Date(EVENT.getTime() + 6 * 3600_000);
    let now = EVENT;
    const hops: number[] = [];

    for (let wait = delaySecondsUntil(due, now); wait > 0; wait = delaySecondsUntil(due, now)) {
      hops.push(wait);
      now = new Date(now.getTime() + wait * 1000);
    }

    expect(hops).toHaveLength(24);
    expect(hops.every((h) => h === 900)).toBe(true);
    expect(now.getTime()).toBe(due.getTime());
  });

  it('never lets a chained message arrive before its due time, whatever the gap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 48 * 3600_000 }), (gapMs) => {
        const due = new Date(EVENT.getTime() + gapMs);
        let now = EVENT;
        let hops = 0;
        for (let wait = delaySecondsUntil(due, now); wait > 0; wait = delaySecondsUntil(due, now)) {
          expect(wait).toBeLessThanOrEqual(MAX_QUEUE_DELAY_SECONDS);
          now = new Date(now.getTime() + wait * 1000);
          hops += 1;
        }

        expect(now.getTime()).toBeGreaterThanOrEqual(due.getTime());
        expect(now.getTime() - due.getTime()).toBeLessThan(1000);
        expect(hops).toBe(Math.ceil(gapMs / 1000 / MAX_QUEUE_DELAY_SECONDS));
      }),
    );
  });
});

describe('Function: verdictFor', () => {
  const next = () => new Date('2026-03-01T10:00:30.000Z');

  it('succeeds on 2xx', () => {
    expect(verdictFor({ outcome: 'success', statusCode: 204, durationMs: 3 }, 1, 8, next)).toEqual({ status: 'SUCCEEDED' });
  });

  it.each([
    ['permanent', 404],
    ['redirect', 302],
    ['blocked', undefined],
  ] as const)('fails a %s outcome at once, without a retry', (outcome, statusCode) => {
    const verdict = verdictFor({ outcome, statusCode, durationMs: 3 }, 1, 8, next);

    expect(verdict.status).toBe('FAILED');
  });

  it('schedules the next attempt after a retryable outcome', () => {
    expect(verdictFor({ outcome: 'retryable', statusCode: 503, durationMs: 3 }, 1, 8, next)).toEqual({
      status: 'PENDING',
      nextAttemptAt: '2026-03-01T10:00:30.000Z',
    });
  });

  it("fails a retryable outcome once the endpoint's maxAttempts is used up", () => {
    const verdict = verdictFor({ outcome: 'retryable', error: 'timeout', durationMs: 3 }, 3, 3, next);

    expect(verdict).toMatchObject({ status: 'FAILED', failureReason: expect.stringContaining('3 attempts') });
  });
});

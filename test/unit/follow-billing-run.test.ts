import { describe, expect, it } from 'vitest';
import { followBillingRun, type Waiting } from '../../domain/invoicing/follow-billing-run.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { FanOutProgress } from '../../domain/ports/billing-fan-out.ts';

const base: FanOutProgress = {
  runId: 'run-1',
  trigger: 'ADMIN',
  day: '2026-11-28',
  startedAt: '2026-11-28T06:00:00.000Z',
  enqueued: 3,
  billed: 0,
  upToDate: 0,
  failed: 0,
  pending: 3,
  invoicesIssued: 0,
  failures: [],
};

/** A run log that answers each read with the next reading (the last one repeated), and time that passes only in sleeps. */
function scripted(readings: readonly (FanOutProgress | undefined)[]) {
  let read = 0;
  let now = 0;
  const waiting: Waiting = { now: () => now, sleep: async (ms) => void (now += ms) };
  return {
    deps: { billingRuns: { progress: async () => readings[Math.min(read++, readings.length - 1)] }, waiting },
    reads: () => read,
    now: () => now,
  };
}

describe('Function: followBillingRun', () => {
  it('reads until every group has an outcome, reporting each change once, and ends COMPLETED', async () => {
    const s = scripted([base, base, { ...base, billed: 1, pending: 2, invoicesIssued: 2 }, { ...base, billed: 2, upToDate: 1, pending: 0, invoicesIssued: 3 }]);
    const seen: [number, number][] = [];

    const out = await followBillingRun(s.deps, 'run-1', { everyMs: 5_000, timeoutMs: 60_000, onChange: (p, at) => seen.push([p.pending, at]) });

    expect(out).toMatchObject({ state: 'COMPLETED', timedOut: false, progress: { invoicesIssued: 3 } });
    expect(seen).toEqual([
      [3, 0],
      [2, 10_000],
      [0, 15_000],
    ]);
    expect(s.reads()).toBe(4);
  });

  it('ends FAILED once nothing is pending and a group failed, without waiting for its redeliveries', async () => {
    const s = scripted([
      { ...base, billed: 2, failed: 1, pending: 0, failures: [{ agentGroupId: 'g3', error: 'lock held', attempts: 1, at: base.startedAt }] },
    ]);

    const out = await followBillingRun(s.deps, 'run-1', { everyMs: 5_000, timeoutMs: 60_000 });

    expect(out).toMatchObject({ state: 'FAILED', timedOut: false });
    expect(s.reads()).toBe(1);
  });

  it('stops at the timeout with the run still RUNNING, never sleeping past it', async () => {
    const s = scripted([base]);

    const out = await followBillingRun(s.deps, 'run-1', { everyMs: 7_000, timeoutMs: 20_000 });

    expect(out).toMatchObject({ state: 'RUNNING', timedOut: true });
    expect(s.now()).toBe(20_000);
    expect(s.reads()).toBe(4);
  });

  it('says no such run when the log has none', async () => {
    await expect(followBillingRun(scripted([undefined]).deps, 'nope', { everyMs: 1, timeoutMs: 1 })).rejects.toThrow(NotFoundError);
  });
});

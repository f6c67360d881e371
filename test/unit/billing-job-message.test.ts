import { describe, expect, it } from 'vitest';
import type { BillingJob } from '../../domain/ports/billing-fan-out.ts';
import { decodeBillingJob, encodeBillingJob } from '../../events/billing-job-message.ts';

const job: BillingJob = { runId: 'daily-2026-11-26', agentGroupId: 'grp-1', day: '2026-11-26', trigger: 'SCHEDULE', force: false, openWork: true };
const handOff = { period: { from: '2026-11-01', to: '2026-11-26' }, cutoff: '2026-11-26T18:29:59.999Z', invoiceIds: ['0b6f2a3e-4c1d-4f7a-9a51-3c2d1e0f9b8a'] };

describe('Function: decodeBillingJob', () => {
  it('reads back a group of a run over every group, and a handed-off run with its request and DRAFTs', () => {
    expect(decodeBillingJob(encodeBillingJob(job))).toEqual(job);
    const continuation: BillingJob = {
      ...job,
      runId: 'c0d1e2f3-a4b5-4c6d-8e7f-901a2b3c4d5e',
      trigger: 'API',
      handOff: { ...handOff, bookingIds: ['PS-1', 'PS-2'] },
    };
    expect(decodeBillingJob(encodeBillingJob(continuation))).toEqual(continuation);
    expect(encodeBillingJob(job)).not.toContain('handOff');
  });

  it('refuses a hand-off that names no period, a DRAFT id that is not a uuid, or a field it does not know', () => {
    const body = (extra: object) => JSON.stringify({ v: 1, ...job, ...extra });
    expect(decodeBillingJob(body({ handOff: { ...handOff, period: undefined } }))).toBeUndefined();
    expect(decodeBillingJob(body({ handOff: { ...handOff, invoiceIds: ['not-a-uuid'] } }))).toBeUndefined();
    expect(decodeBillingJob(body({ handOff: { ...handOff, extra: true } }))).toBeUndefined();
    expect(decodeBillingJob(body({ handOff }))).toEqual({ ...job, handOff });
  });
});

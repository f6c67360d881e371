import { describe, expect, it } from 'vitest';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import { queueBillingRunAs } from '../../domain/invoicing/scheduled-billing.ts';
import type { BillingJob } from '../../domain/ports/billing-fan-out.ts';

const PERSON = { actor: 'person:p-1', actorKind: 'operator', requestId: 'req-1' } as const;

describe('a billing run started by a person (write-ahead on the audit trail)', () => {
  it('is refused with nothing read or queued when its started event cannot be written', async () => {
    const queued: BillingJob[] = [];
    const touched: string[] = [];
    // Every other part records that it was reached: the run must stop before any of them.
    const untouchable = (name: string) => new Proxy({}, { get: (_t, prop) => (touched.push(`${name}.${String(prop)}`), async () => undefined) }) as never;
    const deps = {
      tenants: untouchable('tenants'),
      billingRuns: untouchable('billingRuns'),
      invoices: untouchable('invoices'),
      clock: { now: () => new Date('2026-11-28T08:00:00Z') },
      ids: { uuid: () => 'event-1' },
      billingQueue: { enqueue: async (jobs: readonly BillingJob[]) => void queued.push(...jobs) },
      audit: {
        record: async (_draft: AuditDraft) => {
          throw new Error('TransactionCanceledException');
        },
      },
    };

    await expect(queueBillingRunAs(deps, { trigger: 'ADMIN', force: true }, PERSON)).rejects.toThrow('TransactionCanceledException');

    expect(queued).toEqual([]);
    expect(touched).toEqual([]);
  });
});

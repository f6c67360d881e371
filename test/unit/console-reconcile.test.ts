import { describe, expect, it } from 'vitest';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { ReconcileReport } from '../../domain/receivables/gateway-accounts.ts';
import { reconcileAs, RECONCILIATION_RUN_TARGET } from '../../domain/receivables/reconcile-as.ts';
import { reconcileRequestOf } from '../../functions/console/operator-reconcile.ts';

const origin = { actor: 'person:p-1', actorKind: 'operator' as const, requestId: 'req-1' };
const report: ReconcileReport = {
  groups: 2,
  ordersChecked: 3,
  virtualAccountsChecked: 1,
  found: 2,
  recorded: [{ agentGroupId: 'g-1', paymentId: 'pay_1', amount: 12_345_678 }],
  unmatched: 1,
  captured: [],
  uncaptured: [],
  refunded: [],
  disputed: [],
  reordered: [],
  failures: [{ agentGroupId: 'g-2', error: 'gateway timed out' }],
};

function trail() {
  const drafts: AuditDraft[] = [];
  let n = 0;
  return {
    drafts,
    deps: {
      audit: { record: async (d: AuditDraft) => void drafts.push(d) },
      clock: { now: () => new Date('2026-11-28T18:30:00Z') },
      ids: { uuid: () => `id-${++n}` },
    },
  };
}

describe('a reconciliation run started by a person', () => {
  it('is on the trail write-ahead: started before the run, then completed with its figures, under the person', async () => {
    const { drafts, deps } = trail();
    const seen: string[] = [];
    const out = await reconcileAs(deps, origin, 'g-1', async (o, only) => {
      seen.push(`${o.actor} ${only}`, String(drafts.length));
      return report;
    });
    expect(out).toBe(report);
    expect(seen).toEqual(['person:p-1 g-1', '1']);
    expect(drafts.map((d) => [d.action, d.target, d.origin.actor, d.after?.status])).toEqual([
      ['payments.reconciliation-run', RECONCILIATION_RUN_TARGET, 'person:p-1', 'started'],
      ['payments.reconciliation-run', RECONCILIATION_RUN_TARGET, 'person:p-1', 'completed'],
    ]);
    expect(drafts[1]!.after).toMatchObject({ group: 'g-1', recorded: 1, unmatched: 1, failures: 1, found: 2 });
  });

  it('a run that throws is recorded failed, with the error’s name only, and the error goes on', async () => {
    const { drafts, deps } = trail();
    class GatewayDown extends Error {
      override name = 'GatewayDown';
    }
    await expect(reconcileAs(deps, origin, undefined, async () => Promise.reject(new GatewayDown('secret-bearing message')))).rejects.toThrow(GatewayDown);
    expect(drafts.map((d) => d.after)).toEqual([
      { status: 'started', group: null },
      { status: 'failed', error: 'GatewayDown' },
    ]);
  });

  it('a run whose started event cannot be written does not run', async () => {
    const { deps } = trail();
    let ran = false;
    const failing = { ...deps, audit: { record: async () => Promise.reject(new Error('table down')) } };
    await expect(reconcileAs(failing, origin, undefined, async () => ((ran = true), report))).rejects.toThrow('table down');
    expect(ran).toBe(false);
  });
});

describe('the reconcile form', () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);
  it('takes the run key and an optional group', () => {
    expect(reconcileRequestOf(form({ run: '3f2b1c9e-aaaa-4bbb-8ccc-123456789abc', group: ' g-1 ' }))).toEqual({
      runKey: '3f2b1c9e-aaaa-4bbb-8ccc-123456789abc',
      group: 'g-1',
    });
    expect(reconcileRequestOf(form({ run: '3f2b1c9e-aaaa', group: '' })).group).toBeUndefined();
  });
  it('refuses a missing or malformed run key and an over-long group with a 400 naming the field', () => {
    for (const [fields, param] of [
      [{}, 'run'],
      [{ run: 'short' }, 'run'],
      [{ run: 'has spaces in it' }, 'run'],
      [{ run: '3f2b1c9e-aaaa', group: 'x'.repeat(101) }, 'group'],
    ] as const) {
      const err = (() => {
        try {
          reconcileRequestOf(form(fields));
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).param).toBe(param);
    }
  });
});

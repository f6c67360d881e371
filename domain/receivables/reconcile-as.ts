import type { AuditFields, AuditOrigin } from '../audit/audit-event.ts';
import { writeAhead } from '../audit/write-ahead.ts';
import type { Clock } from '../ports/clock.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { AuditRecorder } from '../ports/audit-trail.ts';
import type { ReconcileReport } from './gateway-accounts.ts';

/** The chain every run started by a person joins: the runs are stage-wide, as a billing run over every group. */
export const RECONCILIATION_RUN_TARGET = 'payments:reconciliation';

/** What the trail keeps of a run: its figures, not its payments (each payment recorded has its own event under the same person). */
export const reportFigures = (r: ReconcileReport): AuditFields => ({
  groups: r.groups,
  found: r.found,
  recorded: r.recorded.length,
  unmatched: r.unmatched,
  captured: r.captured.length,
  refunded: r.refunded.length,
  disputed: r.disputed.length,
  reordered: r.reordered.length,
  failures: r.failures.length,
});

/**
 * A reconciliation started by a person (the console's finance operator), on the trail under that person as the
 * admin tool's `payments reconcile` is: `run` is reconcilePayments itself, the use case the hourly function runs.
 * It cannot share a transaction with its event (it posts payment by payment), so the event is write-ahead:
 * `started` before the gateway is asked (a run whose `started` cannot be written is refused with nothing done),
 * then `completed` with the figures, or `failed` with the error's name; all three share the person's request id.
 */
export async function reconcileAs(
  deps: { readonly audit: AuditRecorder; readonly clock: Clock; readonly ids: IdGenerator },
  origin: AuditOrigin,
  only: string | undefined,
  run: (origin: AuditOrigin, only?: string) => Promise<ReconcileReport>,
): Promise<ReconcileReport> {
  return writeAhead(
    deps,
    { origin, action: 'payments.reconciliation-run', target: RECONCILIATION_RUN_TARGET, started: { group: only ?? null } },
    () => run(origin, only),
    (report) => ({ group: only ?? null, ...reportFigures(report) }),
  );
}

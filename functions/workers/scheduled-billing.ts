import { queueBillingRun } from '../../domain/invoicing/scheduled-billing.ts';
import { services, wire } from '../../infra/compose/core.ts';
import { logger } from '../../infra/logger.ts';
import { billingAdapters } from '../../infra/compose/adapters/billing.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(billingAdapters);

/**
 * Scheduled once a day after midnight India time; also invocable by hand (offline's Lambda
 * port: POST /2015-03-31/functions/<service>-<stage>-scheduledBilling/invocations). It bills
 * nothing itself: it records the day's run and queues one message per group on the billing
 * queue, which the billing worker (bill-group.ts) drains with bounded concurrency.
 * `billing runs` shows the run's progress across its groups.
 */
export const handler = async () => {
  const svc = services();
  const run = await queueBillingRun(
    { invoices: svc.invoices, clock: svc.clock, ids: svc.ids, tenants: svc.tenants, billingRuns: svc.billingRuns, billingQueue: svc.billingQueue },
    { trigger: 'SCHEDULE' },
  );
  logger.info('billing run queued', { runId: run.runId, day: run.day, groups: run.enqueued });
  return { runId: run.runId, groups: run.enqueued };
};

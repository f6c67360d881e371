// This function calls Razorpay's API: its bundle carries the SDK (infra/payments/razorpay-sdk.ts).
import { reconcilePayments } from '../../domain/receivables/gateway-accounts.ts';
import { clockFor, services } from '../../infra/compose/core.ts';
import { reconcileDeps } from '../../infra/compose/receivables.ts';
import { logger } from '../../infra/logger.ts';
import { systemOrigin } from '../../domain/audit/audit-event.ts';

/**
 * Scheduled hourly: Razorpay does not promise every webhook (and disables one that keeps
 * failing), so a payment it never announced is recorded by the next run, once; and an invoice whose
 * amount due changed gets an order for what it owes now.
 */
export const handler = async () => {
  const svc = services();
  const report = await reconcilePayments({ ...reconcileDeps(svc), clockFor: clockFor(svc) }, systemOrigin('payment-reconciliation', svc.ids.uuid()));
  (report.failures.length > 0 ? logger.warn : logger.info).call(logger, 'payment reconciliation', {
    ...report,
    recorded: report.recorded.length,
    captured: report.captured.length,
    reordered: report.reordered.length,
    disputed: report.disputed.length,
  });
  return report;
};

// This function calls Razorpay's API: its entry wires the payments adapter group, which carries the SDK.
import { reconcilePayments } from '../../domain/receivables/gateway-accounts.ts';
import { clockFor, services, wire } from '../../infra/compose/core.ts';
import { reconcileDeps } from '../../infra/compose/receivables.ts';
import { logger } from '../../infra/logger.ts';
import { systemOrigin } from '../../domain/audit/audit-event.ts';
import { billingAdapters } from '../../infra/compose/adapters/billing.ts';
import { mailAdapters } from '../../infra/compose/adapters/mail.ts';
import { paymentAdapters } from '../../infra/compose/adapters/payments.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(billingAdapters, mailAdapters, paymentAdapters);

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

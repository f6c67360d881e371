// This function calls Razorpay's API: its bundle carries the SDK (infra/payments/razorpay-sdk.ts).
import '../../infra/payments/with-razorpay.ts';
import { billOneGroup } from '../../domain/invoicing/scheduled-billing.ts';
import { advanceTestClock, type DueWork } from '../../domain/test-clocks/manage-test-clocks.ts';
import { canonicalInstant } from '../../domain/reads/date-window.ts';
import { billingDeps, type Services } from '../../infra/container.ts';
import { withStatementPdf } from '../../infra/pdf/statement-renderer.ts';
import { advanceTestClockRoute } from '../contracts/test-clocks.ts';
import { endpoint } from '../http/endpoint.ts';
import { testClockDeps, testClockJson } from './test-clock-json.ts';

/**
 * The daily run's work for this one group at the clock's new time: the periods that closed
 * are billed (PDFs go to the PDF worker, as for POST /v1/invoices), credit control looks
 * at the overdue invoices and the day's payment reminders go, and the monthly statement (its PDF rendered here).
 */
export const dueWorkOn =
  (svc: Services): DueWork =>
  async (agentGroupId, clock) => {
    await billOneGroup(withStatementPdf(billingDeps(svc.atClock(clock))), agentGroupId, { trigger: 'SCHEDULE' });
  };

export const handler = endpoint(advanceTestClockRoute, async ({ principal, params, body, services }) => ({
  status: 200,
  body: testClockJson(
    await advanceTestClock({ ...testClockDeps(services), dueWork: dueWorkOn(services) }, principal, params.id, new Date(canonicalInstant(body.to, 'to'))),
    services,
  ),
}));

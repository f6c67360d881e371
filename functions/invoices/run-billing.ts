// This function calls Razorpay's API: its entry wires the payments adapter group, which carries the SDK.
import { auditOrigin } from '../http/audit-origin.ts';
import { billingRunView } from '../../domain/invoicing/read-invoices.ts';
import { requestBillingRun } from '../../domain/invoicing/request-billing-run.ts';
import type { BillingQueue } from '../../domain/ports/billing-fan-out.ts';
import { BILLING_SCENARIOS, billingTimeUp, withBillingScenario } from '../../domain/sandbox/billing-scenarios.ts';
import { billingDeps } from '../../infra/compose/billing.ts';
import { logger } from '../../infra/logger.ts';
import { createBillingRunRoute } from '../contracts/invoices.ts';
import { endpoint } from '../http/endpoint.ts';
import { sandboxHeader } from '../http/sandbox-header.ts';

/**
 * Answers once the invoices are issued: their PDFs are queued for the PDF worker
 * (render-invoice-pdfs.ts), not rendered here. A run still writing lines after
 * `billingRequestWorkMs` answers with its DRAFTs instead, and the billing worker finishes them.
 */
export const handler = endpoint(createBillingRunRoute, async ({ principal, body, services, event, state }) => {
  // Wall time, not the services' clock: this bounds the request itself (a sandbox test clock stands still).
  const answerBy = performance.now() + services.config.billingRequestWorkMs;
  const scenario = sandboxHeader(event, services.config, BILLING_SCENARIOS);
  const deps = withBillingScenario(billingDeps(services), scenario);
  const result = await requestBillingRun({ ...deps, billingQueue: loggingFailures(deps.billingQueue) }, principal, body ?? {}, auditOrigin(principal, state), {
    timeUp: billingTimeUp(scenario, () => performance.now() >= answerBy),
  });
  return { status: 200, body: billingRunView(result) };
});

/**
 * The run answers 200 even when its continuation cannot be queued (its DRAFTs wait for the
 * group's next run) and only counts it; the error itself goes to the log for the operator
 * whom the BillingHandOffNotQueued alarm sends here (docs/deploy.md, "Alarms").
 */
export const loggingFailures = (queue: BillingQueue): BillingQueue => ({
  enqueue: async (jobs) => {
    try {
      await queue.enqueue(jobs);
    } catch (error) {
      logger.error('billing continuation not queued', { error, runIds: jobs.map((j) => j.runId), agentGroupIds: jobs.map((j) => j.agentGroupId) });
      throw error;
    }
  },
});

// This function calls Razorpay's API: its entry wires the payments adapter group, which carries the SDK.
import type { SQSRecord } from 'aws-lambda';
import { concurrentRecords } from './sqs-batch.ts';
import { billQueuedGroup, jobAtGroupClock, type GroupBillingDeps } from '../../domain/invoicing/scheduled-billing.ts';
import type { TenantDirectory } from '../../domain/ports/tenant-directory.ts';
import { continueBillingRun } from '../../domain/invoicing/request-billing-run.ts';
import { decodeBillingJob, decodePayLinkJob } from '../../events/billing-job-message.ts';
import { refreshGroupPayLinks } from '../../domain/receivables/pay-links.ts';
import { billingDeps } from '../../infra/compose/billing.ts';
import { groupServices, services, wire } from '../../infra/compose/core.ts';
import { logger } from '../../infra/logger.ts';
import { withStatementPdf } from '../../infra/pdf/statement-renderer.ts';
import { billingAdapters } from '../../infra/compose/adapters/billing.ts';
import { bookingAdapters } from '../../infra/compose/adapters/bookings.ts';
import { mailAdapters } from '../../infra/compose/adapters/mail.ts';
import { paymentAdapters } from '../../infra/compose/adapters/payments.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(billingAdapters, bookingAdapters, mailAdapters, paymentAdapters);

/** What bringing a group's pay links in line with what it owes needs (the billing queue's other message). */
type PayLinkWorkerDeps = Parameters<typeof refreshGroupPayLinks>[0];

export type BillingWorkerDeps = GroupBillingDeps &
  PayLinkWorkerDeps & {
    readonly tenants: Pick<TenantDirectory, 'getAgentGroup'>;
    /** One group's dependencies, where they differ: at its own clock when it has a sandbox test clock (docs/sandbox.md). */
    readonly forGroup?: (agentGroupId: string) => Promise<GroupBillingDeps & PayLinkWorkerDeps>;
  };

/**
 * One message of the billing queue: one group of a run over every group, or the continuation
 * of a POST /v1/invoices that handed its DRAFTs on (request-billing-run.ts). A group that
 * failed throws, so SQS delivers it again after the visibility timeout (the run record
 * shows FAILED with its attempts meanwhile) and, after five receives, moves it to the
 * dead-letter queue, whose alarm pages. Issued documents' PDFs go to the PDF worker's
 * queue, as from POST /v1/invoices; the one PDF rendered here is the monthly statement its e-mail attaches.
 * The queue's other message asks for a group's pay links to follow a change of what it owes: this worker carries Razorpay's SDK.
 */
export async function handleBillingRecord(deps: BillingWorkerDeps, record: SQSRecord): Promise<void> {
  const linksOf = decodePayLinkJob(record.body);
  if (linksOf) {
    // A payment, refund, dispute, credit note or ended link changed what the group owes: each link follows now, not at the
    // hourly reconciliation. Safe however often it arrives and beside a racing refresh (refreshPayLink); a failure comes back.
    const own = deps.forGroup ? await deps.forGroup(linksOf) : deps;
    const refreshed = await refreshGroupPayLinks(own, linksOf);
    logger.info('pay links refreshed', { agentGroupId: linksOf, refreshed });
    return;
  }
  const job = decodeBillingJob(record.body);
  if (!job) throw new Error('not a billing message');
  const own = deps.forGroup ? await deps.forGroup(job.agentGroupId) : deps;
  if (job.handOff) {
    // A POST /v1/invoices that handed its DRAFTs on; a failure (the lock held by another run included) comes back with the message.
    const group = await deps.tenants.getAgentGroup(job.agentGroupId);
    if (!group) throw new Error(`billing ${job.agentGroupId}: agent group not found`);
    const r = await continueBillingRun(own, { ...job, handOff: job.handOff }, group);
    logger.info('billing run continued', {
      runId: job.runId,
      agentGroupId: r.agentGroupId,
      groupRunId: r.runId,
      invoiceIds: r.invoiceIds,
      linesWritten: r.linesWritten,
      draftsLeft: r.draftsLeft,
    });
    return;
  }
  const outcome = await billQueuedGroup(own, jobAtGroupClock(job, deps.clock, own), await deps.tenants.getAgentGroup(job.agentGroupId));
  if (outcome.outcome === 'FAILED') throw new Error(`billing ${job.agentGroupId} failed: ${outcome.error}`);
  if (outcome.outcome === 'BILLED') {
    const r = outcome.result;
    logger.info('billing run', {
      runId: job.runId,
      agentGroupId: r.agentGroupId,
      groupRunId: r.runId,
      invoiceIds: r.invoiceIds,
      linesWritten: r.linesWritten,
      draftsLeft: r.draftsLeft,
    });
  }
}

export const handler = concurrentRecords(
  'billing',
  () => {
    const svc = services();
    return {
      ...withStatementPdf(billingDeps(svc)),
      forGroup: async (agentGroupId: string) => withStatementPdf(billingDeps(await groupServices(svc, agentGroupId))),
    };
  },
  handleBillingRecord,
);

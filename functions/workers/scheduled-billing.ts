import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { billAllGroups } from '../../domain/invoicing/scheduled-billing.ts';
import { billingDeps, groupServices, services } from '../../infra/container.ts';
import { logger } from '../../infra/logger.ts';

/** Built once per cold start: the fonts load on first render. */
const pdfRenderer = new PdfInvoiceRenderer();

/**
 * Scheduled once a day after midnight India time; also invocable by hand (offline's Lambda
 * port: POST /2015-03-31/functions/<service>-<stage>-scheduledBilling/invocations, or
 * `npm run admin -- billing run --all`). Each group's outcome is logged; each run's result
 * is also kept in the table, where `billing runs` lists it.
 */
export const handler = async () => {
  const svc = services();
  // A group with a sandbox test clock is billed at its own time (docs/sandbox.md).
  const forGroup = async (agentGroupId: string) => billingDeps(await groupServices(svc, agentGroupId), pdfRenderer);
  const outcomes = await billAllGroups({ ...billingDeps(svc, pdfRenderer), forGroup }, { trigger: 'SCHEDULE' });
  for (const o of outcomes) {
    if (o.outcome === 'FAILED') logger.error('billing run failed', { agentGroupId: o.agentGroupId, error: o.error });
    else if (o.outcome === 'BILLED') logger.info('billing run', { agentGroupId: o.agentGroupId, runId: o.result.runId, invoiceIds: o.result.invoiceIds, linesWritten: o.result.linesWritten, draftsLeft: o.result.draftsLeft });
  }
  const count = (kind: string) => outcomes.filter((o) => o.outcome === kind).length;
  return { groups: outcomes.length, billed: count('BILLED'), upToDate: count('UP_TO_DATE'), failed: count('FAILED') };
};

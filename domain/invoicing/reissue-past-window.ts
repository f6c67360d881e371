import type { AuditOrigin } from '../audit/audit-event.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import type { AgentGroup } from '../tenants.ts';
import { cutoffOf } from './billing-period.ts';
import { invoiceAudit } from './invoice-audit.ts';
import type { BillingRunResult, Invoice } from './invoice.ts';
import { eInvoiceStatus } from './register-e-invoice.ts';
import { withBillingLock } from './request-billing-run.ts';
import { runBilling, type BillingDeps } from './run-billing.ts';

export interface Reissue {
  /** The document past its window, now CANCELLED keeping its number (GSTR-1 table 13). */
  readonly retired: Invoice;
  /** The run that billed its charges again: a new document, numbered and dated the day it is reported. */
  readonly run: BillingRunResult;
  readonly reissued: readonly Invoice[];
}

/**
 * An operator's remedy for an invoice the IRP will never register because it is past the
 * 30-day reporting window (docs/decisions/e-invoicing.md "The 30-day reporting window"): the
 * unregistered number is cancelled, keeping its number and date, so GSTR-1 table 13 reports it
 * as cancelled (a document of an e-invoicing registration without an IRN "shall not be treated
 * as an invoice", CGST Rules rule 48(5)); its charges are given back, and the group's billing
 * run issues them at once on a new number dated today, registered with the IRP as any invoice.
 * Both under the group's billing lock, so no run races the retired number. Refused, changing
 * nothing, for any document not `PAST_REPORTING_WINDOW` and for credit notes (whose figures
 * moved when they were raised: not built).
 */
export async function reissuePastWindow(deps: BillingDeps, group: AgentGroup, invoiceId: string, origin: AuditOrigin): Promise<Reissue> {
  const g = group.agentGroupId;
  return withBillingLock(deps, g, async () => {
    const status = await eInvoiceStatus(deps, g, invoiceId);
    const invoice = await deps.invoices.get(g, invoiceId);
    if (!invoice) throw new NotFoundError('Invoice');
    const label = invoice.invoiceNumber ?? invoice.id;
    if (status.state !== 'PAST_REPORTING_WINDOW') {
      throw new ConflictError(
        'CONFLICT',
        `${label} is ${status.state}, not PAST_REPORTING_WINDOW: only a document the IRP will no longer register (past its 30-day reporting window) is reissued under a new number. Nothing was changed.`,
      );
    }
    if (invoice.creditNoteFor) {
      throw new ConflictError(
        'CONFLICT',
        `Credit note ${label} is past its reporting window; reissuing a credit note is not built (its credit already moved its invoice's figures): escalate it to the tax team (docs/receivables.md "The 30-day reporting window"). Nothing was changed.`,
      );
    }
    const retired = { at: deps.clock.now().toISOString(), reason: 'PAST_REPORTING_WINDOW' as const, lastDay: status.reportingWindow?.lastDay ?? null };
    const audit = invoiceAudit(
      deps,
      origin,
      'invoice.reissued',
      invoice,
      { status: invoice.status, retiredReason: null },
      { status: 'CANCELLED', retiredReason: retired.reason },
    );
    if (!(await deps.invoices.retireUnreported(invoice, retired, audit)))
      throw new ConflictError(
        'CONFLICT',
        `${label} changed while it was being reissued (registered, held or billed meanwhile); look again with \`invoices einvoice\`. Nothing was changed.`,
      );
    // The same supply period and charges as the retired document; the new one is dated today by the run's clock.
    const run = await runBilling(
      deps,
      group,
      { period: { from: invoice.periodFrom, to: invoice.periodTo }, cutoff: cutoffOf(invoice.periodTo), trigger: 'ADMIN' },
      origin,
    );
    const reissued = (await Promise.all(run.invoiceIds.map((id) => deps.invoices.get(g, id)))).filter((i): i is Invoice => i !== undefined);
    return { retired: (await deps.invoices.get(g, invoiceId))!, run, reissued };
  });
}

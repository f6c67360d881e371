import type { AuditOrigin } from '../audit/audit-event.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { invoiceAudit } from './invoice-audit.ts';
import type { Invoice } from './invoice.ts';
import { storePdf, type BillingDeps, type PdfDeps } from './run-billing.ts';

/**
 * An operator abandons a DRAFT that should not be issued: it becomes CANCELLED (never
 * listed, never numbered) and gives its lines back, so the charges are billed by the next
 * run. An issued invoice is never abandoned: it is corrected by a credit note.
 */
export async function abandonDraft(
  deps: Pick<BillingDeps, 'invoices' | 'clock' | 'ids'>,
  agentGroupId: string,
  invoiceId: string,
  origin: AuditOrigin,
): Promise<Invoice> {
  const invoice = await deps.invoices.get(agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  const audit = invoiceAudit(
    deps,
    origin,
    'invoice.abandoned',
    invoice,
    { status: invoice.status, total: invoice.total },
    { status: 'CANCELLED', total: invoice.total },
  );
  if (!(await deps.invoices.abandon(agentGroupId, invoiceId, deps.clock.now().toISOString(), audit))) {
    if ((await deps.invoices.get(agentGroupId, invoiceId))?.linesOpen)
      throw new ConflictError(
        'CONFLICT',
        `Invoice ${invoiceId} is still having its lines written by billing run ${invoice.runId}; abandon it once the run has finished (a run that died leaves it to the next run of the group, which finishes it).`,
      );
    if (invoice.status === 'DRAFT' && invoice.invoiceNumber) {
      throw new ConflictError(
        'CONFLICT',
        `Invoice ${invoiceId} holds number ${invoice.invoiceNumber}, reserved while it is registered for e-invoicing: it is issued once the IRP registers it and cannot be abandoned (the series would have a gap). \`invoices einvoice\` shows why registration failed.`,
      );
    }
    throw new ConflictError(
      'CONFLICT',
      `Invoice ${invoiceId} is ${invoice.status}, not a DRAFT: only an unissued draft can be abandoned (an issued invoice is corrected by a credit note).`,
    );
  }
  return (await deps.invoices.get(agentGroupId, invoiceId))!;
}

/** Renders an issued invoice's PDF again from its stored figures (never re-priced) and stores it over the old one. */
export async function rerenderPdf(deps: PdfDeps, agentGroupId: string, invoiceId: string): Promise<Invoice> {
  const invoice = await deps.invoices.get(agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  if (invoice.status === 'DRAFT' || invoice.status === 'CANCELLED')
    throw new ConflictError('CONFLICT', `Invoice ${invoiceId} is ${invoice.status}: it has no number and no document.`);
  const { pdf: _bytes, ...stored } = await storePdf(deps, invoice);
  return stored;
}

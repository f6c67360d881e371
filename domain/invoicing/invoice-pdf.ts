import { ConflictError, NotFoundError } from '../errors.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { awaitsEInvoice } from './register-e-invoice.ts';
import { storePdf, type BillingDeps } from './run-billing.ts';

export type InvoicePdfDeps = Pick<BillingDeps, 'invoices' | 'renderPdf' | 'documents' | 'clock' | 'catalogue'>;

/**
 * GET /v1/invoices/{id}/pdf: the stored document, or, when it was never stored (the step
 * after issue failed), rendered now from the stored figures, stored and served. A DRAFT or
 * an abandoned draft has no document (409), nor has a credit note the IRP has not registered
 * yet (its document must print the IRN); another group's invoice is the same 404 as an
 * unknown id.
 */
export async function invoicePdf(deps: InvoicePdfDeps, principal: AgentGroupPrincipal, invoiceId: string): Promise<Uint8Array> {
  const invoice = await deps.invoices.get(principal.agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  if (invoice.status === 'DRAFT' || invoice.status === 'CANCELLED') {
    throw new ConflictError('CONFLICT', `Invoice ${invoice.id} is ${invoice.status === 'DRAFT' ? 'a DRAFT' : 'an abandoned draft'}: it has no number and no document. A DRAFT is issued by the next billing run.`);
  }
  if (await awaitsEInvoice(deps, invoice)) {
    throw new ConflictError('CONFLICT', `Credit note ${invoice.invoiceNumber} awaits its e-invoice registration; the next billing run registers it and renders its document with the IRN.`);
  }
  if (invoice.pdfKey) {
    const stored = await deps.documents.get(invoice.pdfKey);
    if (stored) return stored;
  }
  return (await storePdf(deps, invoice)).pdf;
}

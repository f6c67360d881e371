import { ConflictError, NotFoundError } from '../errors.ts';
import type { PdfJob, PdfQueue } from '../ports/pdf-queue.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import type { Invoice } from './invoice.ts';
import { awaitsEInvoice } from './register-e-invoice.ts';
import { failureOf, storePdf, type BillingDeps, type PdfDeps } from './run-billing.ts';

export type InvoicePdfDeps = PdfDeps & Pick<BillingDeps, 'catalogue'>;

/** Why an invoice has no document (yet), or undefined when it can be printed. */
async function withoutDocument(deps: InvoicePdfDeps, invoice: Invoice): Promise<string | undefined> {
  if (invoice.status === 'DRAFT' || invoice.status === 'CANCELLED') {
    return `Invoice ${invoice.id} is ${invoice.status === 'DRAFT' ? 'a DRAFT' : 'an abandoned draft'}: it has no number and no document. A DRAFT is issued by the next billing run.`;
  }
  if (await awaitsEInvoice(deps, invoice)) {
    return `Credit note ${invoice.invoiceNumber} awaits its e-invoice registration; the next billing run registers it and renders its document with the IRN.`;
  }
  return undefined;
}

/**
 * GET /v1/invoices/{id}/pdf: the stored document, or, when it is not stored yet (the PDF
 * worker has not got to it, or the step failed), rendered now from the stored figures, stored
 * and served. A DRAFT or an abandoned draft has no document (409), nor has a credit note the
 * IRP has not registered yet (its document must print the IRN); another group's invoice is
 * the same 404 as an unknown id.
 */
export async function invoicePdf(deps: InvoicePdfDeps, principal: AgentGroupPrincipal, invoiceId: string): Promise<InvoicePdf> {
  const invoice = await deps.invoices.get(principal.agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  const refusal = await withoutDocument(deps, invoice);
  if (refusal) throw new ConflictError('CONFLICT', refusal);
  const fileName = pdfFileName(invoice);
  if (invoice.pdfKey) {
    const stored = await deps.documents.get(invoice.pdfKey);
    if (stored) return { pdf: stored, fileName };
  }
  return { pdf: (await storePdf(deps, invoice)).pdf, fileName };
}

export interface InvoicePdf {
  readonly pdf: Uint8Array;
  /** What a download should be saved as: the document's number, which is what finance files it under. */
  readonly fileName: string;
}

/**
 * `I30/26-27/000001` → `invoice-I30-26-27-000001.pdf`: a number's slashes cannot stand in a file
 * name, and numbers hold only letters, digits, `/` and `-`, so nothing else needs escaping.
 */
export function pdfFileName(invoice: Pick<Invoice, 'id' | 'invoiceNumber'>): string {
  return `invoice-${(invoice.invoiceNumber ?? invoice.id).replace(/[^A-Za-z0-9-]/g, '-')}.pdf`;
}

/** What the PDF worker did with one queued document. */
export type PdfJobOutcome = 'STORED' | 'ALREADY_STORED' | 'NO_DOCUMENT' | 'UNKNOWN_INVOICE';

/**
 * The PDF worker's step for one queued document. Idempotent, so a redelivered message (or one
 * a partner's GET …/pdf beat to it) stores nothing twice: a document whose PDF is stored is left
 * alone, and the renderer gives the same bytes for the same document, so a render racing the
 * on-demand one writes the same object. A failure is recorded on the invoice (lastError) for
 * operators and thrown, so the queue redelivers it and, in the end, dead-letters it.
 */
export async function storeQueuedPdf(deps: InvoicePdfDeps, job: PdfJob): Promise<PdfJobOutcome> {
  const invoice = await deps.invoices.get(job.agentGroupId, job.invoiceId);
  if (!invoice) return 'UNKNOWN_INVOICE';
  if (invoice.pdfKey) return 'ALREADY_STORED';
  if (await withoutDocument(deps, invoice)) return 'NO_DOCUMENT';
  try {
    await storePdf(deps, invoice);
  } catch (err) {
    await deps.invoices.recordFailure(invoice.agentGroupId, invoice.id, failureOf('pdf', err), deps.clock.now().toISOString());
    throw err;
  }
  return 'STORED';
}

/** PDFs rendered at once in this process: for tools that bill in-process (the admin tool, tests). */
export const renderAtOnce = (deps: PdfDeps): PdfQueue => ({
  async request(invoice) {
    const { pdf: _bytes, ...stored } = await storePdf(deps, invoice);
    return stored;
  },
});

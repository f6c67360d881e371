/**
 * The invoice PDF area's wiring: GET …/pdf, statements and the PDF worker. The renderer itself is
 * made by the caller, so only the bundles that render carry pdf-lib.
 * Handlers import this module and `core.ts`, never another area's (docs/decisions/platform.md, "Composition per area").
 */
import { documentOf } from '../../domain/invoicing/credit-note-document.ts';
import type { InvoicePdfDeps } from '../../domain/invoicing/invoice-pdf.ts';
import type { InvoiceRenderer } from '../../domain/ports/invoice-renderer.ts';
import type { Services } from './core.ts';

/** What printing an issued document needs: GET …/pdf and the PDF worker. */
export function pdfDeps(svc: Services, renderer: InvoiceRenderer): InvoicePdfDeps {
  return {
    invoices: svc.invoices,
    documents: svc.documents,
    clock: svc.clock,
    catalogue: svc.catalogue,
    renderPdf: (invoice, lines) => renderer.render(documentOf(invoice, lines)),
  };
}

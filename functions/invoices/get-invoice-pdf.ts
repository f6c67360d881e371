import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { invoicePdf } from '../../domain/invoicing/invoice-pdf.ts';
import { pdfDeps } from '../../infra/container.ts';
import { getInvoicePdfRoute } from '../contracts/invoices.ts';
import { endpoint } from '../http/endpoint.ts';
import { documentReply } from '../http/responses.ts';

/** Built once per cold start: the fonts load on first render. */
const pdfRenderer = new PdfInvoiceRenderer();

export const handler = endpoint(getInvoicePdfRoute, async ({ principal, params, services }) =>
  documentReply('application/pdf', await invoicePdf(pdfDeps(services, pdfRenderer), principal, params.id), { 'Content-Disposition': `inline; filename="invoice-${params.id}.pdf"` }),
);

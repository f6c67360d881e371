import { invoicePdf } from '../../domain/invoicing/invoice-pdf.ts';
import { pdfDeps } from '../../infra/compose/invoice-pdf.ts';
import { onFirstCall } from '../../infra/lazy.ts';
import { getInvoicePdfRoute } from '../contracts/invoices.ts';
import { endpoint } from '../http/endpoint.ts';
import { documentReply } from '../http/responses.ts';

/** pdf-lib, fontkit and the renderer load at the first render, and the fonts with it, not at the cold start (docs/performance.md). */
const pdfRenderer = onFirstCall(async () => new (await import('../../infra/pdf/pdf-invoice-renderer.ts')).PdfInvoiceRenderer());

export const handler = endpoint(getInvoicePdfRoute, async ({ principal, params, services }) => {
  const { pdf, fileName } = await invoicePdf(pdfDeps(services, pdfRenderer), principal, params.id);
  return documentReply('application/pdf', pdf, { 'Content-Disposition': `inline; filename="${fileName}"` });
});

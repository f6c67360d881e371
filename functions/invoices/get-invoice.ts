import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { getInvoice } from '../../domain/invoicing/read-invoices.ts';
import { billingDeps } from '../../infra/container.ts';
import { getInvoiceRoute } from '../contracts/invoices.ts';
import { endpoint } from '../http/endpoint.ts';

/** Built once per cold start: the fonts load on first render. */
const pdfRenderer = new PdfInvoiceRenderer();

export const handler = endpoint(getInvoiceRoute, async ({ principal, params, services }) => ({
  status: 200,
  body: await getInvoice(billingDeps(services, pdfRenderer), principal, params.id),
}));

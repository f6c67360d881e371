import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { listInvoices } from '../../domain/invoicing/read-invoices.ts';
import { billingDeps } from '../../infra/container.ts';
import { listInvoicesRoute } from '../contracts/invoices.ts';
import { endpoint } from '../http/endpoint.ts';

/** Built once per cold start: the fonts load on first render. */
const pdfRenderer = new PdfInvoiceRenderer();

export const handler = endpoint(listInvoicesRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await listInvoices(billingDeps(services, pdfRenderer), principal, query),
}));

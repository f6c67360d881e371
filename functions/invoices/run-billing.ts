import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { BILLING_SCENARIOS } from '../../domain/invoicing/run-billing.ts';
import { billingRunView } from '../../domain/invoicing/read-invoices.ts';
import { requestBillingRun } from '../../domain/invoicing/request-billing-run.ts';
import { billingDeps } from '../../infra/container.ts';
import { createBillingRunRoute } from '../contracts/invoices.ts';
import { endpoint } from '../http/endpoint.ts';
import { sandboxHeader } from '../http/sandbox-header.ts';

/** Built once per cold start: the fonts load on first render. */
const pdfRenderer = new PdfInvoiceRenderer();

export const handler = endpoint(createBillingRunRoute, async ({ principal, body, services, event }) => ({
  status: 200,
  body: billingRunView(await requestBillingRun(billingDeps(services, pdfRenderer), principal, body ?? {}, sandboxHeader(event, services.config, BILLING_SCENARIOS))),
}));

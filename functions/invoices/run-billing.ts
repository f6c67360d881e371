// This function calls Razorpay's API: its bundle carries the SDK (infra/payments/razorpay-sdk.ts).
import '../../infra/payments/with-razorpay.ts';
import { auditOrigin } from '../http/audit-origin.ts';
import { BILLING_SCENARIOS } from '../../domain/invoicing/run-billing.ts';
import { billingRunView } from '../../domain/invoicing/read-invoices.ts';
import { requestBillingRun } from '../../domain/invoicing/request-billing-run.ts';
import { billingDeps } from '../../infra/container.ts';
import { createBillingRunRoute } from '../contracts/invoices.ts';
import { endpoint } from '../http/endpoint.ts';
import { sandboxHeader } from '../http/sandbox-header.ts';

/** Answers once the invoices are issued: their PDFs are queued for the PDF worker (render-invoice-pdfs.ts), not rendered here. */
export const handler = endpoint(createBillingRunRoute, async ({ principal, body, services, event, state }) => ({
  status: 200,
  body: billingRunView(await requestBillingRun(billingDeps(services), principal, body ?? {}, auditOrigin(principal, state), sandboxHeader(event, services.config, BILLING_SCENARIOS))),
}));

import { addDays } from '../../domain/catalogue/calendar.ts';
import { cutoffOf } from '../../domain/invoicing/billing-period.ts';
import type { Invoice, InvoiceLine } from '../../domain/invoicing/invoice.ts';
import { runBilling, type BillingRequest } from '../../domain/invoicing/run-billing.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import type { AgentGroup } from '../../domain/tenants.ts';
import { parseConfig } from '../../infra/config.ts';
import { billingDeps } from '../../infra/container.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { testOrigin } from './audit-origin.ts';
import { stack, testServices, type GroupFixture } from './stack.ts';

/** What the billing-run integration tests share: the run's deps, a 30-day ADMIN request ending today, the table and a group's profile. */
const renderer = new PdfInvoiceRenderer();
export const deps = () => billingDeps(testServices(), renderer);
export const today = () => indiaToday(new Date());
export const request = (): BillingRequest => ({ period: { from: addDays(today(), -30), to: today() }, cutoff: cutoffOf(today()), trigger: 'ADMIN' });
export const db = () => createDocumentClient(parseConfig(stack().env));
export const table = () => stack().env.TABLE_NAME!;
export const groupOf = async (g: GroupFixture): Promise<AgentGroup> => (await testServices().tenants.getAgentGroup(g.agentGroupId))!;

/** Runs billing for the group over request()'s period, as an operator would, and reads back its first invoice with its lines. */
export async function billGroup(g: GroupFixture): Promise<{ invoice: Invoice; lines: InvoiceLine[] }> {
  const run = await runBilling(deps(), await groupOf(g), request(), testOrigin());
  const invoice = (await deps().invoices.get(g.agentGroupId, run.invoiceIds[0]!))!;
  return { invoice, lines: await deps().invoices.lines(g.agentGroupId, invoice.id) };
}

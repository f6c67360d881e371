import { addDays } from '../../domain/catalogue/calendar.ts';
import { cutoffOf } from '../../domain/invoicing/billing-period.ts';
import type { BillingRequest } from '../../domain/invoicing/run-billing.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import type { AgentGroup } from '../../domain/tenants.ts';
import { parseConfig } from '../../infra/config.ts';
import { billingDeps } from '../../infra/container.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { stack, testServices, type GroupFixture } from './stack.ts';

/** What the billing-run integration tests share: the run's deps, a 30-day ADMIN request ending today, the table and a group's profile. */
const renderer = new PdfInvoiceRenderer();
export const deps = () => billingDeps(testServices(), renderer);
export const today = () => indiaToday(new Date());
export const request = (): BillingRequest => ({ period: { from: addDays(today(), -30), to: today() }, cutoff: cutoffOf(today()), trigger: 'ADMIN' });
export const db = () => createDocumentClient(parseConfig(stack().env));
export const table = () => stack().env.TABLE_NAME!;
export const groupOf = async (g: GroupFixture): Promise<AgentGroup> => (await testServices().tenants.getAgentGroup(g.agentGroupId))!;

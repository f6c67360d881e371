import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { cutoffOf } from '../../domain/invoicing/billing-period.ts';
import { runBilling } from '../../domain/invoicing/run-billing.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { billingDeps } from '../../infra/container.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

const renderer = new PdfInvoiceRenderer();
const deps = () => billingDeps(testServices(), renderer);
const today = () => indiaToday(new Date());
const request = () => ({ period: { from: addDays(today(), -30), to: today() }, cutoff: cutoffOf(today()), trigger: 'ADMIN' as const });

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

describe('Function: runBilling', () => {
  it('bills a booked stay', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const group = (await testServices().tenants.getAgentGroup(g.agentGroupId))!;
    const result = await runBilling(deps(), group, request());
    expect(result.linesWritten).toBe(2);
  }, 60_000);
});

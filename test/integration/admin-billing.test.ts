import { testOrigin } from '../support/audit-origin.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { cutoffOf } from '../../domain/invoicing/billing-period.ts';
import { runBilling } from '../../domain/invoicing/run-billing.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { billingDeps } from '../../infra/container.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { runAdminTool, type AdminRun } from '../support/admin-tool.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { newAgentGroup, testServices, type GroupFixture } from '../support/stack.ts';

const json = <T = any>(run: AdminRun): T => {
  expect(run.stderr, run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
};
const today = () => indiaToday(new Date());

let world: InvoiceWorld;
let g: GroupFixture;
beforeAll(async () => {
  world = await seedInvoiceWorld();
  g = await newAgentGroup({ channelId: world.channelId });
  await bookStay(g, world.registered, '2027-03-01', '2027-03-02');
}, 120_000);

describe('admin: billing and invoices', () => {
  it('runs billing for a group over a period, lists the run and the invoice, and renders its PDF again', async () => {
    const result = json(await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', addDays(today(), -7), '--to', today(), '--json']));
    expect(result).toMatchObject({ linesWritten: 1, draftsLeft: 0 });
    expect(result.invoiceIds).toHaveLength(1);

    const runs = json<{ agentGroupId: string; trigger: string }[]>(await runAdminTool(['billing', 'runs', '--group', g.agentGroupId, '--json']));
    expect(runs[0]).toMatchObject({ agentGroupId: g.agentGroupId, trigger: 'ADMIN' });

    const invoices = json<{ id: string; status: string; pdfStored: boolean }[]>(await runAdminTool(['invoices', 'list', '--group', g.agentGroupId, '--json']));
    expect(invoices).toEqual([expect.objectContaining({ id: result.invoiceIds[0], status: 'ISSUED', pdfStored: true })]);

    const rendered = await runAdminTool(['invoices', 'render', result.invoiceIds[0], '--group', g.agentGroupId]);
    expect(rendered.code).toBe(0);
    expect(rendered.stdout).toContain('Stored the PDF of invoice');
  }, 120_000);

  it('abandons a DRAFT, and refuses to abandon an issued invoice', async () => {
    const other = await newAgentGroup({ channelId: world.channelId });
    await bookStay(other, world.registered, '2027-03-02', '2027-03-03');
    const group = (await testServices().tenants.getAgentGroup(other.agentGroupId))!;
    const failed = await runBilling(billingDeps(testServices(), new PdfInvoiceRenderer()), group, {
      period: { from: addDays(today(), -7), to: today() },
      cutoff: cutoffOf(today()),
      trigger: 'ADMIN',
      scenario: 'invoice-issue-fails',
    }, testOrigin());
    const draftId = failed.invoiceIds[0]!;
    const listed = json<{ id: string; status: string; lastError: string }[]>(await runAdminTool(['invoices', 'list', '--group', other.agentGroupId, '--json']));
    expect(listed[0]).toMatchObject({ id: draftId, status: 'DRAFT' });
    expect(listed[0]!.lastError).toContain('invoice-issue-fails');

    expect(json(await runAdminTool(['invoices', 'abandon', draftId, '--group', other.agentGroupId, '--json']))).toMatchObject({ id: draftId, status: 'CANCELLED' });
    const issued = json(await runAdminTool(['billing', 'run', '--group', other.agentGroupId, '--from', addDays(today(), -7), '--to', today(), '--json']));
    const refused = await runAdminTool(['invoices', 'abandon', issued.invoiceIds[0], '--group', other.agentGroupId]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('not a DRAFT');
  }, 120_000);
});

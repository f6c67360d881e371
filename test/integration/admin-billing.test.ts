import { testOrigin } from '../support/audit-origin.ts';
import { withBillingScenario } from '../../domain/sandbox/billing-scenarios.ts';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { cutoffOf } from '../../domain/invoicing/billing-period.ts';
import { runBilling } from '../../domain/invoicing/run-billing.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { paymentEntryId } from '../../domain/receivables/payment.ts';
import { billingDeps } from '../../infra/container.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
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
    const failed = await runBilling(
      withBillingScenario(billingDeps(testServices(), new PdfInvoiceRenderer()), 'invoice-issue-fails'),
      group,
      { period: { from: addDays(today(), -7), to: today() }, cutoff: cutoffOf(today()), trigger: 'ADMIN' },
      testOrigin(),
    );
    const draftId = failed.invoiceIds[0]!;
    const listed = json<{ id: string; status: string; lastError: string }[]>(await runAdminTool(['invoices', 'list', '--group', other.agentGroupId, '--json']));
    expect(listed[0]).toMatchObject({ id: draftId, status: 'DRAFT' });
    expect(listed[0]!.lastError).toContain('invoice-issue-fails');

    expect(json(await runAdminTool(['invoices', 'abandon', draftId, '--group', other.agentGroupId, '--json', '--as', 'dora']))).toMatchObject({
      id: draftId,
      status: 'CANCELLED',
    });
    // One event, in the abandonment's own transaction: no write-ahead started/completed pair.
    expect((await trail(`invoice:${draftId}`)).map((e) => [e.action, e.actor, e.actorKind, e.account, e.before, e.after])).toEqual([
      ['invoice.abandoned', 'dora', 'operator', other.agentGroupId, { status: 'DRAFT' }, { status: 'CANCELLED' }],
    ]);
    expect(await trail(`invoices:${draftId}`)).toEqual([]);
    const issued = json(await runAdminTool(['billing', 'run', '--group', other.agentGroupId, '--from', addDays(today(), -7), '--to', today(), '--json']));
    const refused = await runAdminTool(['invoices', 'abandon', issued.invoiceIds[0], '--group', other.agentGroupId]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('not a DRAFT');
    // The change's own condition refused it: no event is left.
    expect(await trail(`invoice:${issued.invoiceIds[0]}`)).toEqual([]);
  }, 120_000);
});

describe('admin: invoices reissue', () => {
  it('refuses an invoice not past the e-invoice reporting window, naming its state, and changes nothing; an unknown group is not found', async () => {
    const other = await newAgentGroup({ channelId: world.channelId });
    await bookStay(other, world.registered, '2027-03-04', '2027-03-05');
    const issued = json(await runAdminTool(['billing', 'run', '--group', other.agentGroupId, '--from', addDays(today(), -7), '--to', today(), '--json']));
    const id = issued.invoiceIds[0] as string;
    const before = await testServices().invoices.get(other.agentGroupId, id);

    const refused = await runAdminTool(['invoices', 'reissue', id, '--group', other.agentGroupId]);

    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('is NOT_REQUIRED, not PAST_REPORTING_WINDOW');
    expect(refused.stderr).toContain('Nothing was changed');
    expect(await testServices().invoices.get(other.agentGroupId, id)).toEqual(before);
    expect(await testServices().auditTrail.listTarget(`invoice:${id}`)).toEqual([]);
    const unknown = await runAdminTool(['invoices', 'reissue', id, '--group', 'no-such-group']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/Agent group not found/i);
  }, 120_000);
});

describe("admin: money commands write their event in the change's transaction", () => {
  it("leaves a DRAFT unchanged when the abandonment's event cannot be written", async () => {
    const other = await newAgentGroup({ channelId: world.channelId });
    await bookStay(other, world.registered, '2027-03-04', '2027-03-05');
    const group = (await testServices().tenants.getAgentGroup(other.agentGroupId))!;
    const failed = await runBilling(
      withBillingScenario(billingDeps(testServices(), new PdfInvoiceRenderer()), 'invoice-issue-fails'),
      group,
      { period: { from: addDays(today(), -7), to: today() }, cutoff: cutoffOf(today()), trigger: 'ADMIN' },
      testOrigin(),
    );
    const draftId = failed.invoiceIds[0]!;
    await squat(`invoice:${draftId}`);

    const refused = await runAdminTool(['invoices', 'abandon', draftId, '--group', other.agentGroupId]);

    expect(refused.code).not.toBe(0);
    expect((await testServices().invoices.get(other.agentGroupId, draftId))?.status).toBe('DRAFT');
    expect((await testServices().invoices.lines(other.agentGroupId, draftId)).length).toBe(1);
  }, 120_000);

  it("records a bank transfer with its event on the payment's own chain, a duplicate with none, and nothing at all when the event cannot be written", async () => {
    const other = await newAgentGroup({ channelId: world.channelId });
    const reference = `UTR${Date.now()}`;
    const paid = json<{ payment: { ledgerEntryId: string }; duplicate: boolean }>(
      await runAdminTool(['payments', 'record', '--group', other.agentGroupId, '--amount', '1500.50', '--reference', reference, '--json', '--as', 'erin']),
    );
    expect(paid.duplicate).toBe(false);
    const again = json<{ duplicate: boolean }>(
      await runAdminTool(['payments', 'record', '--group', other.agentGroupId, '--amount', '1500.50', '--reference', reference, '--json', '--as', 'erin']),
    );
    expect(again.duplicate).toBe(true);
    const target = `payment:${paid.payment.ledgerEntryId}`;
    expect((await trail(target)).map((e) => [e.action, e.actor, e.account, e.before, e.after])).toEqual([
      [
        'payment.recorded',
        'erin',
        other.agentGroupId,
        null,
        expect.objectContaining({ source: 'BANK_TRANSFER', reference, amount: 1500_50, ledgerEntryId: paid.payment.ledgerEntryId }),
      ],
    ]);
    const verified = await runAdminTool(['audit', 'verify', '--target', target]);
    expect(verified.stdout).toContain('Intact');

    // A chain position taken by an item the trail did not write: the payment's transaction is refused whole.
    const blocked = `UTR${Date.now()}B`;
    const entryId = paymentEntryId(other.agentGroupId, 'BANK_TRANSFER', blocked);
    await squat(`payment:${entryId}`);
    const refused = await runAdminTool(['payments', 'record', '--group', other.agentGroupId, '--amount', '99', '--reference', blocked]);
    expect(refused.code).not.toBe(0);
    expect((await testServices().receivables.payments(other.agentGroupId)).map((p) => p.reference)).toEqual([reference]);
    expect(await testServices().receivables.unallocatedCredit(other.agentGroupId)).toBe(1500_50);
  }, 120_000);

  it("raises a credit note with its event on the invoice's chain, which audit verify finds intact, and refuses an over-credit without an event", async () => {
    const other = await newAgentGroup({ channelId: world.channelId });
    await bookStay(other, world.registered, '2027-03-06', '2027-03-07');
    const run = json(await runAdminTool(['billing', 'run', '--group', other.agentGroupId, '--from', addDays(today(), -7), '--to', today(), '--json']));
    const invoiceId = run.invoiceIds[0] as string;
    const [line] = await testServices().invoices.lines(other.agentGroupId, invoiceId);

    const raised = json<{ creditNote: { id: string; invoiceNumber: string } }>(
      await runAdminTool([
        'invoices',
        'credit-note',
        invoiceId,
        '--group',
        other.agentGroupId,
        '--lines',
        `${line!.id}:100`,
        '--reason',
        'Pool closed for a day',
        '--json',
        '--as',
        'frank',
      ]),
    );
    const over = await runAdminTool([
      'invoices',
      'credit-note',
      invoiceId,
      '--group',
      other.agentGroupId,
      '--lines',
      `${line!.id}:99999999`,
      '--reason',
      'Too much',
      '--as',
      'frank',
    ]);

    expect(over.code).not.toBe(0);
    const events = await trail(`invoice:${invoiceId}`);
    expect(events.map((e) => [e.action, e.actor, e.before, e.after])).toEqual([
      [
        'credit-note.raised',
        'frank',
        { creditedAmount: 0, raisedCreditNoteId: null, raisedCreditNoteNumber: null, raisedCreditNoteTotal: null },
        {
          creditedAmount: 100_00,
          raisedCreditNoteId: raised.creditNote.id,
          raisedCreditNoteNumber: raised.creditNote.invoiceNumber,
          raisedCreditNoteTotal: 100_00,
        },
      ],
    ]);
    expect(JSON.stringify(events)).not.toContain('Pool closed');
    const verified = await runAdminTool(['audit', 'verify', '--target', `invoice:${invoiceId}`]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain('Intact');
  }, 120_000);
});

const trail = (target: string) => testServices().auditTrail.listTarget(target);

/** Takes the chain's first position with an item the trail did not write, so no event can join that chain. */
async function squat(target: string): Promise<void> {
  const svc = testServices();
  await createDocumentClient(svc.config).send(
    new PutCommand({ TableName: svc.config.tableName, Item: { ...keys.auditEvent(target, 1), entity: 'AuditEvent', id: 'squatter' } }),
  );
}

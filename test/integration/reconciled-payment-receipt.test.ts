import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { addContact } from '../../domain/mail/finance-contacts.ts';
import { formatInr } from '../../domain/money.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { reconcilePayments } from '../../domain/receivables/gateway-accounts.ts';
import { parseConfig } from '../../infra/config.ts';
import { buildServices, reconcileDeps, type Services } from '../../infra/container.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { FakeRazorpay } from '../support/fake-razorpay.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { financeAddress, mailbox } from '../support/mailbox.ts';
import { newAgentGroup, stack } from '../support/stack.ts';

/**
 * A payment no notification announced, found by the hourly reconciliation (the Razorpay adapter, the official SDK, against the fake
 * over HTTP), is receipted like any other: once per contact who chose receipts, however often reconciliation runs.
 */
let world: InvoiceWorld;
let fake: FakeRazorpay;
let env: Record<string, string>;
let svc: Services;
beforeAll(async () => {
  const webhookSecret = randomBytes(24).toString('base64url');
  [world, fake] = await Promise.all([seedInvoiceWorld(), new FakeRazorpay(webhookSecret).start()]);
  env = { ...stack().env, ...fake.serviceEnv() };
  svc = buildServices(parseConfig(env));
}, 120_000);
afterAll(async () => fake?.stop());

const reconcile = (agentGroupId: string) => reconcilePayments(reconcileDeps(svc), TEST_OPERATOR, agentGroupId);

describe('receipts of payments found by reconciliation', () => {
  it('a payment whose webhook never came is recorded by reconciliation and receipted once to the contacts who chose receipts; a second reconciliation sends nothing', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const [payer, statementsOnly] = [financeAddress('payer'), financeAddress('statements')];
    const cdeps = { financeContacts: svc.financeContacts, clock: svc.clock, ids: svc.ids };
    await addContact(cdeps, g.agentGroupId, { email: payer, documents: ['RECEIPTS'] }, TEST_OPERATOR);
    await addContact(cdeps, g.agentGroupId, { email: statementsOnly, documents: ['STATEMENTS'] }, TEST_OPERATOR);
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const today = indiaToday(new Date());
    const run = await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', addDays(today, -7), '--to', today, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const [id] = JSON.parse(run.stdout).invoiceIds as string[];
    const invoice = (await svc.invoices.get(g.agentGroupId, id!))!;
    expect(invoice.status).toBe('ISSUED');

    // Paid at checkout; Razorpay's payment.captured and order.paid are never delivered.
    const paid = fake.pay(invoice.gatewayOrderId!, invoice.total);
    const report = await reconcile(g.agentGroupId);
    expect(report.recorded).toEqual([{ agentGroupId: g.agentGroupId, paymentId: paid.payment.id, amount: invoice.total }]);
    expect(report.failures).toEqual([]);
    expect(await svc.invoices.get(g.agentGroupId, id!)).toMatchObject({ status: 'PAID', amountPaid: invoice.total });

    const inbox = mailbox(stack().env.SES_ENDPOINT!);
    const receipt = await inbox.waitFor(payer, /^Payment received: /);
    expect(receipt.subject).toBe(`Payment received: ${formatInr(invoice.total)} for invoice ${invoice.invoiceNumber}`);
    for (const part of [receipt.text, receipt.html]) {
      expect(part).toContain(paid.payment.id);
      expect(part).toContain(invoice.invoiceNumber!);
      expect(part).toContain(today.split('-').reverse().join('-'));
    }
    const audited = (await svc.auditTrail.listTarget(`invoice:${id}`)).concat(
      ...(await Promise.all((await svc.receivables.payments(g.agentGroupId)).map((p) => svc.auditTrail.listTarget(`payment:${p.ledgerEntryId}`)))),
    );
    expect(audited.filter((e) => e.action === 'mail.receipt-sent')).toHaveLength(1);

    expect((await reconcile(g.agentGroupId)).recorded).toEqual([]);
    expect((await inbox.forRecipient(payer)).filter((m) => m.subject.startsWith('Payment received'))).toHaveLength(1);
    expect(await inbox.forRecipient(statementsOnly)).toEqual([]);
  }, 180_000);
});

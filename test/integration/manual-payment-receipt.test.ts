import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { addContact } from '../../domain/mail/finance-contacts.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { financeAddress, mailbox } from '../support/mailbox.ts';
import { newAgentGroup, stack, testServices } from '../support/stack.ts';

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

const json = (run: { code: number; stdout: string; stderr: string }) => {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};

describe('receipts of payments an operator records', () => {
  it('`payments record` e-mails the receipt (amount in rupees with Indian grouping, India date, UTR) to the contacts who chose receipts, once however often it is recorded, audited', async () => {
    const svc = testServices();
    const g = await newAgentGroup({ channelId: world.channelId });
    const [payer, noReceipts] = [financeAddress('payer'), financeAddress('noreceipts')];
    const cdeps = { financeContacts: svc.financeContacts, clock: svc.clock, ids: svc.ids };
    await addContact(cdeps, g.agentGroupId, { email: payer, documents: ['RECEIPTS'] }, TEST_OPERATOR);
    await addContact(cdeps, g.agentGroupId, { email: noReceipts, documents: ['STATEMENTS'] }, TEST_OPERATOR);
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    json(
      await runAdminTool([
        'billing',
        'run',
        '--group',
        g.agentGroupId,
        '--from',
        addDays(indiaToday(new Date()), -7),
        '--to',
        indiaToday(new Date()),
        '--json',
      ]),
    );

    const utr = `UTR${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
    const args = ['payments', 'record', '--group', g.agentGroupId, '--amount', '123456.50', '--reference', utr, '--json'];
    const first = json(await runAdminTool(args));
    expect(first.receipt).toEqual({ sent: 1, alreadySent: 0 });
    expect(json(await runAdminTool(args)).receipt).toEqual({ sent: 0, alreadySent: 1 });

    const inbox = mailbox(stack().env.SES_ENDPOINT!);
    const mails = await inbox.forRecipient(payer);
    expect(mails.map((m) => m.subject)).toEqual(['Payment received: ₹1,23,456.50']);
    for (const part of [mails[0]!.text, mails[0]!.html]) {
      expect(part).toContain(utr);
      expect(part).toContain(indiaToday(new Date()).split('-').reverse().join('-'));
    }
    expect(await inbox.forRecipient(noReceipts)).toEqual([]);
    const audited = (await svc.auditTrail.listTarget(`payment:${first.payment.ledgerEntryId}`)).filter((e) => e.action === 'mail.receipt-sent');
    expect(audited).toHaveLength(1);
  }, 180_000);
});

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { pdfKeyOf } from '../../domain/invoicing/run-billing.ts';
import { formatInr } from '../../domain/money.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { mailbox } from '../support/mailbox.ts';
import { pollUntil } from '../support/poll.ts';
import { call, newAgentGroup, stack, testServices } from '../support/stack.ts';

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

const address = (who: string) => `${who}-${randomUUID().slice(0, 8)}@finance.example.in`;

describe('invoices by e-mail', () => {
  it('a billing run e-mails each finance contact the invoice with its PDF, once, and records each send in the audit trail', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const [ap, cfo] = [address('ap'), address('cfo')];
    for (const email of [ap, cfo]) expect((await call('POST', '/v1/finance-contacts', { key: g.apiKey, body: { email, documents: [] } })).status).toBe(201);
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');

    const run = await call<{ invoiceIds: string[] }>('POST', '/v1/invoices', {
      key: g.apiKey,
      body: { from: addDays(indiaToday(new Date()), -30), to: indiaToday(new Date()) },
    });
    expect(run.status).toBe(200);
    const [id] = run.body.invoiceIds;
    const invoice = (await call('GET', `/v1/invoices/${id}`, { key: g.apiKey })).body.invoice;

    const inbox = mailbox(stack().env.SES_ENDPOINT!);
    for (const to of [ap, cfo]) {
      const mail = await inbox.waitFor(to, new RegExp(`^Invoice ${invoice.invoiceNumber.replace(/\//g, '\\/')}:`));
      expect(mail.subject).toContain(formatInr(Math.round(invoice.amountDue * 100)));
      expect(mail.text).toContain(invoice.dueDate.split('-').reverse().join('-'));
      expect(mail.html).toContain(invoice.invoiceNumber);
      const stored = await testServices().documents.get(pdfKeyOf({ agentGroupId: g.agentGroupId, id: id! }));
      expect(mail.attachments).toHaveLength(1);
      expect(mail.attachments[0]!.content.equals(Buffer.from(stored!))).toBe(true);
    }
    const sent = await pollUntil('both sends audited', async () => {
      const events = (await testServices().auditTrail.listTarget(`invoice:${id}`)).filter((e) => e.action === 'mail.invoice-sent');
      return events.length === 2 ? events : undefined;
    });
    expect(sent.map((e) => e.actorKind)).toEqual(['system', 'system']);
    expect((await inbox.forRecipient(ap)).filter((m) => m.subject.startsWith('Invoice'))).toHaveLength(1);
  }, 180_000);
});

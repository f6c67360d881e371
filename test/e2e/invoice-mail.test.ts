import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { pdfKeyOf } from '../../domain/invoicing/run-billing.ts';
import { formatInr } from '../../domain/money.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { SandboxPaymentGateway } from '../../infra/payments/sandbox-payment-gateway.ts';
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

  it('a payment notified twenty times at once e-mails one receipt to each contact who chose receipts, none to the others', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const [payer, statementsOnly] = [address('payer'), address('statements')];
    await call('POST', '/v1/finance-contacts', { key: g.apiKey, body: { email: payer, documents: ['RECEIPTS'] } });
    await call('POST', '/v1/finance-contacts', { key: g.apiKey, body: { email: statementsOnly, documents: ['STATEMENTS'] } });
    await bookStay(g, world.registered, '2027-03-06', '2027-03-07');
    const run = await call<{ invoiceIds: string[] }>('POST', '/v1/invoices', {
      key: g.apiKey,
      body: { from: addDays(indiaToday(new Date()), -30), to: indiaToday(new Date()) },
    });
    const invoice = (await call('GET', `/v1/invoices/${run.body.invoiceIds[0]}`, { key: g.apiKey })).body.invoice;

    const n = new SandboxPaymentGateway(testServices().config.payments.webhookSecrets).capture(invoice.gatewayOrderId, 1_000_00, new Date());
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', '/gateway/notifications', {
          rawBody: n.body,
          headers: { 'content-type': 'application/json', 'x-razorpay-signature': n.headers['x-razorpay-signature']! },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));

    const inbox = mailbox(stack().env.SES_ENDPOINT!);
    const receipt = await inbox.waitFor(payer, /^Payment received: ₹1,000\.00/);
    expect(receipt.text).toContain(invoice.invoiceNumber);
    expect(receipt.text).toContain(formatInr(Math.round(invoice.amountDue * 100) - 1_000_00));
    expect((await inbox.forRecipient(payer)).filter((m) => m.subject.startsWith('Payment received'))).toHaveLength(1);
    // The invoice e-mail reached both; no receipt reached the contact without receipts.
    await inbox.waitFor(statementsOnly, /^Invoice /);
    expect((await inbox.forRecipient(statementsOnly)).filter((m) => m.subject.startsWith('Payment received'))).toEqual([]);
  }, 180_000);
});

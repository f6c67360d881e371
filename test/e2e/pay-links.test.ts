import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedWebhook } from '../support/fake-razorpay.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { mailbox } from '../support/mailbox.ts';
import { pdfText } from '../support/pdf-scan.ts';
import { billingPeriod, startRazorpayStack, type RazorpayStack } from '../support/razorpay-stack.ts';
import { call, newAgentGroup, stack, type GroupFixture } from '../support/stack.ts';

/**
 * Pay links end to end: the Razorpay stack (the official SDK against the fake Razorpay) issues the invoice with its link, the shared
 * stack's PDF worker prints and e-mails it to the local mailbox, the payer pays through the link on the fake, and the fake's signed
 * webhooks settle the invoice.
 */
let rz: RazorpayStack;
let world: InvoiceWorld;
const address = (who: string) => `${who}-${randomUUID().slice(0, 8)}@finance.example.in`;
const deliver = (w: SignedWebhook) => rz.deliver(w);
const invoiceOf = (g: GroupFixture, id: string) => rz.invoiceOf(g, id);
const reconcile = (g: GroupFixture) => rz.reconcile(g);
/** A new group with finance contacts and one issued invoice of two nights (₹10,500), through the partner's run on the Razorpay stack. */
async function issuedInvoice(contacts: { email: string; documents: string[] }[] = []) {
  const g = await newAgentGroup({ channelId: world.channelId });
  for (const body of contacts) expect((await call('POST', '/v1/finance-contacts', { key: g.apiKey, body })).status).toBe(201);
  await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
  const run = await rz.call('POST', '/v1/invoices', { key: g.apiKey, body: billingPeriod() });
  expect(run.status, run.text).toBe(200);
  const id = run.body.invoiceIds[0] as string;
  return { g, id, invoice: await invoiceOf(g, id) };
}
const linksOf = (invoiceId: string) => rz.fake.paymentLinks.filter((l) => l.reference_id?.startsWith(`${invoiceId}/L`));

beforeAll(async () => {
  [rz, world] = await Promise.all([startRazorpayStack(), seedInvoiceWorld()]);
}, 400_000);
afterAll(async () => rz?.stop());

describe('pay links', () => {
  it('a billing run e-mails the invoice with its pay link (mail, PDF, API); paying through the link settles it once whatever the order of its three events, and mails one receipt', async () => {
    const payer = address('payer');
    const { g, id, invoice } = await issuedInvoice([{ email: payer, documents: ['RECEIPTS'] }]);
    const [link] = linksOf(id);
    expect(linksOf(id)).toHaveLength(1);
    expect(link).toMatchObject({ amount: 10_500_00, currency: 'INR', accept_partial: false, reference_id: `${id}/L1`, status: 'created' });
    expect(link!.notes).toEqual({ invoice_id: id, agent_group_id: g.agentGroupId });
    expect(invoice.payLink).toEqual({ url: link!.short_url, amount: 10_500, expiresAt: new Date(link!.expire_by * 1000).toISOString() });

    // The invoice e-mail, read back from the local mailbox, carries the link; so does its PDF.
    const inbox = mailbox(stack().env.SES_ENDPOINT!);
    const mail = await inbox.waitFor(payer, /^Invoice /);
    const url = mail.text.match(/https:\/\/\S+/)?.[0]?.replace(/\s*\($/, '');
    expect(url).toBe(link!.short_url);
    expect(mail.html).toContain(`href="${link!.short_url}"`);
    const pdfPath = join(tmpdir(), `pay-link-${id}.pdf`);
    writeFileSync(pdfPath, mail.attachments[0]!.content);
    expect(pdfText(pdfPath).replace(/\s+/g, '')).toContain(link!.short_url);

    // The payer opens the link from the e-mail and pays it: Razorpay opens an order for the payment and sends three events.
    const paid = rz.fake.payLink(rz.fake.paymentLinks.find((l) => l.short_url === url)!.id);
    // payment.captured first: its order is not ours yet, so it is kept — until payment_link.paid makes the order the invoice's.
    expect((await deliver(paid.captured)).body).toMatchObject({ outcome: 'UNMATCHED', paymentId: paid.payment.id });
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => deliver(paid.linkPaid)),
      ...Array.from({ length: 5 }, () => deliver(paid.orderPaid)),
      ...Array.from({ length: 5 }, () => deliver(paid.captured)),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(15).fill(200));
    // One records it; a twin that looked before payment_link.paid adopted the order is answered UNMATCHED, yet none stays kept (below).
    expect(answers.filter((a) => a.body.outcome === 'RECORDED')).toHaveLength(1);
    expect(answers.filter((a) => a.body.outcome !== 'RECORDED').map((a) => a.body.outcome)).toEqual(
      answers.filter((a) => a.body.outcome !== 'RECORDED').map(() => expect.stringMatching(/^(DUPLICATE|UNMATCHED)$/)),
    );
    expect(answers.filter((a) => a.body.outcome === 'DUPLICATE').length).toBeGreaterThanOrEqual(4);

    expect(await invoiceOf(g, id)).toMatchObject({ status: 'PAID', amountPaid: 10_500, amountDue: 0, payLink: null });
    const ledger = (await call('GET', '/v1/ledger?type=PAYMENT&size=100', { key: g.apiKey })).body.data as { amount: number }[];
    expect(ledger.map((e) => e.amount)).toEqual([-10_500]);
    expect((await rz.svc.receivables.unmatchedPayments()).filter((u) => u.paymentId === paid.payment.id)).toEqual([]);
    const receipt = await inbox.waitFor(payer, /^Payment received: ₹10,500\.00/);
    expect(receipt.text).toContain(invoice.invoiceNumber);
    expect((await inbox.forRecipient(payer)).filter((m) => m.subject.startsWith('Payment received'))).toHaveLength(1);
    expect(rz.fake.paymentLinks.find((l) => l.id === link!.id)).toMatchObject({ status: 'paid' });
  }, 300_000);

  it('a part payment hides the link at once; reconciliation cancels it and makes one for the rest; payment_link.paid alone settles the rest; the next reconciliation clears it', async () => {
    const { g, id } = await issuedInvoice();
    const [first] = linksOf(id);
    const vaId = rz.fake.virtualAccounts.find((v) => !Array.isArray(v.notes) && v.notes.agent_group_id === g.agentGroupId)!.id;
    expect((await deliver(rz.fake.transfer(vaId, 4_000_00, `UTR40L${randomUUID().slice(0, 8)}`).credited)).body.outcome).toBe('RECORDED');
    // 6,500 is owed and the link is for 10,500: not offered any more.
    expect(await invoiceOf(g, id)).toMatchObject({ amountDue: 6_500, payLink: null });

    expect((await reconcile(g)).failures).toEqual([]);
    expect(rz.fake.paymentLinks.find((l) => l.id === first!.id)).toMatchObject({ status: 'cancelled' });
    expect(() => rz.fake.payLink(first!.id)).toThrow(/cancelled/);
    // Our own cancel is announced too: the invoice no longer holds that link, so it moves nothing.
    const ownCancel = rz.fake.sent.find((w) => w.event === 'payment_link.cancelled' && w.body.includes(first!.id))!;
    expect((await deliver(ownCancel)).body).toMatchObject({ outcome: 'DUPLICATE', invoiceId: id });
    const second = linksOf(id).find((l) => l.reference_id === `${id}/L2`);
    expect(second).toMatchObject({ amount: 6_500_00, status: 'created' });
    expect((await invoiceOf(g, id)).payLink).toMatchObject({ url: second!.short_url, amount: 6_500 });
    // Nothing changed: the link stays.
    expect((await reconcile(g)).failures).toEqual([]);
    expect(linksOf(id)).toHaveLength(2);

    const paid = rz.fake.payLink(second!.id);
    expect((await deliver(paid.linkPaid)).body).toMatchObject({ outcome: 'RECORDED', invoiceId: id, paymentId: paid.payment.id });
    expect((await deliver(paid.captured)).body).toMatchObject({ outcome: 'DUPLICATE', invoiceId: id });
    expect(await invoiceOf(g, id)).toMatchObject({ status: 'PAID', amountDue: 0, payLink: null });

    const report = await reconcile(g);
    expect([report.recorded, report.failures]).toEqual([[], []]);
    expect(linksOf(id)).toHaveLength(2);
    expect((await rz.svc.invoices.get(g.agentGroupId, id))!.payLink).toBeNull();
    expect(await rz.svc.payLinks.invoicesWithPayLinks(g.agentGroupId)).toEqual([]);
  }, 300_000);

  it('a link paid whose payment_link.paid never came is found by reconciliation from the link itself: recorded once, the twin kept as unmatched taken back, the receipt mailed', async () => {
    const payer = address('payer');
    const { g, id } = await issuedInvoice([{ email: payer, documents: ['RECEIPTS'] }]);
    const [link] = linksOf(id);
    const paid = rz.fake.payLink(link!.id);
    expect((await deliver(paid.captured)).body).toMatchObject({ outcome: 'UNMATCHED', paymentId: paid.payment.id });

    const report = await reconcile(g);
    expect(report.recorded).toEqual([{ agentGroupId: g.agentGroupId, paymentId: paid.payment.id, amount: 10_500_00 }]);
    expect(report.failures).toEqual([]);
    expect(await invoiceOf(g, id)).toMatchObject({ status: 'PAID', amountPaid: 10_500, payLink: null });
    expect((await rz.svc.receivables.unmatchedPayments()).filter((u) => u.paymentId === paid.payment.id)).toEqual([]);
    expect((await deliver(paid.orderPaid)).body).toMatchObject({ outcome: 'DUPLICATE', invoiceId: id });
    expect((await deliver(paid.linkPaid)).body).toMatchObject({ outcome: 'DUPLICATE', invoiceId: id });
    const inbox = mailbox(stack().env.SES_ENDPOINT!);
    await inbox.waitFor(payer, /^Payment received: ₹10,500\.00/);
    expect((await reconcile(g)).recorded).toEqual([]);
    expect((await inbox.forRecipient(payer)).filter((m) => m.subject.startsWith('Payment received'))).toHaveLength(1);
  }, 300_000);

  it('a link cancelled on the Razorpay dashboard is cleared at once by its payment_link.cancelled, and the next reconciliation makes one for the amount due', async () => {
    const { g, id } = await issuedInvoice();
    const [first] = linksOf(id);
    const cancelled = rz.fake.dashboardCancel(first!.id);
    // Said at once: the invoice's answer stops showing a link that takes no payment.
    expect((await deliver(cancelled)).body).toMatchObject({ outcome: 'LINK_ENDED', event: 'payment_link.cancelled', invoiceId: id, duplicate: false });
    expect(await invoiceOf(g, id)).toMatchObject({ amountDue: 10_500, payLink: null });
    expect((await deliver(cancelled)).body).toMatchObject({ outcome: 'DUPLICATE', invoiceId: id, duplicate: true });

    expect((await reconcile(g)).failures).toEqual([]);
    const second = linksOf(id).find((l) => l.reference_id === `${id}/L2`);
    expect(second).toMatchObject({ amount: 10_500_00, status: 'created' });
    expect((await invoiceOf(g, id)).payLink).toMatchObject({ url: second!.short_url, amount: 10_500 });
    // The first link's event arriving late moves nothing now that the invoice holds the second.
    expect((await deliver(cancelled)).body).toMatchObject({ outcome: 'DUPLICATE', invoiceId: id });
    expect((await invoiceOf(g, id)).payLink).toMatchObject({ url: second!.short_url });
    expect((await reconcile(g)).failures).toEqual([]);
    expect(linksOf(id)).toHaveLength(2);

    // A link we never made: kept out of every invoice, answered as other unmatched notices are.
    const foreign = rz.fake.sign('payment_link.expired', { payment_link: { entity: { id: 'plink_NotOursAtAll01', status: 'expired' } } });
    expect((await deliver(foreign)).body).toMatchObject({ outcome: 'UNMATCHED', invoiceId: null });
    // Signed with another secret: refused as every other notification is.
    expect((await rz.deliver(cancelled, { ...cancelled.headers, 'x-razorpay-signature': '0'.repeat(64) })).status).toBe(400);
  }, 300_000);

  // Last: Razorpay's clock moves on past the link's expiry, after which links the service makes would be refused as already past.
  it('a link past its expiry is announced payment_link.expired and cleared from the invoice at once', async () => {
    const { g, id } = await issuedInvoice();
    const [link] = linksOf(id);
    rz.fake.elapse(link!.expire_by - Math.floor(Date.now() / 1000) + 60);
    const expired = rz.fake.sent.find((w) => w.event === 'payment_link.expired' && w.body.includes(link!.id))!;
    expect(JSON.parse(expired.body).payload.payment_link.entity).toMatchObject({ id: link!.id, status: 'expired' });
    // Until the event, the invoice still shows it (its stored expiry is Razorpay's, which our clock has not reached).
    expect((await invoiceOf(g, id)).payLink).toMatchObject({ url: link!.short_url });
    expect((await deliver(expired)).body).toMatchObject({ outcome: 'LINK_ENDED', event: 'payment_link.expired', invoiceId: id });
    expect(await invoiceOf(g, id)).toMatchObject({ amountDue: 10_500, payLink: null });
  }, 300_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { reconcilePayments } from '../../domain/receivables/gateway-accounts.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import type { SignedWebhook } from '../support/fake-razorpay.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { startRazorpayStack, type RazorpayStack } from '../support/razorpay-stack.ts';
import { call, newAgentGroup, type GroupFixture } from '../support/stack.ts';

/**
 * Razorpay in the path: the service's Razorpay adapter (the official SDK) talks to the fake
 * Razorpay over HTTP; the fake's signed webhooks go to POST /gateway/notifications.
 */
let rz: RazorpayStack;
let world: InvoiceWorld;
const period = () => ({ from: addDays(indiaToday(new Date()), -30), to: indiaToday(new Date()) });
const deliver = (w: SignedWebhook, headers: Record<string, string> = w.headers) => rzCall('POST', '/gateway/notifications', { rawBody: w.body, headers });
/** A call to the Razorpay stack; like the shared stack's, a 503 of a loaded machine is retried after Retry-After. */
async function rzCall(method: string, path: string, opts: Parameters<typeof call>[2] = {}) {
  for (let attempt = 0; ; attempt++) {
    const res = await call(method, path, { ...opts, baseUrl: rz.baseUrl });
    if (res.status !== 503 || attempt >= 3) return res;
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
  }
}
const invoiceOf = async (g: GroupFixture, id: string) => {
  const res = await rzCall('GET', `/v1/invoices/${id}`, { key: g.apiKey });
  expect(res.status, res.text).toBe(200);
  return res.body.invoice;
};
const ledgerPayments = async (g: GroupFixture) =>
  (await call('GET', '/v1/ledger?type=PAYMENT&size=100', { key: g.apiKey })).body.data as { amount: number; status: string }[];
const admin = async (args: string[]) => {
  const run = await runAdminTool([...args, '--json'], rz.env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};
/** A partner's billing run (one per new group in a test: within the throttle), without the admin tool's start-up. */
const partnerRun = async (g: GroupFixture) => {
  const run = await rzCall('POST', '/v1/invoices', { key: g.apiKey, body: period() });
  expect(run.status, run.text).toBe(200);
  return run.body.invoiceIds as string[];
};
/** A new group with one issued invoice of two nights (₹10,500), through the partner's run. */
const issuedInvoice = async () => {
  const g = await newAgentGroup({ channelId: world.channelId });
  await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
  const [id] = await partnerRun(g);
  return { g, id: id!, invoice: await invoiceOf(g, id!) };
};
/** One group's reconciliation, as `payments reconcile --group` runs it, on this stack's services (the SDK against the fake). */
const reconcile = (g: GroupFixture) =>
  reconcilePayments(
    {
      gateway: rz.svc.gateway,
      receivables: rz.svc.receivables,
      tenants: rz.svc.tenants,
      clock: rz.svc.clock,
      invoices: rz.svc.invoices,
      payLinks: rz.svc.payLinks,
      ids: rz.svc.ids,
      metrics: rz.svc.metrics,
    },
    TEST_OPERATOR,
    g.agentGroupId,
  );
/** A billing run through the operator's tool (the same engine; no partner throttle between runs). */
const billingRun = async (g: GroupFixture) =>
  (await admin(['billing', 'run', '--group', g.agentGroupId, '--from', period().from, '--to', period().to])).invoiceIds as string[];

beforeAll(async () => {
  [rz, world] = await Promise.all([startRazorpayStack(), seedInvoiceWorld()]);
}, 400_000);
afterAll(async () => rz?.stop());

describe('Razorpay: orders, signed webhooks, virtual accounts, reconciliation', () => {
  it('issues with one order (paise, INR, receipt = invoice id, notes) and a virtual account printed as payment instructions; 20 racing payment.captured record one payment, order.paid after it changes nothing', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const run = await rzCall('POST', '/v1/invoices', { key: g.apiKey, body: period() });
    expect(run.status, run.text).toBe(200);
    const id = run.body.invoiceIds[0]!;
    const invoice = await invoiceOf(g, id);
    expect(invoice).toMatchObject({ status: 'ISSUED', total: 10_500 });
    const orders = rz.fake.orders.filter((o) => o.receipt === id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      id: invoice.gatewayOrderId,
      amount: 10_500_00,
      currency: 'INR',
      notes: { invoice_id: id, agent_group_id: g.agentGroupId },
    });
    const va = rz.fake.virtualAccounts.filter((v) => !Array.isArray(v.notes) && v.notes.agent_group_id === g.agentGroupId);
    expect(va).toHaveLength(1);
    expect(invoice.paymentInstructions).toEqual({
      gatewayOrderId: invoice.gatewayOrderId,
      bankTransfer: {
        accountNumber: va[0]!.receivers[0]!.account_number,
        ifsc: 'RATN0VAAPIS',
        bankName: 'RBL Bank',
        beneficiaryName: 'Acme Holidays',
        reference: invoice.invoiceNumber,
      },
    });

    const paid = rz.fake.pay(invoice.gatewayOrderId, 10_500_00);
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(paid.captured)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.body.outcome === 'RECORDED')).toHaveLength(1);
    expect(answers.filter((a) => a.body.outcome === 'DUPLICATE')).toHaveLength(19);
    expect(await invoiceOf(g, id)).toMatchObject({ status: 'PAID', amountPaid: 10_500, amountDue: 0 });
    const orderPaid = await deliver(paid.orderPaid);
    expect(orderPaid.body).toMatchObject({ outcome: 'DUPLICATE', paymentId: paid.payment.id, invoiceId: id });
    expect(await ledgerPayments(g)).toEqual([expect.objectContaining({ amount: -10_500, status: 'POSTED' })]);
    // The event id was kept with the payment.
    const listed = await admin(['payments', 'list', '--group', g.agentGroupId]);
    expect(listed.payments).toEqual([expect.objectContaining({ reference: paid.payment.id, eventId: paid.captured.headers['x-razorpay-event-id'] })]);
  }, 240_000);

  it('takes bank transfers into the group virtual account oldest due first, keeps the surplus, and reconciliation records a payment no webhook announced once', async () => {
    const g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const [olderId] = await billingRun(g);
    await bookStay(g, world.registered, '2027-03-06', '2027-03-07');
    const [newerId] = await billingRun(g);
    const older = await invoiceOf(g, olderId!);
    const newer = await invoiceOf(g, newerId!);
    expect([older.total, newer.total]).toEqual([10_500, 5_250]);
    const vaId = rz.fake.virtualAccounts.find((v) => !Array.isArray(v.notes) && v.notes.agent_group_id === g.agentGroupId)!.id;
    expect(rz.fake.virtualAccounts.filter((v) => v.id === vaId)).toHaveLength(1);

    // A card payment whose webhook never comes: reconciliation finds it on the order, once.
    const missed = rz.fake.pay(newer.gatewayOrderId, 5_250_00);
    const first = await admin(['payments', 'reconcile', '--group', g.agentGroupId]);
    expect(first).toMatchObject({
      groups: 1,
      ordersChecked: 2,
      virtualAccountsChecked: 1,
      recorded: [{ paymentId: missed.payment.id, amount: 5_250_00 }],
      failures: [],
    });
    expect((await admin(['payments', 'reconcile', '--group', g.agentGroupId])).recorded).toEqual([]);
    expect(await invoiceOf(g, newer.id)).toMatchObject({ status: 'PAID', amountPaid: 5_250, amountDue: 0 });
    // Its webhook arriving late changes nothing.
    expect((await deliver(missed.captured)).body.outcome).toBe('DUPLICATE');

    // A transfer of part of the older invoice: it takes the older, the newer (paid) untouched.
    const t1 = rz.fake.transfer(vaId, 10_000_00, 'UTR0000000001');
    expect((await deliver(t1.credited)).body).toMatchObject({ outcome: 'RECORDED', invoiceId: null });
    expect(await invoiceOf(g, older.id)).toMatchObject({ status: 'ISSUED', amountDue: 500 });
    expect(await invoiceOf(g, newer.id)).toMatchObject({ status: 'PAID', amountDue: 0 });
    // A second transfer, its webhook lost: the next reconciliation reads the account's payments since its last look.
    const t2 = rz.fake.transfer(vaId, 1_000_00, 'UTR0000000002');
    const second = await admin(['payments', 'reconcile', '--group', g.agentGroupId]);
    expect(second.recorded).toEqual([{ agentGroupId: g.agentGroupId, paymentId: t2.payment.id, amount: 1_000_00 }]);
    expect(await invoiceOf(g, older.id)).toMatchObject({ status: 'PAID', amountDue: 0 });
    expect((await admin(['payments', 'list', '--group', g.agentGroupId])).unallocated).toBe(500);
    expect((await deliver(t2.credited)).body.outcome).toBe('DUPLICATE');
    expect((await ledgerPayments(g)).map((e) => e.amount).sort((a, b) => a - b)).toEqual([-10_000, -5_250, -1_000]);
  }, 400_000);

  it('answers a bad signature and malformed JSON 400 and records nothing; keeps an unknown order or another currency (200) for operators', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-02');
    const [id] = await billingRun(g);
    const invoice = await invoiceOf(g, id!);
    const good = rz.fake.pay(invoice.gatewayOrderId, Math.round(invoice.total * 100));
    const forged = await deliver(good.captured, { ...good.captured.headers, 'x-razorpay-signature': 'f'.repeat(64) });
    expect([forged.status, forged.body.param]).toEqual([400, 'X-Razorpay-Signature']);
    const unsigned = await deliver(good.captured, { 'content-type': 'application/json' });
    expect(unsigned.status).toBe(400);
    const malformed = await deliver(rz.fake.signRaw('payment.captured', '{"event":"payment.captured",'));
    expect([malformed.status, malformed.body.param]).toEqual([400, 'body']);
    const ignored = await deliver(rz.fake.sign('settlement.processed', { settlement: { entity: { id: 'setl_AbCdEf123456' } } }));
    expect([ignored.status, ignored.body.outcome]).toEqual([200, 'IGNORED']);

    const stranger = rz.fake.pay(rz.fake.foreignOrder(2_000_00).id, 2_000_00);
    const unknown = await deliver(stranger.captured);
    expect([unknown.status, unknown.body.outcome]).toEqual([200, 'UNMATCHED']);
    expect((await deliver(stranger.captured)).body).toMatchObject({ outcome: 'UNMATCHED', duplicate: true });
    // Checkout charges an order in its own currency, so only a body Razorpay would not send names our order in another: kept all the same.
    const dollars = {
      payment: { ...good.payment, id: `pay_${[...good.payment.id.slice(4)].reverse().join('')}`, amount: 50_00, currency: 'USD', international: true },
    };
    expect((await deliver(rz.fake.sign('payment.captured', { payment: { entity: dollars.payment } }))).body.outcome).toBe('UNMATCHED');
    expect(await ledgerPayments(g)).toEqual([]);
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'ISSUED', amountPaid: 0 });
    const kept = (await admin(['payments', 'unmatched'])).unmatched as { paymentId: string; reason: string }[];
    expect(kept).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ paymentId: stranger.payment.id, reason: 'UNKNOWN_ORDER' }),
        expect.objectContaining({ paymentId: dollars.payment.id, reason: 'CURRENCY' }),
      ]),
    );
    // The good payment, never delivered with a valid signature, is still there to be reconciled.
    expect((await admin(['payments', 'reconcile', '--group', g.agentGroupId])).recorded).toEqual([expect.objectContaining({ paymentId: good.payment.id })]);
  }, 300_000);

  it('keeps the invoice DRAFT while Razorpay is down, and creates its order exactly once afterwards, even when the answer of the creating call was lost', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-02');
    rz.fake.down = true;
    let id: string;
    try {
      [id] = (await billingRun(g)) as [string];
    } finally {
      rz.fake.down = false;
    }
    let stored = await rz.svc.invoices.get(g.agentGroupId, id);
    expect(stored).toMatchObject({ status: 'DRAFT', gatewayOrderId: null, invoiceNumber: null });
    expect(stored!.lastError).toMatch(/^issue: the payment gateway is unavailable: 503 SERVER_ERROR/);
    expect(rz.fake.orders.filter((o) => o.receipt === id)).toHaveLength(0);

    // Razorpay creates the order but the answer never arrives: as if the process died between its call and our write.
    rz.fake.loseNextOrderAnswer = true;
    await billingRun(g);
    stored = await rz.svc.invoices.get(g.agentGroupId, id);
    expect(stored).toMatchObject({ status: 'DRAFT', gatewayOrderId: null });
    expect(rz.fake.orders.filter((o) => o.receipt === id)).toHaveLength(1);

    await billingRun(g);
    const orders = rz.fake.orders.filter((o) => o.receipt === id);
    expect(orders).toHaveLength(1);
    expect(await invoiceOf(g, id)).toMatchObject({ status: 'ISSUED', gatewayOrderId: orders[0]!.id });
  }, 300_000);

  it('a processed refund re-opens what the payment paid (partial, then the rest found by reconciliation), once per refund id, raising exposure; refund.created while pending moves nothing', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const [id] = await partnerRun(g);
    const invoice = await invoiceOf(g, id!);
    const paid = rz.fake.pay(invoice.gatewayOrderId, 10_500_00);
    expect((await deliver(paid.captured)).body.outcome).toBe('RECORDED');
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'PAID', amountDue: 0 });
    const exposureBefore = (await call('GET', '/v1/ledger?size=1', { key: g.apiKey })).body.exposure as number;

    const part = rz.fake.refund(paid.payment.id, 4_000_00);
    expect((await deliver(part.created)).body).toMatchObject({ outcome: 'IGNORED', refundId: part.refund.id });
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'PAID', amountDue: 0 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => deliver(part.processed)));
    expect(answers.map((a) => a.body.outcome).sort()).toEqual([
      'DUPLICATE',
      'DUPLICATE',
      'DUPLICATE',
      'DUPLICATE',
      'DUPLICATE',
      'DUPLICATE',
      'DUPLICATE',
      'REFUNDED',
    ]);
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'ISSUED', amountPaid: 6_500, amountDue: 4_000 });
    const adjustments = async () =>
      (await call('GET', '/v1/ledger?type=ADJUSTMENT&size=100', { key: g.apiKey })).body.data as { amount: number; status: string; description: string }[];
    expect(await adjustments()).toEqual([
      expect.objectContaining({ amount: 4_000, status: 'POSTED', description: `Payment ${paid.payment.id} refunded (${part.refund.id})` }),
    ]);
    expect((await call('GET', '/v1/ledger?size=1', { key: g.apiKey })).body.exposure).toBe(exposureBefore + 4_000);

    // The rest refunded, both its events lost: reconciliation reads the account's refunds and posts it once.
    const rest = rz.fake.refund(paid.payment.id, 6_500_00);
    expect(rz.fake.payments.find((p) => p.id === paid.payment.id)).toMatchObject({ status: 'refunded', amount_refunded: 10_500_00, refund_status: 'full' });
    const report = await reconcile(g);
    expect(report.refunded).toEqual([{ agentGroupId: g.agentGroupId, refundId: rest.refund.id, paymentId: paid.payment.id, amount: 6_500_00 }]);
    // The order was paid: at Razorpay it stays `paid` and takes no more, so the re-opened invoice gets a fresh one for what is due.
    expect(() => rz.fake.pay(invoice.gatewayOrderId, 10_500_00)).toThrow(/is paid/);
    const fresh = rz.fake.orders.find((o) => o.receipt === `${id}/2`)!;
    expect(report.reordered).toEqual([{ agentGroupId: g.agentGroupId, invoiceId: id, orderId: fresh.id, amount: 10_500_00 }]);
    expect(await invoiceOf(g, id!)).toMatchObject({ gatewayOrderId: fresh.id });
    expect((await reconcile(g)).refunded).toEqual([]);
    expect((await deliver(rest.processed)).body).toMatchObject({ outcome: 'DUPLICATE', refundId: rest.refund.id });
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'ISSUED', amountPaid: 0, amountDue: 10_500 });
    expect((await adjustments()).map((e) => e.amount).sort((a, b) => a - b)).toEqual([4_000, 6_500]);
    expect((await call('GET', '/v1/ledger?size=1', { key: g.apiKey })).body.exposure).toBe(exposureBefore + 10_500);
    expect(await rz.svc.receivables.payments(g.agentGroupId)).toEqual([expect.objectContaining({ reference: paid.payment.id, refunded: 10_500_00 })]);
  }, 300_000);

  it('a refund announced before its payment (payment.captured lost) records the payment, then the refund: the same figures as in order', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const [id] = await partnerRun(g);
    const invoice = await invoiceOf(g, id!);
    const paid = rz.fake.pay(invoice.gatewayOrderId, 10_500_00);
    const refund = rz.fake.refund(paid.payment.id, 2_500_00);
    expect((await deliver(refund.processed)).body).toMatchObject({ outcome: 'REFUNDED', paymentId: paid.payment.id, invoiceId: id });
    expect((await deliver(paid.captured)).body.outcome).toBe('DUPLICATE');
    expect((await deliver(paid.orderPaid)).body.outcome).toBe('DUPLICATE');
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'ISSUED', amountPaid: 8_000, amountDue: 2_500 });
    expect(await ledgerPayments(g)).toEqual([expect.objectContaining({ amount: -10_500 })]);
  }, 300_000);

  it('a dispute flags the invoice for operators; lost gives the amount back once (ledger, amount due, exposure) whatever the order of events; won clears it; each state once', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const [id] = await partnerRun(g);
    const invoice = await invoiceOf(g, id!);
    const paid = rz.fake.pay(invoice.gatewayOrderId, 10_500_00);
    expect((await deliver(paid.orderPaid)).body.outcome).toBe('RECORDED');
    const exposure = async () => (await call('GET', '/v1/ledger?size=1', { key: g.apiKey })).body.exposure as number;
    const exposureBefore = await exposure();
    const mine = async () =>
      ((await admin(['payments', 'disputes'])).disputes as { disputeId: string; status: string; invoiceId: string }[]).filter((d) => d.invoiceId === id);

    const raised = rz.fake.dispute(paid.payment.id, 10_500_00);
    expect((await deliver(raised.created)).body).toMatchObject({ outcome: 'DISPUTED', disputeId: raised.dispute.id, invoiceId: id, duplicate: false });
    expect((await deliver(raised.created)).body).toMatchObject({ outcome: 'DUPLICATE', duplicate: true });
    expect(await mine()).toEqual([expect.objectContaining({ disputeId: raised.dispute.id, status: 'open', paymentId: paid.payment.id, amount: 10_500 })]);
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'PAID', amountDue: 0 });
    const review = rz.fake.moveDispute(raised.dispute.id, 'under_review');
    const lost = rz.fake.moveDispute(raised.dispute.id, 'lost');
    // Lost arrives first, several times at once; under_review and created arrive after it and change nothing.
    const answers = await Promise.all(Array.from({ length: 6 }, () => deliver(lost)));
    expect(answers.map((a) => a.body.outcome).sort(), JSON.stringify(answers.map((a) => [a.status, a.text]))).toEqual([
      'DISPUTED',
      'DUPLICATE',
      'DUPLICATE',
      'DUPLICATE',
      'DUPLICATE',
      'DUPLICATE',
    ]);
    expect((await deliver(review)).body.outcome).toBe('DUPLICATE');
    expect((await deliver(raised.created)).body.outcome).toBe('DUPLICATE');
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'ISSUED', amountPaid: 0, amountDue: 10_500 });
    const adjustments = (await call('GET', '/v1/ledger?type=ADJUSTMENT&size=100', { key: g.apiKey })).body.data as { amount: number; description: string }[];
    expect(adjustments).toEqual([
      expect.objectContaining({ amount: 10_500, description: `Payment ${paid.payment.id} charged back: dispute ${raised.dispute.id} lost` }),
    ]);
    expect(await exposure()).toBe(exposureBefore + 10_500);
    expect(await mine()).toEqual([]);

    // Paid again by transfer; a second dispute, on that payment, is won: flagged, then cleared, nothing moved.
    const vaId = rz.fake.virtualAccounts.find((v) => !Array.isArray(v.notes) && v.notes.agent_group_id === g.agentGroupId)!.id;
    const again = rz.fake.transfer(vaId, 10_500_00, 'UTR34DISP0001');
    expect((await deliver(again.credited)).body.outcome).toBe('RECORDED');
    const second = rz.fake.dispute(again.payment.id, 5_000_00, 'retrieval');
    expect((await deliver(second.created)).body.outcome).toBe('DISPUTED');
    expect((await admin(['payments', 'disputes'])).disputes).toContainEqual(
      expect.objectContaining({ disputeId: second.dispute.id, status: 'open', phase: 'retrieval', agentGroupId: g.agentGroupId }),
    );
    expect((await deliver(rz.fake.moveDispute(second.dispute.id, 'won'))).body.outcome).toBe('DISPUTED');
    expect((await admin(['payments', 'disputes'])).disputes.map((d: { disputeId: string }) => d.disputeId)).not.toContain(second.dispute.id);
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'PAID', amountDue: 0 });
    expect(await exposure()).toBe(exposureBefore);
    expect((await rz.svc.receivables.disputes(g.agentGroupId)).map((d) => [d.disputeId, d.status]).sort()).toEqual(
      [
        [raised.dispute.id, 'lost'],
        [second.dispute.id, 'won'],
      ].sort(),
    );
  }, 300_000);

  it('a lost dispute whose payment was never announced records the payment, then gives it back: the same figures', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const [id] = await partnerRun(g);
    const invoice = await invoiceOf(g, id!);
    const paid = rz.fake.pay(invoice.gatewayOrderId, 10_500_00);
    const raised = rz.fake.dispute(paid.payment.id, 3_000_00);
    expect((await deliver(rz.fake.moveDispute(raised.dispute.id, 'lost'))).body).toMatchObject({ outcome: 'DISPUTED', invoiceId: id });
    expect((await deliver(paid.captured)).body.outcome).toBe('DUPLICATE');
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'ISSUED', amountPaid: 7_500, amountDue: 3_000 });
    expect(await ledgerPayments(g)).toEqual([expect.objectContaining({ amount: -10_500 })]);
  }, 300_000);

  it("an authorized payment of an open order is captured by reconciliation (the SDK's payments.capture) and recorded once; a capture that fails is alerted, naming payment and invoice, and retried", async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const [firstId] = await partnerRun(g);
    await bookStay(g, world.registered, '2027-03-06', '2027-03-07');
    const [secondId] = await billingRun(g);
    const first = await invoiceOf(g, firstId!);
    const second = await invoiceOf(g, secondId!);
    const a = rz.fake.authorize(first.gatewayOrderId, 10_500_00);
    expect((await deliver(a.authorized)).body.outcome).toBe('IGNORED');
    const b = rz.fake.authorize(second.gatewayOrderId, 5_250_00);
    rz.fake.failNextCapture = true;
    const report = await reconcile(g);
    expect([...report.captured, ...report.uncaptured].map((c) => c.paymentId).sort()).toEqual([a.payment.id, b.payment.id].sort());
    expect(report.uncaptured).toHaveLength(1);
    const [refused] = report.uncaptured;
    const invoiceOfRefused = refused!.paymentId === a.payment.id ? first.id : second.id;
    expect(refused).toMatchObject({ agentGroupId: g.agentGroupId, invoiceId: invoiceOfRefused });
    expect(report.failures).toEqual([
      { agentGroupId: g.agentGroupId, error: expect.stringContaining(`authorized payment ${refused!.paymentId} of invoice ${invoiceOfRefused} not captured`) },
    ]);
    // The next run captures it; every payment is recorded once, whatever Razorpay's own events of the captures do.
    const again = await reconcile(g);
    expect(again.captured).toEqual([expect.objectContaining({ paymentId: refused!.paymentId, invoiceId: invoiceOfRefused })]);
    expect(again.failures).toEqual([]);
    expect(rz.fake.requests.filter((r) => r === `POST /v1/payments/${a.payment.id}/capture` || r === `POST /v1/payments/${b.payment.id}/capture`).length).toBe(
      3,
    );
    for (const w of rz.fake.sent.filter((w) => w.body.includes(a.payment.id) || w.body.includes(b.payment.id)))
      expect((await deliver(w)).body.outcome).toBe('DUPLICATE');
    expect(await invoiceOf(g, first.id)).toMatchObject({ status: 'PAID', amountDue: 0 });
    expect(await invoiceOf(g, second.id)).toMatchObject({ status: 'PAID', amountDue: 0 });
    expect((await ledgerPayments(g)).map((e) => e.amount).sort((x, y) => x - y)).toEqual([-10_500, -5_250]);
    expect((await reconcile(g)).captured).toEqual([]);
  }, 300_000);

  it('a transfer is one payment however it is recorded: `payments record` refuses a UTR Smart Collect recorded and any Razorpay payment id; a UTR typed in first is not counted again by the notice, reconciliation or a race', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const [id] = await partnerRun(g);
    const vaId = rz.fake.virtualAccounts.find((v) => !Array.isArray(v.notes) && v.notes.agent_group_id === g.agentGroupId)!.id;
    const record = (amount: string, reference: string) =>
      runAdminTool(['payments', 'record', '--group', g.agentGroupId, '--amount', amount, '--reference', reference, '--json'], rz.env);

    const viaGateway = rz.fake.transfer(vaId, 4_000_00, 'UTR34GATE0001');
    expect((await deliver(viaGateway.credited)).body.outcome).toBe('RECORDED');
    const sameUtr = await record('4000', 'utr34gate0001');
    expect(sameUtr.code).not.toBe(0);
    expect(sameUtr.stderr).toContain(viaGateway.payment.id);
    const samePayment = await record('4000', viaGateway.payment.id);
    expect(samePayment.code).not.toBe(0);
    expect(samePayment.stderr).toContain('already recorded through the gateway');
    const unknownPayment = await record('1000', 'pay_NotRecorded0034');
    expect(unknownPayment.code).not.toBe(0);
    expect(unknownPayment.stderr).toContain('payments reconcile');

    // Typed in first: the gateway's notice is a duplicate, and reconciliation (which asks Razorpay for the UTR) records nothing.
    expect((await admin(['payments', 'record', '--group', g.agentGroupId, '--amount', '2500', '--reference', 'UTR34HAND0002'])).duplicate).toBe(false);
    const byHand = rz.fake.transfer(vaId, 2_500_00, 'UTR34HAND0002');
    expect((await reconcile(g)).recorded).toEqual([]);
    expect(rz.fake.requests).toContain(`GET /v1/payments/${byHand.payment.id}/bank_transfer`);
    expect((await deliver(byHand.credited)).body).toMatchObject({ outcome: 'DUPLICATE', duplicate: true });
    expect((await deliver(byHand.captured)).body.outcome).toBe('IGNORED');

    // Both at once: one of them counts it.
    const raced = rz.fake.transfer(vaId, 1_000_00, 'UTR34RACE0003');
    const [notice, typed] = await Promise.all([deliver(raced.credited), record('1000', 'UTR34RACE0003')]);
    expect([notice.body.outcome === 'RECORDED', typed.code === 0 && JSON.parse(typed.stdout).duplicate === false].filter(Boolean)).toHaveLength(1);
    expect((await ledgerPayments(g)).map((e) => e.amount).sort((a, b) => a - b)).toEqual([-4_000, -2_500, -1_000]);
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'ISSUED', amountPaid: 7_500, amountDue: 3_000 });
  }, 300_000);

  it("a bank transfer's twins (payment.captured without an order, virtual_account.credited) record one payment whichever comes first, and none is kept as unmatched", async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const [id] = await partnerRun(g);
    const vaId = rz.fake.virtualAccounts.find((v) => !Array.isArray(v.notes) && v.notes.agent_group_id === g.agentGroupId)!.id;
    const first = rz.fake.transfer(vaId, 4_000_00, 'UTR0000000034A');
    expect(first.payment).toMatchObject({ method: 'bank_transfer', order_id: null });
    const raced = await Promise.all([deliver(first.captured), deliver(first.credited), deliver(first.captured), deliver(first.credited)]);
    expect(raced.map((a) => a.body.outcome).sort()).toEqual(['DUPLICATE', 'IGNORED', 'IGNORED', 'RECORDED']);
    const second = rz.fake.transfer(vaId, 6_500_00, 'UTR0000000034B');
    expect((await deliver(second.captured)).body.outcome).toBe('IGNORED');
    expect((await deliver(second.credited)).body.outcome).toBe('RECORDED');
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'PAID', amountDue: 0 });
    expect((await ledgerPayments(g)).map((e) => e.amount).sort((a, b) => a - b)).toEqual([-6_500, -4_000]);
    const kept = await rz.svc.receivables.unmatchedPayments();
    expect(kept.map((u) => u.paymentId)).not.toEqual(expect.arrayContaining([first.payment.id]));
    expect(kept.map((u) => u.paymentId)).not.toEqual(expect.arrayContaining([second.payment.id]));
  }, 300_000);

  it('an order collects only what is owed: Razorpay refuses a short payment; after part is paid by transfer the invoice offers no order until reconciliation makes one for the rest; a payment on the replaced order lands on the invoice, its surplus as credit; a settled invoice offers none', async () => {
    const { g, id, invoice } = await issuedInvoice();
    const firstOrder = invoice.gatewayOrderId as string;
    expect(() => rz.fake.pay(firstOrder, 4_000_00)).toThrow(/does not allow partial payments/);
    expect(rz.fake.orders.find((o) => o.id === firstOrder)).toMatchObject({ amount: 10_500_00, amount_paid: 0, status: 'created' });

    const vaId = rz.fake.virtualAccounts.find((v) => !Array.isArray(v.notes) && v.notes.agent_group_id === g.agentGroupId)!.id;
    expect((await deliver(rz.fake.transfer(vaId, 4_000_00, 'UTR34ORDR0001').credited)).body.outcome).toBe('RECORDED');
    // The order is for 10,500 and 6,500 is owed: none is offered (the transfer account still is).
    const partPaid = await invoiceOf(g, id!);
    expect(partPaid).toMatchObject({ status: 'ISSUED', amountDue: 6_500, gatewayOrderId: null, paymentInstructions: { gatewayOrderId: null } });
    expect(partPaid.paymentInstructions.bankTransfer).not.toBeNull();

    const report = await reconcile(g);
    const fresh = rz.fake.orders.filter((o) => o.receipt === `${id}/2`);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ amount: 6_500_00, currency: 'INR', notes: { invoice_id: id, agent_group_id: g.agentGroupId, replaces: firstOrder } });
    expect(report.reordered).toEqual([{ agentGroupId: g.agentGroupId, invoiceId: id, orderId: fresh[0]!.id, amount: 6_500_00 }]);
    expect(await invoiceOf(g, id!)).toMatchObject({ amountDue: 6_500, gatewayOrderId: fresh[0]!.id, paymentInstructions: { gatewayOrderId: fresh[0]!.id } });
    const again = await reconcile(g);
    expect([again.reordered, again.failures]).toEqual([[], []]);
    expect(again.ordersChecked).toBe(2);
    expect(() => rz.fake.pay(fresh[0]!.id, 10_500_00)).toThrow(/does not allow partial payments/);

    // An authorization on the replaced order (a late authorization, or manual capture) is for more than is owed: not captured, alerted.
    const late = rz.fake.authorize(firstOrder, 10_500_00);
    const alerted = await reconcile(g);
    expect(alerted.captured).toEqual([]);
    expect(alerted.uncaptured).toEqual([
      expect.objectContaining({ paymentId: late.payment.id, invoiceId: id, amount: 10_500_00, error: expect.stringContaining('more than the 650000 paise') }),
    ]);
    expect(alerted.failures).toEqual([
      { agentGroupId: g.agentGroupId, error: expect.stringContaining(`authorized payment ${late.payment.id} of invoice ${id} not captured`) },
    ]);
    expect(rz.fake.requests).not.toContain(`POST /v1/payments/${late.payment.id}/capture`);
    expect(rz.fake.payments.find((p) => p.id === late.payment.id)).toMatchObject({ status: 'authorized', captured: false });
    expect(await invoiceOf(g, id!)).toMatchObject({ amountDue: 6_500, gatewayOrderId: fresh[0]!.id });

    // Razorpay cannot cancel the replaced order: paid in full from an old checkout, it is this invoice's payment, the surplus the group's credit.
    const stale = rz.fake.pay(firstOrder, 10_500_00);
    expect((await deliver(stale.captured)).body).toMatchObject({ outcome: 'RECORDED', invoiceId: id });
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'PAID', amountDue: 0, gatewayOrderId: null, paymentInstructions: { gatewayOrderId: null } });
    expect((await admin(['payments', 'list', '--group', g.agentGroupId])).unallocated).toBe(4_000);
    expect((await reconcile(g)).reordered).toEqual([]);
    expect(rz.fake.orders.filter((o) => o.receipt?.startsWith(id!))).toHaveLength(2);
    // Its payment.authorized, arriving now the invoice is settled, is said (AuthorizedPaymentNotOwed) and moves nothing.
    expect((await deliver(late.authorized)).body).toMatchObject({ outcome: 'IGNORED', paymentId: late.payment.id });
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'PAID', amountDue: 0 });
    expect((await admin(['payments', 'list', '--group', g.agentGroupId])).unallocated).toBe(4_000);
  }, 300_000);

  it('disputes whose webhooks were lost are found by reconciliation (GET /v1/disputes): one raised and lost unannounced gives its amount back once, one held open is cleared as won', async () => {
    const { g, id, invoice } = await issuedInvoice();
    const paid = rz.fake.pay(invoice.gatewayOrderId, 10_500_00);
    expect((await deliver(paid.captured)).body.outcome).toBe('RECORDED');
    const silent = rz.fake.dispute(paid.payment.id, 4_000_00);
    const silentLost = rz.fake.moveDispute(silent.dispute.id, 'lost');
    const held = rz.fake.dispute(paid.payment.id, 2_000_00, 'retrieval');
    expect((await deliver(held.created)).body.outcome).toBe('DISPUTED');
    const heldWon = rz.fake.moveDispute(held.dispute.id, 'won');

    const report = await reconcile(g);
    expect(report.failures).toEqual([]);
    expect([...report.disputed].sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { agentGroupId: g.agentGroupId, disputeId: silent.dispute.id, paymentId: paid.payment.id, status: 'lost' },
      { agentGroupId: g.agentGroupId, disputeId: held.dispute.id, paymentId: paid.payment.id, status: 'won' },
    ]);
    expect(rz.fake.requests).toContain('GET /v1/disputes');
    expect(await invoiceOf(g, id!)).toMatchObject({ status: 'ISSUED', amountPaid: 6_500, amountDue: 4_000 });
    const adjustments = (await call('GET', '/v1/ledger?type=ADJUSTMENT&size=100', { key: g.apiKey })).body.data as { amount: number; description: string }[];
    expect(adjustments).toEqual([
      expect.objectContaining({ amount: 4_000, description: `Payment ${paid.payment.id} charged back: dispute ${silent.dispute.id} lost` }),
    ]);
    // The paid order takes no more: the re-opened invoice gets a fresh one for the 4,000 due.
    expect(report.reordered).toEqual([expect.objectContaining({ invoiceId: id, amount: 4_000_00 })]);
    const again = await reconcile(g);
    expect([again.disputed, again.reordered]).toEqual([[], []]);
    expect((await deliver(silentLost)).body.outcome).toBe('DUPLICATE');
    expect((await deliver(heldWon)).body.outcome).toBe('DUPLICATE');
    expect((await rz.svc.receivables.disputes(g.agentGroupId)).map((d) => [d.disputeId, d.status]).sort()).toEqual(
      [
        [silent.dispute.id, 'lost'],
        [held.dispute.id, 'won'],
      ].sort(),
    );
    expect(await invoiceOf(g, id!)).toMatchObject({ amountDue: 4_000 });
  }, 300_000);
  it("an authorized payment on a settled invoice's order whose payment.authorized was lost is seen by reconciliation (GET /v1/payments): alerted as not owed, not captured, nothing moves", async () => {
    const { g, id, invoice } = await issuedInvoice();
    const vaId = rz.fake.virtualAccounts.find((v) => !Array.isArray(v.notes) && v.notes.agent_group_id === g.agentGroupId)!.id;
    expect((await deliver(rz.fake.transfer(vaId, 10_500_00, 'UTR34SETL0001').credited)).body.outcome).toBe('RECORDED');
    expect(await invoiceOf(g, id)).toMatchObject({ status: 'PAID', amountDue: 0, gatewayOrderId: null });
    // An old checkout page still takes the order (Razorpay cannot cancel it); the authorization's webhook never arrives.
    const late = rz.fake.authorize(invoice.gatewayOrderId, 10_500_00);
    const report = await reconcile(g);
    expect(rz.fake.requests).toContain('GET /v1/payments');
    expect(report.captured).toEqual([]);
    expect(report.uncaptured).toEqual([
      { agentGroupId: g.agentGroupId, paymentId: late.payment.id, invoiceId: id, amount: 10_500_00, error: expect.stringContaining('more than the 0 paise') },
    ]);
    expect(report.failures).toEqual([
      { agentGroupId: g.agentGroupId, error: expect.stringContaining(`authorized payment ${late.payment.id} of invoice ${id} not captured`) },
    ]);
    expect(rz.fake.requests).not.toContain(`POST /v1/payments/${late.payment.id}/capture`);
    expect(rz.fake.payments.find((p) => p.id === late.payment.id)).toMatchObject({ status: 'authorized', captured: false });
    expect(await invoiceOf(g, id)).toMatchObject({ status: 'PAID', amountDue: 0 });
    expect((await admin(['payments', 'list', '--group', g.agentGroupId])).unallocated).toBe(0);
    expect((await ledgerPayments(g)).map((e) => e.amount)).toEqual([-10_500]);
  }, 300_000);

  // Last in the file: it moves the account's dispute look past its dispute (a look never goes back), as a full hourly run would have.
  it('a dispute held open is fetched by id (GET /v1/disputes/:id) once the listing no longer reaches it: still open, or under review unannounced, the invoice stays flagged and nothing is given back', async () => {
    const { g, id, invoice } = await issuedInvoice();
    const paid = rz.fake.pay(invoice.gatewayOrderId, 10_500_00);
    expect((await deliver(paid.captured)).body.outcome).toBe('RECORDED');
    const held = rz.fake.dispute(paid.payment.id, 6_000_00);
    expect((await deliver(held.created)).body).toMatchObject({ outcome: 'DISPUTED', invoiceId: id });
    await rz.svc.receivables.markDisputeLook(new Date((held.dispute.created_at + 3_600 + 60) * 1000).toISOString());
    const flagged = async () =>
      ((await admin(['payments', 'disputes'])).disputes as { disputeId: string; status: string; invoiceId: string }[]).filter(
        (d) => d.disputeId === held.dispute.id,
      );
    const unmoved = async () => {
      expect(await invoiceOf(g, id)).toMatchObject({ status: 'PAID', amountPaid: 10_500, amountDue: 0 });
      expect((await call('GET', '/v1/ledger?type=ADJUSTMENT&size=100', { key: g.apiKey })).body.data).toEqual([]);
    };
    const byId = () => rz.fake.requests.filter((r) => r === `GET /v1/disputes/${held.dispute.id}`).length;

    const open = await reconcile(g);
    expect([open.disputed, open.failures, byId()]).toEqual([[], [], 1]);
    expect(await flagged()).toEqual([expect.objectContaining({ status: 'open', invoiceId: id })]);
    await unmoved();

    const review = rz.fake.moveDispute(held.dispute.id, 'under_review');
    const reviewed = await reconcile(g);
    expect(reviewed.disputed).toEqual([{ agentGroupId: g.agentGroupId, disputeId: held.dispute.id, paymentId: paid.payment.id, status: 'under_review' }]);
    expect([reviewed.failures, byId()]).toEqual([[], 2]);
    expect(await flagged()).toEqual([expect.objectContaining({ status: 'under_review', invoiceId: id })]);
    await unmoved();
    expect((await deliver(review)).body.outcome).toBe('DUPLICATE');
  }, 300_000);
});

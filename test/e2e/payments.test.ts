import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { SandboxPaymentGateway } from '../../infra/payments/sandbox-payment-gateway.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { expectContract } from '../support/contract.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { call, newAgentGroup, stack, testServices, type GroupFixture } from '../support/stack.ts';
import { freePort } from '../../scripts/local-stack.ts';

const today = () => indiaToday(new Date());
const period = () => ({ from: addDays(today(), -30), to: today() });
const gateway = () => new SandboxPaymentGateway(testServices().config.payments.webhookSecrets);
const notify = (body: string, signature?: string) =>
  call('POST', '/gateway/notifications', {
    rawBody: body,
    headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'x-razorpay-signature': signature }) },
  });
const sigOf = (n: { headers: Readonly<Record<string, string>> }) => n.headers['x-razorpay-signature']!;

async function billNow(g: GroupFixture): Promise<string> {
  const res = await call<{ invoiceIds: string[] }>('POST', '/v1/invoices', { key: g.apiKey, body: period() });
  expect(res.status).toBe(200);
  expect(res.body.invoiceIds).toHaveLength(1);
  return res.body.invoiceIds[0]!;
}
const invoiceOf = async (g: GroupFixture, id: string) => (await call('GET', `/v1/invoices/${id}`, { key: g.apiKey })).body.invoice;
const payments = async (g: GroupFixture) => (await call('GET', '/v1/ledger?type=PAYMENT&size=100', { key: g.apiKey })).body;

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

describe('POST /gateway/notifications', () => {
  let g: GroupFixture;
  let older: { id: string; gatewayOrderId: string; total: number };
  let newer: { id: string; gatewayOrderId: string; total: number };
  let olderBooking: string;
  let newerBooking: string;
  const bookingRow = async (bookingId: string) => (await call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey })).body;
  beforeAll(async () => {
    g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 30 });
    olderBooking = await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    older = await invoiceOf(g, await billNow(g));
    newerBooking = await bookStay(g, world.registered, '2027-03-06', '2027-03-07');
    newer = await invoiceOf(g, await billNow(g));
    expect([older.total, newer.total]).toEqual([10_500, 5_250]);
  }, 180_000);

  it('refuses a missing or wrong signature with 400 naming the header, a signed body that is not an event with 400 naming the field, and keeps an unknown order for operators', async () => {
    const n = gateway().capture(newer.gatewayOrderId, 100_00, new Date());
    const unsigned = await notify(n.body);
    expect([unsigned.status, unsigned.body.param]).toEqual([400, 'X-Razorpay-Signature']);
    const forged = await notify(n.body.replace('10000', '99999'), sigOf(n));
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'X-Razorpay-Signature' });
    expect((await notify(n.body, sigOf(new SandboxPaymentGateway(['whsec-not-ours-1']).capture(newer.gatewayOrderId, 100_00, new Date())))).status).toBe(400);

    const signed = (body: unknown) => {
      const raw = JSON.stringify(body);
      return notify(raw, signatureOf(raw));
    };
    const base = JSON.parse(n.body);
    const entity = base.payload.payment.entity;
    for (const [body, param] of [
      [{ ...base, payload: { payment: { entity: { ...entity, amount: 0 } } } }, 'payload.payment.entity.amount'],
      [{ ...base, payload: { payment: { entity: { ...entity, amount: 10.5 } } } }, 'payload.payment.entity.amount'],
      [{ ...base, payload: { payment: { entity: { ...entity, id: undefined } } } }, 'payload.payment.entity.id'],
      [{ ...base, payload: { payment: { entity: { ...entity, created_at: 'yesterday' } } } }, 'payload.payment.entity.created_at'],
    ] as const) {
      const res = await signed(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.param).toBe(param);
    }
    const notJson = await notify('{"event":', signatureOf('{"event":'));
    expect([notJson.status, notJson.body.param]).toEqual([400, 'body']);
    const ignored = await signed({ ...base, event: 'payment.failed' });
    expect([ignored.status, ignored.body.outcome]).toEqual([200, 'IGNORED']);
    const unknownOrder = gateway().capture('order_NotOurs0000001', 100_00, new Date());
    const kept = await notify(unknownOrder.body, sigOf(unknownOrder));
    expect([kept.status, kept.body.outcome]).toEqual([200, 'UNMATCHED']);
    // Nothing of any refused or kept notification reached the ledger.
    expect((await payments(g)).data).toEqual([]);
  });

  it('records a payment once under 20 racing duplicates: one negative POSTED PAYMENT entry, allocated to the paid order first, one audit event by the gateway', async () => {
    const since = new Date().toISOString();
    const before = (await call('GET', '/v1/ledger?size=1', { key: g.apiKey })).body;
    const n = gateway().capture(newer.gatewayOrderId, 1_000_00, new Date());
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(n.body, sigOf(n))));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
    expectContract(answers.find((a) => a.body.duplicate === false)!, 'receiveGatewayNotification');
    expect(new Set(answers.map((a) => a.body.invoiceId))).toEqual(new Set([newer.id]));

    const after = await payments(g);
    expect(after.data).toHaveLength(1);
    expect(after.data[0]).toMatchObject({ type: 'PAYMENT', status: 'POSTED', amount: -1_000, bookingId: null });
    expect(after.availableCredit).toBe(before.availableCredit + 1_000);
    expect(after.exposure).toBe(before.exposure - 1_000);

    // The newer invoice was paid (its order), not the older one, although the older is due first.
    expect(await invoiceOf(g, newer.id)).toMatchObject({ status: 'ISSUED', amountPaid: 1_000, creditedAmount: 0, amountDue: 4_250, overdueSince: null });
    expect(await invoiceOf(g, older.id)).toMatchObject({ status: 'ISSUED', amountPaid: 0, amountDue: 10_500 });
    const list = (await call('GET', '/v1/invoices', { key: g.apiKey })).body;
    expect(list).toMatchObject({ outstanding: 14_750, outstandingInvoiceCount: 2, oldestDueDate: addDays(today(), 30) });
    // Booking rows follow the allocation to their invoice lines.
    expect(await bookingRow(newerBooking)).toMatchObject({ totalAmount: 5_250, paidAmount: 1_000, outstandingAmount: 4_250 });
    expect(await bookingRow(olderBooking)).toMatchObject({ totalAmount: 10_500, paidAmount: 0, outstandingAmount: 10_500 });

    // The same payment announced again later is still one payment.
    const again = await notify(n.body, sigOf(n));
    expect([again.status, again.body.duplicate]).toEqual([200, true]);
    expect((await payments(g)).data).toHaveLength(1);

    // One audit event, by the gateway, on the payment's own chain: none for the 20 duplicates.
    const paymentId: string = JSON.parse(n.body).payload.payment.entity.id;
    const trail = (await call('GET', `/v1/audit-events?size=100&from=${encodeURIComponent(since)}`, { key: g.apiKey })).body.data.filter(
      (e: { action: string }) => e.action === 'payment.recorded',
    );
    expect(trail).toEqual([
      expect.objectContaining({
        actor: 'payment-gateway',
        actorKind: 'system',
        target: `payment:${after.data[0].id}`,
        requestId: paymentId,
        after: expect.objectContaining({ source: 'GATEWAY', reference: paymentId }),
      }),
    ]);
  }, 120_000);

  it('allocates a bank transfer recorded with the admin tool oldest due first, marks paid invoices PAID and keeps the over-payment for the next invoice', async () => {
    const reference = `UTR${Date.now()}`;
    // 10,500 (older) + 4,250 (rest of newer) + 500 ahead.
    const recorded = await runAdminTool(['payments', 'record', '--group', g.agentGroupId, '--amount', '15250', '--reference', reference, '--json']);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(JSON.parse(recorded.stdout)).toMatchObject({ duplicate: false, unallocated: 500, payment: { source: 'BANK_TRANSFER', reference, amount: 15_250 } });
    const twice = await runAdminTool(['payments', 'record', '--group', g.agentGroupId, '--amount', '15250', '--reference', reference, '--json']);
    expect(JSON.parse(twice.stdout)).toMatchObject({ duplicate: true, unallocated: 500 });

    expect(await invoiceOf(g, older.id)).toMatchObject({ status: 'PAID', amountPaid: 10_500, amountDue: 0, overdueSince: null });
    expect(await invoiceOf(g, newer.id)).toMatchObject({ status: 'PAID', amountPaid: 5_250, amountDue: 0 });
    const ledger = await payments(g);
    expect(ledger.data.map((e: { amount: number }) => e.amount).sort()).toEqual([-1_000, -15_250].sort());

    const list = (await call('GET', '/v1/invoices', { key: g.apiKey })).body;
    expect(list).toMatchObject({ outstanding: 0, outstandingInvoiceCount: 0, oldestDueDate: null });
    const rows = (await call('GET', `/v1/bookings?bookingIds=${olderBooking},${newerBooking}`, { key: g.apiKey })).body.data;
    expect(rows.map((r: { paidAmount: number; outstandingAmount: number }) => [r.paidAmount, r.outstandingAmount]).sort()).toEqual(
      [
        [10_500, 0],
        [5_250, 0],
      ].sort(),
    );
    expect((await call('GET', '/v1/invoices?status=PAID', { key: g.apiKey })).body.data.map((i: { id: string }) => i.id).sort()).toEqual(
      [older.id, newer.id].sort(),
    );
    expect((await call('GET', '/v1/invoices?status=ISSUED', { key: g.apiKey })).body.data).toEqual([]);

    // The next invoice starts with the 500 paid ahead.
    await bookStay(g, world.registered, '2027-03-01', '2027-03-02');
    // A third run within the minute would meet the partner throttle; the operator's run is the same engine without it.
    const run = await runAdminTool(['billing', 'run', '--group', g.agentGroupId, '--from', period().from, '--to', period().to, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const next = JSON.parse(run.stdout).invoiceIds[0] as string;
    expect(await invoiceOf(g, next)).toMatchObject({ status: 'ISSUED', total: 5_250, amountPaid: 500, amountDue: 4_750 });

    // A service that is not there is named as unreachable, not as a storage fault, and nothing moves.
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const missed = await runAdminTool(['gateway', 'pay', next, '--group', g.agentGroupId, '--url', nowhere, '--json']);
    expect(missed.code).toBe(1);
    expect(JSON.parse(missed.stderr).error).toMatchObject({
      code: 'UNREACHABLE',
      kind: 'network',
      retryable: true,
      message: expect.stringContaining(`did not answer at ${nowhere}`),
    });
    expect(await invoiceOf(g, next)).toMatchObject({ status: 'ISSUED', amountDue: 4_750 });

    // And paying the rest through the sandbox gateway from the admin tool settles it; without --url it finds the stack by SERVICE_URL, as npm start writes it.
    const paid = await runAdminTool(['gateway', 'pay', next, '--group', g.agentGroupId, '--json'], { SERVICE_URL: stack().baseUrl });
    expect(paid.code, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({
      status: 200,
      answer: { invoiceId: next, duplicate: false },
      notification: { payload: { payment: { entity: { amount: 4_750_00 } } } },
    });
    expect(await invoiceOf(g, next)).toMatchObject({ status: 'PAID', amountPaid: 5_250, amountDue: 0 });
    const admin = JSON.parse((await runAdminTool(['payments', 'list', '--group', g.agentGroupId, '--json'])).stdout);
    expect(admin.payments).toHaveLength(3);
    expect(admin.unallocated).toBe(0);
  }, 240_000);

  it('refuses a bank transfer that is not positive or has no usable reference, naming the flag', async () => {
    const zero = await runAdminTool(['payments', 'record', '--group', g.agentGroupId, '--amount', '0', '--reference', 'UTR12345', '--json']);
    expect(zero.code).not.toBe(0);
    expect(zero.stderr).toMatch(/amount/);
    const bad = await runAdminTool(['payments', 'record', '--group', g.agentGroupId, '--amount', '10', '--reference', 'a b', '--json']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/reference/);
  }, 60_000);
});

/** The gateway's scheme, written out independently of the adapter: hex HMAC-SHA256 of the raw body under the webhook secret. */
function signatureOf(raw: string): string {
  return createHmac('sha256', testServices().config.payments.webhookSecrets[0]!).update(raw).digest('hex');
}

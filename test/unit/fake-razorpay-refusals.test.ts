import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RazorpayPaymentGateway } from '../../infra/payments/razorpay-payment-gateway.ts';
import { FakeRazorpay } from '../support/fake-razorpay.ts';

/**
 * What the fake Razorpay refuses, as Razorpay documents it (docs/conformance/razorpay.md names each rule and its page): the
 * refunds, disputes and captures a test could otherwise make up. API refusals go through the official SDK over loopback HTTP.
 */
describe('the fake Razorpay refuses what Razorpay refuses', () => {
  let fake: FakeRazorpay;
  let gateway: RazorpayPaymentGateway;
  const order = async (receipt: string, amount: number) =>
    (await gateway.createOrder({ receipt, amount, currency: 'INR', description: 'Invoice', notes: {} })).orderId;

  beforeAll(async () => {
    fake = await new FakeRazorpay('whsec-refusals').start();
    gateway = new RazorpayPaymentGateway(
      {
        keyId: fake.keyId,
        keySecret: fake.keySecret,
        apiUrl: fake.url,
        webhookSecrets: ['whsec-refusals'],
        timeoutMs: 5_000,
      },
      () => import('razorpay'),
    );
  });
  afterAll(() => fake.stop());

  it('refunds only captured payments, their total never above the amount captured', async () => {
    const authorized = fake.authorize(await order('refusals-1', 5_000_00), 5_000_00).payment;
    expect(() => fake.refund(authorized.id, 1_00)).toThrow(/only on captured payments/);
    const paid = fake.pay(await order('refusals-2', 5_000_00), 5_000_00).payment;
    fake.refund(paid.id, 3_000_00);
    expect(() => fake.refund(paid.id, 2_000_01)).toThrow(/may not exceed the amount captured/);
    expect(fake.refund(paid.id, 2_000_00).refund).toMatchObject({ status: 'processed', amount: 2_000_00 });
    expect(fake.payments.find((p) => p.id === paid.id)).toMatchObject({ status: 'refunded', refund_status: 'full', amount_refunded: 5_000_00 });
  });

  it('raises disputes only against captured payments, for at most their amount; a decided dispute moves no more', async () => {
    const authorized = fake.authorize(await order('refusals-3', 5_000_00), 5_000_00).payment;
    expect(() => fake.dispute(authorized.id, 1_00)).toThrow(/against captured payments/);
    const paid = fake.pay(await order('refusals-4', 5_000_00), 5_000_00).payment;
    expect(() => fake.dispute(paid.id, 5_000_01)).toThrow(/at most the payment's amount/);
    const raised = fake.dispute(paid.id, 5_000_00).dispute;
    expect(raised).toMatchObject({ status: 'open', amount_deducted: 0 });
    fake.moveDispute(raised.id, 'under_review');
    expect(raised.amount_deducted).toBe(0);
    fake.moveDispute(raised.id, 'lost');
    expect(raised).toMatchObject({ status: 'lost', amount_deducted: 5_000_00 });
    expect(() => fake.moveDispute(raised.id, 'won')).toThrow(/decided/);
  });

  it('captures only an authorized payment, for exactly the amount authorized in its currency (400 otherwise), and then sends payment.captured and order.paid', async () => {
    const orderId = await order('refusals-5', 5_000_00);
    const authorized = fake.authorize(orderId, 5_000_00).payment;
    await expect(gateway.capturePayment(authorized.id, 4_000_00, 'INR')).rejects.toMatchObject({ name: 'GatewayRejectedError', httpStatus: 400 });
    await expect(gateway.capturePayment(authorized.id, 5_000_00, 'USD')).rejects.toMatchObject({ name: 'GatewayRejectedError', httpStatus: 400 });
    expect(fake.sent).toEqual([]);
    expect(await gateway.capturePayment(authorized.id, 5_000_00, 'INR')).toMatchObject({ paymentId: authorized.id, status: 'captured' });
    expect(fake.sent.map((w) => w.event)).toEqual(['payment.captured', 'order.paid']);
    await expect(gateway.capturePayment(authorized.id, 5_000_00, 'INR')).rejects.toMatchObject({ name: 'GatewayRejectedError', httpStatus: 400 });
    expect(fake.orders.find((o) => o.id === orderId)).toMatchObject({ status: 'paid', amount_due: 0 });
  });

  it('lists the account’s payments since a time, newest first (GET /v1/payments)', async () => {
    const since = new Date();
    const first = fake.authorize(await order('refusals-6', 1_000_00), 1_000_00).payment;
    const second = fake.pay(await order('refusals-7', 2_000_00), 2_000_00).payment;
    const listed = await gateway.paymentsSince(new Date(first.created_at * 1000));
    expect(listed.map((p) => [p.paymentId, p.status])).toEqual([
      [second.id, 'captured'],
      [first.id, 'authorized'],
    ]);
    expect((await gateway.paymentsSince(since)).length).toBeGreaterThanOrEqual(2);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RazorpayPaymentGateway } from '../../infra/payments/razorpay-payment-gateway.ts';
import { FakeRazorpay } from '../support/fake-razorpay.ts';

/**
 * The adapter's reads of the account's disputes, through the official SDK against the fake over loopback HTTP:
 * Fetch All Disputes pages newest first by `count`/`skip` only (razorpay-node lib/resources/disputes.js), so the
 * adapter stops at the first page that reaches a dispute older than asked; Fetch a Dispute answers one as it stands now.
 */
describe('Razorpay disputes through the SDK', () => {
  let fake: FakeRazorpay;
  const gateway = () =>
    new RazorpayPaymentGateway(
      { keyId: fake.keyId, keySecret: fake.keySecret, apiUrl: fake.url, webhookSecrets: ['whsec'], timeoutMs: 5_000 },
      () => import('razorpay'),
    );

  beforeAll(async () => {
    fake = await new FakeRazorpay('whsec').start();
  });
  afterAll(() => fake.stop());

  it('lists the disputes created since a time, newest first, and fetches one by id as it stands now', async () => {
    const order = await gateway().createOrder({ receipt: 'inv_disputes_1', amount: 10_500_00, currency: 'INR', description: 'Invoice', notes: {} });
    const paid = fake.pay(order.orderId, 10_500_00);
    const older = fake.dispute(paid.payment.id, 1_000_00).dispute;
    const middle = fake.dispute(paid.payment.id, 2_000_00).dispute;
    const newest = fake.dispute(paid.payment.id, 3_000_00, 'retrieval').dispute;

    expect((await gateway().disputesSince(new Date(0))).map((d) => d.disputeId)).toEqual([newest.id, middle.id, older.id]);
    const since = await gateway().disputesSince(new Date(middle.created_at * 1000));
    expect(since.map((d) => d.disputeId)).toEqual([newest.id, middle.id]);
    expect(since[0]).toMatchObject({ paymentId: paid.payment.id, amount: 3_000_00, amountDeducted: 0, status: 'open', phase: 'retrieval', currency: 'INR' });

    fake.moveDispute(older.id, 'lost');
    expect(await gateway().dispute(older.id)).toMatchObject({ disputeId: older.id, status: 'lost', amountDeducted: 1_000_00 });
    expect(fake.requests).toContain(`GET /v1/disputes/${older.id}`);
    await expect(gateway().dispute('disp_NoSuchDispute1')).rejects.toMatchObject({ name: 'GatewayRejectedError', httpStatus: 400 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayUnavailableError, type GatewayOrderRequest } from '../../domain/ports/payment-gateway.ts';
import { RazorpayPaymentGateway } from '../../infra/payments/razorpay-payment-gateway.ts';
import { RazorpaySdkNotWiredError } from '../../infra/payments/razorpay-sdk.ts';
import { FakeRazorpay } from '../support/fake-razorpay.ts';

/**
 * Only the functions that call Razorpay's API bundle its SDK (infra/payments/with-razorpay.ts;
 * docs/performance.md, cold starts). One that calls it without the wiring fails loudly as a
 * wiring defect, not as "gateway unavailable", which billing would retry quietly every run.
 */
describe("Razorpay's SDK reaches the adapter only through with-razorpay.ts", () => {
  let fake: FakeRazorpay;
  const gateway = () =>
    new RazorpayPaymentGateway({ keyId: fake.keyId, keySecret: fake.keySecret, apiUrl: fake.url, webhookSecrets: ['whsec'], timeoutMs: 5_000 });
  const order: GatewayOrderRequest = {
    amount: 118_000,
    currency: 'INR',
    receipt: 'inv_wiring_1',
    description: 'Invoice INV-1',
    notes: { invoiceId: 'inv_wiring_1' },
  };

  beforeAll(async () => {
    fake = await new FakeRazorpay('whsec').start();
  });
  afterAll(() => fake.stop());

  it('without the wiring, a call fails as a wiring defect and sends nothing', async () => {
    const err = await gateway()
      .createOrder(order)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RazorpaySdkNotWiredError);
    expect(err).not.toBeInstanceOf(GatewayUnavailableError);
    expect(fake.requests).toEqual([]);
  });

  it('with the wiring imported, the same call reaches Razorpay through the SDK', async () => {
    await import('../../infra/payments/with-razorpay.ts');
    const made = await gateway().createOrder(order);
    expect(made).toMatchObject({ receipt: order.receipt, amount: order.amount });
    expect(fake.orders.map((o) => o.receipt)).toEqual([order.receipt]);
    expect(fake.requests.length).toBeGreaterThan(0);
  });
});

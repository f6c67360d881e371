import { describe, expect, it } from 'vitest';
import { RazorpayPaymentGateway } from '../../infra/payments/razorpay-payment-gateway.ts';
import { hexSignature } from '../../infra/payments/razorpay-webhooks.ts';

/**
 * The payment_link.* events in the shape Razorpay publishes them (razorpay.com/docs/webhooks/payment-links, "Sample Payloads":
 * every field of the Standard "Payment Link Paid" sample and of the "Payment Link Expired" sample, our own values), read by the
 * adapter the notification endpoint reads them with: the fields our fake does not send (the order's `product_type`, `order_metas`,
 * the payment's `upi`, `acquirer_data.rrn`, the order's own `id` without its `order_` prefix) are no reason to refuse one.
 */
const SECRET = 'whsec-samples';
const gateway = new RazorpayPaymentGateway(
  {
    keyId: 'rzp_test_samples',
    keySecret: 'unused',
    apiUrl: 'http://127.0.0.1:9',
    webhookSecrets: [SECRET],
    timeoutMs: 1_000,
  },
  () => import('razorpay'),
);
const read = (event: Record<string, unknown>) => {
  const body = JSON.stringify(event);
  return gateway.readNotification(body, hexSignature(body, SECRET), 'evt_SampleReplay01');
};

const link = (status: string, extra: Record<string, unknown>) => ({
  accept_partial: false,
  amount: 650000,
  amount_paid: 0,
  cancelled_at: 0,
  created_at: 1764300000,
  currency: 'INR',
  customer: { contact: '+919000090000', email: 'accounts@example.in' },
  description: 'Amount due on invoice INV-1',
  expire_by: 1774668000,
  expired_at: 0,
  first_min_partial_amount: 0,
  id: 'plink_SampleLink0001',
  notes: { invoice_id: 'inv-1', agent_group_id: 'group-1' },
  notify: { email: false, sms: false, whatsapp: false },
  reference_id: 'inv-1/L1',
  reminder_enable: false,
  reminders: { status: 'failed' },
  short_url: 'https://rzp.io/rzp/Sample01',
  status,
  updated_at: 1764300100,
  upi_link: false,
  user_id: '',
  whatsapp_link: false,
  ...extra,
});
const event = (name: string, contains: string[], payload: Record<string, unknown>) => ({
  account_id: 'acc_SampleAccount1',
  contains,
  created_at: 1764300200,
  entity: 'event',
  event: name,
  payload,
});

describe('payment_link.* as Razorpay publishes them, read by the notification adapter', () => {
  it('payment_link.paid (the Standard sample’s fields): the link and its captured payment on the order Razorpay opened', () => {
    const order = {
      account_number: null,
      amount: 650000,
      amount_due: 0,
      amount_paid: 650000,
      app_offer: false,
      attempts: 1,
      authorized: true,
      bank: null,
      bank_account: null,
      checkout_config_id: null,
      created_at: 1764300150,
      currency: 'INR',
      customer_id: null,
      discount: false,
      first_payment_min_amount: null,
      force_offer: null,
      id: 'SampleOrder00001',
      late_auth_config_id: null,
      merchant_id: 'SampleMerchant1',
      method: null,
      notes: { invoice_id: 'inv-1', agent_group_id: 'group-1' },
      offers: {},
      order_metas: [],
      order_relationships: [],
      partial_payment: false,
      payer_name: null,
      payment_capture: true,
      product_id: 'SampleLink0001',
      product_type: 'payment_link_v2',
      provider_context: null,
      public_key: 'rzp_test_samples',
      public_response: null,
      receipt: 'inv-1/L1',
      reference2: null,
      source: null,
      status: 'paid',
      transfers: null,
      updated_at: 1764300190,
    };
    const payment = {
      acquirer_data: { rrn: '103608848276' },
      amount: 650000,
      amount_refunded: 0,
      amount_transferred: 0,
      bank: null,
      base_amount: 650000,
      captured: true,
      card: null,
      card_id: null,
      contact: '+919000090000',
      created_at: 1764300180,
      currency: 'INR',
      description: '#SampleLink0001',
      email: null,
      entity: 'payment',
      error_code: null,
      error_description: null,
      error_reason: null,
      error_source: null,
      error_step: null,
      fee: 1534,
      fee_bearer: 'platform',
      id: 'pay_SamplePayment1',
      international: false,
      invoice_id: null,
      method: 'upi',
      notes: [],
      order_id: 'order_SampleOrder00001',
      refund_status: null,
      status: 'captured',
      tax: 234,
      upi: { payer_account_type: 'bank_account', vpa: 'accounts@exampleupi' },
      vpa: 'accounts@exampleupi',
      wallet: null,
    };
    const notice = read(
      event('payment_link.paid', ['payment_link', 'order', 'payment'], {
        order: { entity: order },
        payment: { entity: payment },
        payment_link: { entity: link('paid', { amount_paid: 650000, order_id: 'order_SampleOrder00001' }) },
      }),
    );
    expect(notice).toMatchObject({
      kind: 'link-paid',
      event: 'payment_link.paid',
      linkId: 'plink_SampleLink0001',
      payment: { paymentId: 'pay_SamplePayment1', orderId: 'order_SampleOrder00001', amount: 650000 },
    });
  });

  it('payment_link.expired (the sample’s fields: no order_id, expired_at set) and payment_link.cancelled: the link ended', () => {
    expect(read(event('payment_link.expired', ['payment_link'], { payment_link: { entity: link('expired', { expired_at: 1774668010 }) } }))).toMatchObject({
      kind: 'link-ended',
      event: 'payment_link.expired',
      linkId: 'plink_SampleLink0001',
    });
    expect(
      read(event('payment_link.cancelled', ['payment_link'], { payment_link: { entity: link('cancelled', { cancelled_at: 1764300300 }) } })),
    ).toMatchObject({
      kind: 'link-ended',
      event: 'payment_link.cancelled',
      linkId: 'plink_SampleLink0001',
    });
  });
});

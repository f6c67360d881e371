import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RazorpayPaymentGateway } from '../../infra/payments/razorpay-payment-gateway.ts';
import { hexSignature } from '../../infra/payments/razorpay-webhooks.ts';
import { FakeRazorpay } from '../support/fake-razorpay.ts';

/**
 * Payment Links through the official SDK (paymentLink.create / fetch / cancel / all) against the fake over loopback HTTP:
 * one link per reference however often asked, Razorpay's refusals, and the events of a link paid (razorpay.com/docs/webhooks/payment-links).
 */
describe('Razorpay Payment Links through the SDK', () => {
  let fake: FakeRazorpay;
  let gateway: RazorpayPaymentGateway;
  const inAWeek = () => new Date(Date.now() + 7 * 86_400_000);
  const request = (referenceId: string, amount = 6_500_00, expireBy = inAWeek()) => ({
    referenceId,
    amount,
    currency: 'INR' as const,
    description: 'Amount due on invoice INV-1',
    expireBy,
    notes: { invoice_id: 'inv-1' },
  });

  beforeAll(async () => {
    fake = await new FakeRazorpay('whsec-links').start();
    gateway = new RazorpayPaymentGateway(
      { keyId: fake.keyId, keySecret: fake.keySecret, apiUrl: fake.url, webhookSecrets: ['whsec-links'], timeoutMs: 5_000 },
      () => import('razorpay'),
    );
  });
  afterAll(() => fake.stop());

  it('creates one link per reference however often asked, for the whole amount; another amount under the same reference is refused', async () => {
    const link = await gateway.createPaymentLink(request('inv-1/L1'));
    expect(link).toMatchObject({
      referenceId: 'inv-1/L1',
      amount: 6_500_00,
      status: 'created',
      orderId: null,
      shortUrl: expect.stringMatching(/^https:\/\/rzp\.io\//),
    });
    expect(fake.paymentLinks.find((l) => l.id === link.linkId)).toMatchObject({ accept_partial: false, currency: 'INR', notes: { invoice_id: 'inv-1' } });
    expect(await gateway.createPaymentLink(request('inv-1/L1'))).toEqual(link);
    expect(fake.paymentLinks.filter((l) => l.reference_id === 'inv-1/L1')).toHaveLength(1);
    await expect(gateway.createPaymentLink(request('inv-1/L1', 4_000_00))).rejects.toMatchObject({ name: 'GatewayRejectedError', code: 'AMOUNT_MISMATCH' });
  });

  it('asked at once for one reference, makes one link: the creates Razorpay refuses as a taken reference answer the link made', async () => {
    const links = await Promise.all(Array.from({ length: 5 }, () => gateway.createPaymentLink(request('inv-race/L1'))));
    expect(new Set(links.map((l) => l.linkId)).size).toBe(1);
    expect(fake.paymentLinks.filter((l) => l.reference_id === 'inv-race/L1')).toHaveLength(1);
  });

  it('refuses an expiry less than 15 minutes ahead and an amount below ₹1 (400)', async () => {
    await expect(gateway.createPaymentLink(request('inv-2/L1', 6_500_00, new Date(Date.now() + 60_000)))).rejects.toMatchObject({
      name: 'GatewayRejectedError',
      httpStatus: 400,
    });
    await expect(gateway.createPaymentLink(request('inv-2/L2', 99))).rejects.toMatchObject({ name: 'GatewayRejectedError', httpStatus: 400 });
  });

  it('a paid link has its order; payment_link.paid carries the link, the order and the payment, whose order is the link’s, beside payment.captured and order.paid', async () => {
    const link = await gateway.createPaymentLink(request('inv-3/L1'));
    const paid = fake.payLink(link.linkId);
    const fetched = await gateway.paymentLink(link.linkId);
    expect(fetched).toMatchObject({ status: 'paid', orderId: paid.payment.order_id });
    const body = JSON.parse(paid.linkPaid.body);
    expect(body).toMatchObject({ entity: 'event', event: 'payment_link.paid', contains: ['payment_link', 'order', 'payment'] });
    expect(body.payload.payment_link.entity).toMatchObject({
      id: link.linkId,
      status: 'paid',
      amount_paid: 6_500_00,
      order_id: fetched.orderId,
      reference_id: 'inv-3/L1',
    });
    expect(body.payload.order.entity).toMatchObject({ id: fetched.orderId, status: 'paid', amount_due: 0 });
    expect(body.payload.payment.entity).toMatchObject({ id: paid.payment.id, status: 'captured', order_id: fetched.orderId, amount: 6_500_00 });
    expect([paid.captured.event, paid.orderPaid.event]).toEqual(['payment.captured', 'order.paid']);
    // A paid link is not cancelled: answered as it stands.
    expect(await gateway.cancelPaymentLink(link.linkId)).toMatchObject({ status: 'paid' });
    expect(() => fake.payLink(link.linkId)).toThrow(/is paid/);
  });

  it('payment_link.paid has every field of the published Standard sample’s link and order entities (razorpay.com/docs/webhooks/payment-links), the order’s receipt the link’s reference_id and its notes the link’s', async () => {
    const link = await gateway.createPaymentLink(request('inv-7/L1'));
    const body = JSON.parse(fake.payLink(link.linkId).linkPaid.body);
    // The link and order fields of the published "Payment Link Paid" Standard sample that Razorpay's order API also documents.
    const sampleLink = [
      'accept_partial',
      'amount',
      'amount_paid',
      'cancelled_at',
      'created_at',
      'currency',
      'customer',
      'description',
      'expire_by',
      'expired_at',
      'first_min_partial_amount',
      'id',
      'notes',
      'notify',
      'order_id',
      'reference_id',
      'reminder_enable',
      'reminders',
      'short_url',
      'status',
      'updated_at',
      'upi_link',
      'user_id',
      'whatsapp_link',
    ];
    const sampleOrder = ['amount', 'amount_due', 'amount_paid', 'attempts', 'created_at', 'currency', 'entity', 'id', 'notes', 'offer_id', 'receipt', 'status'];
    expect(Object.keys(body.payload.payment_link.entity)).toEqual(expect.arrayContaining(sampleLink));
    expect(Object.keys(body.payload.order.entity)).toEqual(expect.arrayContaining(sampleOrder));
    // callback_url and callback_method only on a link created with them (the UPI sample has them, the Standard one not).
    expect(body.payload.payment_link.entity).not.toHaveProperty('callback_url');
    expect(body.payload.payment_link.entity.notify).toMatchObject({ whatsapp: false });
    expect(body.payload.order.entity).toMatchObject({ receipt: 'inv-7/L1', notes: body.payload.payment_link.entity.notes });
    // An unpaid link names no order (the published payment_link.expired sample); its expiry reads as any other.
    const unpaid = await gateway.createPaymentLink(request('inv-7/L2'));
    expect(fake.paymentLinks.find((l) => l.id === unpaid.linkId)).not.toHaveProperty('order_id');
    expect(await gateway.paymentLink(unpaid.linkId)).toMatchObject({ status: 'created', orderId: null });
  });

  it('reads payment_link.paid as the link and its captured payment on the link’s order; a payment on another order is refused (400 naming the field)', async () => {
    const link = await gateway.createPaymentLink(request('inv-5/L1'));
    const paid = fake.payLink(link.linkId);
    const notice = gateway.readNotification(paid.linkPaid.body, paid.linkPaid.headers['x-razorpay-signature'], paid.linkPaid.headers['x-razorpay-event-id']);
    expect(notice).toMatchObject({
      kind: 'link-paid',
      event: 'payment_link.paid',
      linkId: link.linkId,
      payment: { paymentId: paid.payment.id, orderId: paid.payment.order_id, amount: 6_500_00, status: 'captured' },
    });
    // Its twins are ordinary payments on that order.
    const captured = gateway.readNotification(paid.captured.body, paid.captured.headers['x-razorpay-signature'], undefined);
    expect(captured).toMatchObject({ kind: 'payment', payment: { paymentId: paid.payment.id, orderId: paid.payment.order_id } });

    const body = JSON.parse(paid.linkPaid.body);
    body.payload.payment.entity.order_id = 'order_SomeoneElse01';
    const raw = JSON.stringify(body);
    expect(() => gateway.readNotification(raw, hexSignature(raw, 'whsec-links'), undefined)).toThrow(
      expect.objectContaining({ name: 'ValidationError', param: 'payload.payment.entity.order_id' }),
    );
    const unordered = JSON.parse(paid.linkPaid.body);
    delete unordered.payload.payment_link.entity.order_id;
    const noOrder = JSON.stringify(unordered);
    expect(() => gateway.readNotification(noOrder, hexSignature(noOrder, 'whsec-links'), undefined)).toThrow(
      expect.objectContaining({ name: 'ValidationError', param: 'payload.payment_link.entity.order_id' }),
    );
    body.payload.payment_link.entity.id = 'link_1';
    const bad = JSON.stringify(body);
    expect(() => gateway.readNotification(bad, hexSignature(bad, 'whsec-links'), undefined)).toThrow(
      expect.objectContaining({ param: 'payload.payment_link.entity.id' }),
    );
  });

  it('a cancelled link takes no payment; one past its expiry is expired, and cancelling it answers it as it stands', async () => {
    const cancelled = await gateway.createPaymentLink(request('inv-4/L1'));
    expect(await gateway.cancelPaymentLink(cancelled.linkId)).toMatchObject({ status: 'cancelled' });
    expect(() => fake.payLink(cancelled.linkId)).toThrow(/is cancelled/);
    const expiring = await gateway.createPaymentLink(request('inv-4/L2', 6_500_00, new Date(Date.now() + 20 * 60_000)));
    fake.elapse(60 * 60);
    expect(await gateway.paymentLink(expiring.linkId)).toMatchObject({ status: 'expired' });
    expect(await gateway.cancelPaymentLink(expiring.linkId)).toMatchObject({ status: 'expired' });
    expect(() => fake.payLink(expiring.linkId)).toThrow(/is expired/);
    await expect(gateway.paymentLink('plink_NoSuchLink0001')).rejects.toMatchObject({ name: 'GatewayRejectedError', httpStatus: 400 });
  });

  it('a link ending announces it: payment_link.cancelled (dashboard or API cancel) and payment_link.expired carry the link in that state, read as its id', async () => {
    const read = (w: { body: string; headers: Record<string, string> }) =>
      gateway.readNotification(w.body, w.headers['x-razorpay-signature'], w.headers['x-razorpay-event-id']);
    const onDashboard = await gateway.createPaymentLink(request('inv-6/L1'));
    const cancelled = fake.dashboardCancel(onDashboard.linkId);
    const body = JSON.parse(cancelled.body);
    expect(body).toMatchObject({ entity: 'event', event: 'payment_link.cancelled', contains: ['payment_link'] });
    expect(body.payload.payment_link.entity).toMatchObject({ id: onDashboard.linkId, status: 'cancelled', reference_id: 'inv-6/L1', amount: 6_500_00 });
    expect(body.payload.payment_link.entity.cancelled_at).toBeGreaterThan(0);
    expect(read(cancelled)).toMatchObject({ kind: 'link-ended', event: 'payment_link.cancelled', linkId: onDashboard.linkId });
    expect(() => fake.dashboardCancel(onDashboard.linkId)).toThrow(/is cancelled/);

    const byApi = await gateway.createPaymentLink(request('inv-6/L2'));
    await gateway.cancelPaymentLink(byApi.linkId);
    expect(fake.sent.filter((w) => w.body.includes(byApi.linkId)).map((w) => w.event)).toEqual(['payment_link.cancelled']);

    // The fake's clock already moved on an hour (the test before): the expiry is 20 minutes past its now.
    const expiring = await gateway.createPaymentLink(request('inv-6/L3', 6_500_00, new Date(Date.now() + 80 * 60_000)));
    fake.elapse(2 * 60 * 60);
    const expired = fake.sent.filter((w) => w.body.includes(expiring.linkId));
    expect(expired.map((w) => w.event)).toEqual(['payment_link.expired']);
    expect(JSON.parse(expired[0]!.body).payload.payment_link.entity).toMatchObject({ id: expiring.linkId, status: 'expired' });
    expect(read(expired[0]!)).toMatchObject({ kind: 'link-ended', event: 'payment_link.expired', linkId: expiring.linkId });

    // Read strictly for what is used: the link's id and the state the event names (400 naming the field); the rest loosely.
    const signed = (b: unknown) => {
      const raw = JSON.stringify(b);
      return () => gateway.readNotification(raw, hexSignature(raw, 'whsec-links'), undefined);
    };
    const bare = { ...body, payload: { payment_link: { entity: { id: onDashboard.linkId, status: 'cancelled' } } } };
    expect(signed(bare)()).toMatchObject({ kind: 'link-ended', linkId: onDashboard.linkId });
    expect(signed({ ...body, payload: { payment_link: { entity: { id: onDashboard.linkId, status: 'expired' } } } })).toThrow(
      expect.objectContaining({ name: 'ValidationError', param: 'payload.payment_link.entity.status' }),
    );
    expect(signed({ ...body, payload: { payment_link: { entity: { id: 'link_1', status: 'cancelled' } } } })).toThrow(
      expect.objectContaining({ param: 'payload.payment_link.entity.id' }),
    );
    expect(signed({ ...body, payload: {} })).toThrow(expect.objectContaining({ param: 'payload.payment_link.entity' }));
    expect(() => gateway.readNotification(cancelled.body, hexSignature(cancelled.body, 'whsec-other'), undefined)).toThrow(
      expect.objectContaining({ param: 'X-Razorpay-Signature' }),
    );
  });
});

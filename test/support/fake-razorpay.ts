import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A contract-faithful stand-in for Razorpay's API, served over HTTP on a loopback port so the
 * official SDK (pointed at it through its own axios client) makes real requests. Written from
 * Razorpay's published docs, independently of the adapter:
 * - auth: HTTP Basic key id / key secret (razorpay.com/docs/api/authentication); a wrong key is
 *   401 with the error body of razorpay.com/docs/api/errors ({error: {code, description, source, step, reason, metadata}});
 * - POST /v1/orders, GET /v1/orders?receipt&count&skip, GET /v1/orders/:id/payments
 *   (razorpay.com/docs/api/orders: create, fetch-all, fetch-payments; order entity fields);
 * - GET /v1/payments?from&count&skip (razorpay.com/docs/api/payments/fetch-all-payments), POST /v1/payments/:id/capture
 *   (razorpay.com/docs/api/payments/capture);
 * - GET /v1/payments/:id/bank_transfer (razorpay.com/docs/api/payments/smart-collect/fetch-payments-bank-transfer);
 * - GET /v1/disputes?count&skip, GET /v1/disputes/:id (razorpay.com/docs/api/disputes: fetch-all, fetch);
 * - GET /v1/refunds?from&count&skip, GET /v1/payments/:id/refunds (razorpay.com/docs/api/refunds: fetch-all,
 *   fetch-multiple-refund-payment; the refund entity of razorpay.com/docs/api/refunds/entity);
 * - POST /v1/payment_links, GET /v1/payment_links/:id, POST /v1/payment_links/:id/cancel (razorpay.com/docs/api/payments/payment-links:
 *   create-standard, fetch-id, cancel; the entity of razorpay.com/docs/api/payments/payment-links/entity) and `payment_link.paid`,
 *   `payment_link.cancelled` (an API or dashboard cancel) and `payment_link.expired`;
 * - POST /v1/virtual_accounts, GET /v1/virtual_accounts, GET /v1/virtual_accounts/:id/payments?from&count&skip
 *   (razorpay.com/docs/api/payments/smart-collect: create, fetch-all, fetch-payments; entity with receivers[]);
 * - webhooks: the event envelope of razorpay.com/docs/webhooks/payments and .../smart-collect, signed as
 *   razorpay.com/docs/webhooks/integrations "Validation" says, with X-Razorpay-Event-Id.
 * - a payment at checkout is for the order's `amount_due` in its currency unless the order was created with `partial_payment`
 *   (then at least `first_payment_min_amount` first, never above what is due), and a `paid` order takes no more
 *   (razorpay.com/docs/api/orders/create, Request Parameters `partial_payment`, `first_payment_min_amount`;
 *   razorpay.com/docs/payments/payment-gateway/web-integration/standard/build-integration, 1.1 "Create an Order in Server", order states);
 * Faults a test can switch on: `down` (503 SERVER_ERROR), `failNextCapture` (the same, for one capture) and `loseNextOrderAnswer` (the order is
 * created, the connection dropped before the answer: a crash between Razorpay's write and ours).
 */
export interface FakeOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  offer_id: null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  notes: Record<string, string> | [];
  created_at: number;
}

export interface FakePayment {
  id: string;
  entity: 'payment';
  amount: number;
  currency: string;
  status: 'authorized' | 'captured' | 'refunded';
  order_id: string | null;
  invoice_id: null;
  international: boolean;
  method: string;
  amount_refunded: number;
  refund_status: null | 'partial' | 'full';
  captured: boolean;
  description: string | null;
  email: string;
  contact: string;
  notes: [];
  fee: number;
  tax: number;
  error_code: null;
  error_description: null;
  created_at: number;
  virtual_account_id?: string;
}

/** razorpay.com/docs/api/refunds/entity (the sample entity's fields). */
export interface FakeRefund {
  id: string;
  entity: 'refund';
  amount: number;
  currency: string;
  payment_id: string;
  notes: [];
  receipt: null;
  acquirer_data: { arn: string | null };
  created_at: number;
  batch_id: null;
  status: 'pending' | 'processed' | 'failed';
  speed_processed: 'normal';
  speed_requested: 'normal';
}

/** razorpay.com/docs/api/disputes/entity (the sample entity's fields; `evidence` until contested is null-valued). */
export interface FakeDispute {
  id: string;
  entity: 'dispute';
  payment_id: string;
  amount: number;
  currency: string;
  amount_deducted: number;
  reason_code: string;
  respond_by: number;
  status: 'open' | 'under_review' | 'won' | 'lost' | 'closed';
  phase: 'fraud' | 'retrieval' | 'chargeback' | 'pre_arbitration' | 'arbitration';
  created_at: number;
}

/** razorpay.com/docs/api/payments/payment-links/entity (and razorpay-node lib/types/paymentLink.d.ts `RazorpayPaymentLink`). */
export interface FakePaymentLink {
  id: string;
  accept_partial: boolean;
  amount: number;
  amount_paid: number;
  callback_method?: string;
  callback_url?: string;
  cancelled_at: number;
  created_at: number;
  currency: string;
  customer: Record<string, string>;
  description: string;
  expire_by: number;
  expired_at: number;
  first_min_partial_amount: number;
  notes: Record<string, string> | [];
  notify: { sms: boolean; email: boolean; whatsapp: boolean };
  /** The order Razorpay opens for the payment: absent until then (the published `payment_link.expired` sample has none). */
  order_id?: string;
  payments: { amount: number; created_at: number; method: string; payment_id: string; plink_id: string; status: string; updated_at: number }[] | null;
  reference_id: string;
  reminder_enable: boolean;
  reminders: [];
  short_url: string;
  status: 'created' | 'partially_paid' | 'expired' | 'cancelled' | 'paid';
  updated_at: number;
  upi_link: boolean;
  user_id: string;
  whatsapp_link: boolean;
}

interface FakeVirtualAccount {
  id: string;
  name: string;
  entity: 'virtual_account';
  status: 'active';
  description: string;
  amount_expected: null;
  notes: Record<string, string> | [];
  amount_paid: number;
  customer_id: null;
  receivers: { id: string; entity: 'bank_account'; ifsc: string; bank_name: string; name: string; notes: []; account_number: string }[];
  close_by: null;
  closed_at: null;
  created_at: number;
}

export interface SignedWebhook {
  readonly event: string;
  readonly body: string;
  readonly headers: Record<string, string>;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const rzpId = (prefix: string) => `${prefix}_${Array.from(randomBytes(14), (b) => BASE62[b % 62]).join('')}`;
const error = (code: string, description: string, field?: string) => ({
  error: { code, description, source: 'business', step: 'payment_initiation', reason: 'input_validation_failed', metadata: {}, ...(field ? { field } : {}) },
});

export class FakeRazorpay {
  readonly keyId = `rzp_test_${randomBytes(7).toString('hex')}`;
  readonly keySecret = randomBytes(18).toString('base64url');
  readonly orders: FakeOrder[] = [];
  readonly virtualAccounts: FakeVirtualAccount[] = [];
  readonly payments: FakePayment[] = [];
  readonly refunds: FakeRefund[] = [];
  readonly disputes: FakeDispute[] = [];
  readonly paymentLinks: FakePaymentLink[] = [];
  /** The partial-payment terms an order was created with, by order id (not echoed in the order entity). */
  private readonly partialTerms = new Map<string, { readonly firstMin: number }>();
  /** The bank_transfer entity of each Smart Collect payment, by payment id. */
  readonly bankTransfers = new Map<string, Record<string, unknown>>();
  /** Every API request, as `<METHOD> <path>`. */
  readonly requests: string[] = [];
  down = false;
  loseNextOrderAnswer = false;
  /** The next capture is answered 503 SERVER_ERROR (razorpay.com/docs/api/errors) and nothing is captured. */
  failNextCapture = false;
  private server?: Server;
  private seconds = Math.floor(Date.now() / 1000);

  /** `webhookSecret`: the secret set on the dashboard's webhook, which signs every event. */
  constructor(private readonly webhookSecret: string) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The service's settings that point its Razorpay adapter (the official SDK) at this fake, started. */
  serviceEnv(): Record<string, string> {
    return {
      PAYMENT_GATEWAY: 'razorpay',
      RAZORPAY_KEY_ID: this.keyId,
      RAZORPAY_KEY_SECRET: this.keySecret,
      RAZORPAY_API_URL: this.url,
      RAZORPAY_WEBHOOK_SECRET: this.webhookSecret,
    };
  }

  /** Razorpay's clock moves forward a second per entity, so `from` filters and "newest first" are exact. */
  private now(): number {
    return ++this.seconds;
  }

  /** A customer pays an order at checkout: a captured payment, and the two events Razorpay sends for it. */
  pay(orderId: string, amount: number): { payment: FakePayment; captured: SignedWebhook; orderPaid: SignedWebhook } {
    const order = this.orders.find((o) => o.id === orderId);
    if (order) this.refuseAtCheckout(order, amount);
    const payment = this.payment({ amount, currency: order?.currency ?? 'INR', order_id: orderId, method: 'upi' });
    if (order) {
      order.amount_paid += amount;
      order.amount_due = Math.max(0, order.amount - order.amount_paid);
      order.attempts += 1;
      order.status = order.amount_due === 0 ? 'paid' : 'attempted';
    }
    return {
      payment,
      captured: this.sign('payment.captured', { payment: { entity: payment } }),
      orderPaid: this.sign('order.paid', { payment: { entity: payment }, order: { entity: order ?? { id: orderId } } }),
    };
  }

  /**
   * A payment authorized and not captured (razorpay.com/docs/payments/payments/capture-settings: a late authorization, or
   * manual capture on the dashboard): `authorized`, `captured: false`, and `payment.authorized`
   * (razorpay.com/docs/webhooks/payments). The order is `attempted` until it is captured.
   */
  authorize(orderId: string, amount: number): { payment: FakePayment; authorized: SignedWebhook } {
    const order = this.orders.find((o) => o.id === orderId);
    if (!order) throw new Error(`no order ${orderId} on the fake`);
    this.refuseAtCheckout(order, amount);
    const payment = this.payment({ amount, currency: order.currency, order_id: orderId, method: 'card' });
    payment.status = 'authorized';
    payment.captured = false;
    order.attempts += 1;
    order.status = order.status === 'paid' ? 'paid' : 'attempted';
    return { payment, authorized: this.sign('payment.authorized', { payment: { entity: { ...payment } } }) };
  }

  /** The webhooks Razorpay sent on its own for API calls (a capture's payment.captured and order.paid), oldest first; a test delivers them. */
  readonly sent: SignedWebhook[] = [];

  /** An order created on the dashboard (not by the service): its payments are no group's money. */
  foreignOrder(amount: number): FakeOrder {
    return this.addOrder({ amount, currency: 'INR', receipt: null, notes: [] });
  }

  /**
   * A NEFT/RTGS/IMPS credit into a virtual account (razorpay.com/docs/webhooks/smart-collect "Virtual Account Credited"),
   * announced twice: `virtual_account.credited` and the ordinary `payment.captured` of a payment with `method`
   * bank_transfer and no order (razorpay.com/docs/webhooks/payments "Payment Captured" fires for every captured payment).
   */
  transfer(virtualAccountId: string, amount: number, utr: string): { payment: FakePayment; credited: SignedWebhook; captured: SignedWebhook } {
    const va = this.virtualAccounts.find((v) => v.id === virtualAccountId);
    if (!va) throw new Error(`no virtual account ${virtualAccountId} on the fake`);
    const payment = this.payment({ amount, currency: 'INR', order_id: null, method: 'bank_transfer', virtual_account_id: virtualAccountId });
    va.amount_paid += amount;
    const bankTransfer = {
      id: rzpId('bt'),
      entity: 'bank_transfer',
      payment_id: payment.id,
      mode: 'NEFT',
      bank_reference: utr,
      amount,
      payer_bank_account: {
        id: rzpId('ba'),
        entity: 'bank_account',
        ifsc: 'HDFC0000001',
        bank_name: 'HDFC Bank',
        name: 'Payer',
        account_number: '50100012345678',
      },
      virtual_account_id: virtualAccountId,
      virtual_account: va,
    };
    this.bankTransfers.set(payment.id, bankTransfer);
    return {
      payment,
      captured: this.sign('payment.captured', { payment: { entity: payment } }),
      credited: this.sign('virtual_account.credited', {
        payment: { entity: payment },
        virtual_account: { entity: va },
        bank_transfer: { entity: bankTransfer },
      }),
    };
  }

  /**
   * A refund of a captured payment (dashboard or API): razorpay.com/docs/payments/payment-gateway/s2s-integration/refunds/how-to-integrate,
   * "How refunds work": only a captured payment, several partial refunds whose total does not exceed the amount captured;
   * a refund is `pending`, then `processed` (or `failed`). The payment's `amount_refunded`, `refund_status` (partial/full) and,
   * once all is refunded, `status: refunded` move with it (razorpay.com/docs/api/payments, Payment Entity). Returns the events
   * of razorpay.com/docs/webhooks/refunds ("Sample Payloads": payload.refund.entity and payload.payment.entity): refund.created
   * while pending, then refund.processed, each with the entities as they stood.
   */
  refund(paymentId: string, amount: number): { refund: FakeRefund; created: SignedWebhook; processed: SignedWebhook } {
    const payment = this.payments.find((p) => p.id === paymentId);
    if (!payment?.captured) throw new Error(`refunds can be made only on captured payments: ${paymentId}`);
    if (!Number.isInteger(amount) || amount <= 0 || payment.amount_refunded + amount > payment.amount)
      throw new Error(`the total refunded may not exceed the amount captured (${payment.amount}, ${payment.amount_refunded} refunded)`);
    const refund: FakeRefund = {
      id: rzpId('rfnd'),
      entity: 'refund',
      amount,
      currency: payment.currency,
      payment_id: paymentId,
      notes: [],
      receipt: null,
      acquirer_data: { arn: null },
      created_at: this.now(),
      batch_id: null,
      status: 'pending',
      speed_processed: 'normal',
      speed_requested: 'normal',
    };
    this.refunds.push(refund);
    payment.amount_refunded += amount;
    payment.refund_status = payment.amount_refunded === payment.amount ? 'full' : 'partial';
    if (payment.amount_refunded === payment.amount) payment.status = 'refunded';
    const created = this.sign('refund.created', { refund: { entity: { ...refund } }, payment: { entity: { ...payment } } });
    refund.status = 'processed';
    refund.acquirer_data = { arn: `${Math.floor(1e13 + Math.random() * 9e13)}` };
    const processed = this.sign('refund.processed', { refund: { entity: { ...refund } }, payment: { entity: { ...payment } } });
    return { refund, created, processed };
  }

  /**
   * The payer's bank raises a dispute on a captured payment (razorpay.com/docs/payments/disputes, "Dispute Phases";
   * razorpay.com/docs/api/disputes/entity): `open`, nothing deducted, a respond-by date. Returns `payment.dispute.created`
   * (razorpay.com/docs/webhooks/disputes: payload.payment.entity and payload.dispute.entity).
   */
  dispute(paymentId: string, amount: number, phase: FakeDispute['phase'] = 'chargeback'): { dispute: FakeDispute; created: SignedWebhook } {
    const payment = this.payments.find((p) => p.id === paymentId);
    if (!payment?.captured) throw new Error(`disputes are raised against captured payments: ${paymentId}`);
    if (!Number.isInteger(amount) || amount <= 0 || amount > payment.amount)
      throw new Error(`a dispute is for at most the payment's amount (${payment.amount})`);
    const at = this.now();
    const dispute: FakeDispute = {
      id: rzpId('disp'),
      entity: 'dispute',
      payment_id: paymentId,
      amount,
      currency: payment.currency,
      amount_deducted: 0,
      reason_code: 'chargeback',
      respond_by: at + 7 * 86_400,
      status: 'open',
      phase,
      created_at: at,
    };
    this.disputes.push(dispute);
    return { dispute, created: this.disputeEvent('payment.dispute.created', dispute) };
  }

  /**
   * The dispute moves (razorpay.com/docs/api/disputes/entity, `status`): contested → `under_review`; then `won`, `lost` (the
   * amount deducted from the balance: `amount_deducted`, 0 in every other state) or `closed`. Returns the event of
   * razorpay.com/docs/webhooks/disputes for the new state. A decided dispute (won, lost, closed) moves no more.
   */
  moveDispute(disputeId: string, status: 'under_review' | 'won' | 'lost' | 'closed'): SignedWebhook {
    const dispute = this.disputes.find((d) => d.id === disputeId);
    if (!dispute) throw new Error(`no dispute ${disputeId} on the fake`);
    if (dispute.status !== 'open' && dispute.status !== 'under_review') throw new Error(`dispute ${disputeId} is ${dispute.status}: decided`);
    dispute.status = status;
    if (status === 'lost') dispute.amount_deducted = dispute.amount;
    return this.disputeEvent(`payment.dispute.${status}`, dispute);
  }

  private disputeEvent(event: string, dispute: FakeDispute): SignedWebhook {
    const payment = this.payments.find((p) => p.id === dispute.payment_id)!;
    return this.sign(event, { payment: { entity: { ...payment } }, dispute: { entity: { ...dispute } } });
  }

  /**
   * The payer pays a Payment Link on its hosted page (razorpay.com/docs/payments/payment-links, "Payment Links States": a link is
   * payable while `created` or `partially_paid`, until `expire_by`; without `accept_partial` the whole amount). Razorpay opens an order
   * for the payment (the link's `order_id`) and sends `payment_link.paid` (razorpay.com/docs/webhooks/payment-links, "Payment Link
   * Paid": payload `payment_link`, `order`, `payment`) besides the order's own `payment.captured` and `order.paid`.
   */
  payLink(linkId: string): { payment: FakePayment; captured: SignedWebhook; orderPaid: SignedWebhook; linkPaid: SignedWebhook } {
    const link = this.paymentLinks.find((l) => l.id === linkId);
    if (!link) throw new Error(`no payment link ${linkId} on the fake`);
    this.expireLinks();
    if (link.status !== 'created' && link.status !== 'partially_paid') throw new Error(`payment link ${linkId} is ${link.status}: it takes no payment`);
    // razorpay.com/docs/webhooks/payment-links, "Payment Link Paid" samples: the order opened for the payment has the link's
    // `reference_id` as its `receipt` and the link's notes.
    const order = this.addOrder({ amount: link.amount, currency: link.currency, receipt: link.reference_id, notes: link.notes });
    link.order_id = order.id;
    const paid = this.pay(order.id, link.amount - link.amount_paid);
    link.amount_paid = link.amount;
    link.status = 'paid';
    link.updated_at = this.now();
    link.payments = [
      {
        amount: paid.payment.amount,
        created_at: paid.payment.created_at,
        method: paid.payment.method,
        payment_id: paid.payment.id,
        plink_id: link.id,
        status: 'captured',
        updated_at: link.updated_at,
      },
    ];
    return {
      ...paid,
      linkPaid: this.sign('payment_link.paid', {
        payment_link: { entity: { ...link } },
        order: { entity: { ...order } },
        payment: { entity: { ...paid.payment } },
      }),
    };
  }

  /** Moves Razorpay's clock on (a test's days passing): links past their `expire_by` are then `expired`. */
  elapse(seconds: number): void {
    this.seconds += seconds;
    this.expireLinks();
  }

  /** razorpay.com/docs/payments/payment-links, "Payment Links States": a link not paid by `expire_by` is `expired` (razorpay.com/docs/webhooks/payment-links: `payment_link.expired`). */
  private expireLinks(): void {
    for (const l of this.paymentLinks)
      if ((l.status === 'created' || l.status === 'partially_paid') && l.expire_by > 0 && l.expire_by <= this.seconds) {
        l.expired_at = l.expire_by;
        this.endLink(l, 'expired');
      }
  }

  /**
   * A link that ends announces it (razorpay.com/docs/webhooks/payment-links, the events' table: `payment_link.cancelled` "when a
   * Payment Link is cancelled by you", on the dashboard or through the API; `payment_link.expired` "when a Payment Link expires"),
   * its payload the link in its new state; the event is kept in `sent` for a test to deliver.
   */
  private endLink(link: FakePaymentLink, status: 'expired' | 'cancelled'): SignedWebhook {
    link.status = status;
    link.updated_at = this.now();
    const event = this.sign(`payment_link.${status}`, { payment_link: { entity: { ...link } } });
    this.sent.push(event);
    return event;
  }

  /** The merchant cancels a link on the dashboard (as the cancel API, only a link still payable): `payment_link.cancelled` is sent. */
  dashboardCancel(linkId: string): SignedWebhook {
    this.expireLinks();
    const link = this.paymentLinks.find((l) => l.id === linkId);
    if (!link) throw new Error(`no payment link ${linkId} on the fake`);
    if (link.status !== 'created' && link.status !== 'partially_paid') throw new Error(`payment link ${linkId} is ${link.status}: it cannot be cancelled`);
    link.cancelled_at = this.now();
    return this.endLink(link, 'cancelled');
  }

  /**
   * What checkout refuses before any payment exists (the order binds amount and currency: razorpay.com/docs/payments/payment-gateway/web-integration/standard/build-integration,
   * 1.1 "This ties the order with the payment"): a `paid` order takes no more payments (the order states table); without `partial_payment`
   * (the default, razorpay.com/docs/api/orders/create, Request Parameters) "the customer cannot make partial payments", so the payment is the
   * whole `amount_due`; with it, never above `amount_due` and the first at least `first_payment_min_amount`.
   */
  private refuseAtCheckout(order: FakeOrder, amount: number): void {
    if (order.status === 'paid') throw new Error(`order ${order.id} is paid: no more payment requests are allowed`);
    const partial = this.partialTerms.get(order.id);
    if (!partial && amount !== order.amount_due)
      throw new Error(`order ${order.id} does not allow partial payments: the payment is its amount due (${order.amount_due}), not ${amount}`);
    if (partial && (amount > order.amount_due || (order.amount_paid === 0 && amount < partial.firstMin)))
      throw new Error(
        `order ${order.id} takes at most ${order.amount_due}${order.amount_paid === 0 ? ` and at least ${partial.firstMin} first` : ''}, not ${amount}`,
      );
  }

  /** Any event, signed as Razorpay signs it (tests use it for events the service ignores or malformed bodies). */
  sign(event: string, payload: Record<string, unknown>): SignedWebhook {
    const body = JSON.stringify({ entity: 'event', account_id: 'acc_FakeAccount0001', event, contains: Object.keys(payload), payload, created_at: this.now() });
    return this.signRaw(event, body);
  }

  signRaw(event: string, body: string): SignedWebhook {
    return {
      event,
      body,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': createHmac('sha256', this.webhookSecret).update(body).digest('hex'),
        'x-razorpay-event-id': rzpId('evt'),
      },
    };
  }

  private payment(p: { amount: number; currency: string; order_id: string | null; method: string; virtual_account_id?: string }): FakePayment {
    const payment: FakePayment = {
      id: rzpId('pay'),
      entity: 'payment',
      amount: p.amount,
      currency: p.currency,
      status: 'captured',
      order_id: p.order_id,
      invoice_id: null,
      international: p.currency !== 'INR',
      method: p.method,
      amount_refunded: 0,
      refund_status: null,
      captured: true,
      description: null,
      email: 'payer@example.com',
      contact: '+919000090000',
      notes: [],
      fee: Math.round(p.amount * 0.02),
      tax: Math.round(p.amount * 0.0036),
      error_code: null,
      error_description: null,
      created_at: this.now(),
      ...(p.virtual_account_id ? { virtual_account_id: p.virtual_account_id } : {}),
    };
    this.payments.push(payment);
    return payment;
  }

  private addOrder(o: { amount: number; currency: string; receipt: string | null; notes: Record<string, string> | [] }): FakeOrder {
    const order: FakeOrder = {
      id: rzpId('order'),
      entity: 'order',
      amount: o.amount,
      amount_paid: 0,
      amount_due: o.amount,
      currency: o.currency,
      receipt: o.receipt,
      offer_id: null,
      status: 'created',
      attempts: 0,
      notes: o.notes,
      created_at: this.now(),
    };
    this.orders.push(order);
    return order;
  }

  /**
   * POST /v1/payment_links (razorpay.com/docs/api/payments/payment-links/create-standard, Request Parameters): `amount` in subunits
   * (at least ₹1, as orders), `currency`, `reference_id` unique across the account's links (≤ 40 characters), `description` ≤ 2048,
   * `notes` ≤ 15 pairs of 256, `expire_by` at least 15 minutes ahead and at most six months after creation
   * (razorpay.com/docs/api/payments/payment-links/entity, `expire_by`), `first_min_partial_amount` only with `accept_partial`
   * (razorpay-node lib/types/paymentLink.d.ts). Answers the link entity, `created`, with its `short_url`.
   */
  private createLink(body: Record<string, unknown>, send: (status: number, body: unknown) => void) {
    const now = this.now();
    const amount = body.amount;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100)
      return send(400, error('BAD_REQUEST_ERROR', 'The amount must be atleast INR 1.00', 'amount'));
    const currency = body.currency ?? 'INR';
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return send(400, error('BAD_REQUEST_ERROR', 'The currency is invalid', 'currency'));
    const reference = body.reference_id;
    if (reference !== undefined && (typeof reference !== 'string' || reference.length > 40))
      return send(400, error('BAD_REQUEST_ERROR', 'The reference id may not be greater than 40 characters.', 'reference_id'));
    if (typeof reference === 'string' && this.paymentLinks.some((l) => l.reference_id === reference))
      return send(400, error('BAD_REQUEST_ERROR', `Payment Link with reference id ${reference} already exists`, 'reference_id'));
    if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 2048))
      return send(400, error('BAD_REQUEST_ERROR', 'The description may not be greater than 2048 characters.', 'description'));
    const notes = (body.notes ?? []) as Record<string, string>;
    if (Object.keys(notes).length > 15 || Object.values(notes).some((n) => typeof n !== 'string' || n.length > 256))
      return send(400, error('BAD_REQUEST_ERROR', 'notes: at most 15 keys of at most 256 characters', 'notes'));
    const expireBy = body.expire_by ?? 0;
    if (typeof expireBy !== 'number' || !Number.isInteger(expireBy) || (expireBy !== 0 && expireBy < now + 15 * 60))
      return send(400, error('BAD_REQUEST_ERROR', 'expire_by: timestamp must be atleast 15 minutes in future', 'expire_by'));
    if (expireBy > now + 183 * 86_400)
      return send(400, error('BAD_REQUEST_ERROR', 'expire_by cannot be more than six months from the date of creation', 'expire_by'));
    if (body.first_min_partial_amount !== undefined && body.accept_partial !== true)
      return send(400, error('BAD_REQUEST_ERROR', 'first_min_partial_amount must be passed along with accept_partial', 'first_min_partial_amount'));
    const id = rzpId('plink');
    const link: FakePaymentLink = {
      id,
      accept_partial: body.accept_partial === true,
      amount,
      amount_paid: 0,
      // Only when given: the "Payment Link Paid" samples show them on the link created with them (UPI), not on the other (Standard).
      ...(typeof body.callback_url === 'string' ? { callback_url: body.callback_url } : {}),
      ...(typeof body.callback_method === 'string' ? { callback_method: body.callback_method } : {}),
      cancelled_at: 0,
      created_at: now,
      currency,
      customer: (body.customer ?? {}) as Record<string, string>,
      description: (body.description as string | undefined) ?? '',
      expire_by: expireBy,
      expired_at: 0,
      first_min_partial_amount: (body.first_min_partial_amount as number | undefined) ?? 0,
      notes,
      // The samples' `notify` has `whatsapp` beside sms and email, and the link a `whatsapp_link` flag.
      notify: { sms: false, email: false, whatsapp: false, ...((body.notify ?? {}) as object) },
      payments: null,
      reference_id: (reference as string | undefined) ?? '',
      reminder_enable: body.reminder_enable === true,
      reminders: [],
      short_url: `https://rzp.io/i/${id.slice(6, 16)}`,
      status: 'created',
      updated_at: now,
      upi_link: false,
      user_id: '',
      whatsapp_link: false,
    };
    this.paymentLinks.push(link);
    send(200, link);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (this.down)
      return send(503, {
        error: {
          code: 'SERVER_ERROR',
          description: 'The server encountered an error. The incident has been reported to admins.',
          source: 'NA',
          step: 'NA',
          reason: 'NA',
          metadata: {},
        },
      });
    const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    if (auth !== `${this.keyId}:${this.keySecret}`)
      return send(401, {
        error: { code: 'BAD_REQUEST_ERROR', description: 'The api key provided is invalid', source: 'NA', step: 'NA', reason: 'NA', metadata: {} },
      });
    let body: Record<string, unknown> = {};
    if (chunks.length > 0) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString());
      } catch {
        return send(400, error('BAD_REQUEST_ERROR', 'The request body is not valid JSON'));
      }
    }
    const page = <T extends { created_at: number }>(items: T[]) => {
      const count = Math.min(Number(url.searchParams.get('count') ?? 10), 100);
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const from = Number(url.searchParams.get('from') ?? 0);
      const listed = items
        .filter((i) => i.created_at >= from)
        .sort((a, b) => b.created_at - a.created_at)
        .slice(skip, skip + count);
      return { entity: 'collection', count: listed.length, items: listed };
    };
    const path = url.pathname;
    let m: RegExpMatchArray | null;
    if (req.method === 'POST' && path === '/v1/orders') {
      // razorpay.com/docs/api/orders/create, Request Parameters and Errors.
      const amount = body.amount;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100)
        return send(400, error('BAD_REQUEST_ERROR', 'The amount must be atleast INR 1.00', 'amount'));
      if (typeof body.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency))
        return send(400, error('BAD_REQUEST_ERROR', 'The currency is invalid', 'currency'));
      if (body.receipt !== undefined && (typeof body.receipt !== 'string' || body.receipt.length > 40))
        return send(400, error('BAD_REQUEST_ERROR', 'The receipt may not be greater than 40 characters.', 'receipt'));
      const notes = (body.notes ?? []) as Record<string, string>;
      if (Object.keys(notes).length > 15 || Object.values(notes).some((n) => typeof n !== 'string' || n.length > 256))
        return send(400, error('BAD_REQUEST_ERROR', 'notes: at most 15 keys of at most 256 characters', 'notes'));
      if (body.partial_payment !== undefined && typeof body.partial_payment !== 'boolean')
        return send(400, error('BAD_REQUEST_ERROR', 'The partial payment field must be true or false.', 'partial_payment'));
      const firstMin = body.first_payment_min_amount;
      // razorpay-node types/orders.d.ts (the API page's wording): "This parameter should be passed only if partial_payment is true."
      if (firstMin !== undefined && (body.partial_payment !== true || typeof firstMin !== 'number' || !Number.isInteger(firstMin) || firstMin <= 0))
        return send(400, error('BAD_REQUEST_ERROR', 'first_payment_min_amount should be passed only if partial_payment is true', 'first_payment_min_amount'));
      const order = this.addOrder({ amount, currency: body.currency, receipt: (body.receipt as string | undefined) ?? null, notes });
      if (body.partial_payment === true) this.partialTerms.set(order.id, { firstMin: (firstMin as number | undefined) ?? 1 });
      if (this.loseNextOrderAnswer) {
        this.loseNextOrderAnswer = false;
        res.socket?.destroy();
        return;
      }
      return send(200, order);
    }
    if (req.method === 'GET' && path === '/v1/orders') {
      const receipt = url.searchParams.get('receipt');
      return send(200, page(this.orders.filter((o) => receipt === null || o.receipt === receipt)));
    }
    if (req.method === 'GET' && (m = path.match(/^\/v1\/orders\/([^/]+)\/payments$/))) {
      if (!this.orders.some((o) => o.id === m![1])) return send(400, error('BAD_REQUEST_ERROR', 'The id provided does not exist'));
      return send(200, page(this.payments.filter((p) => p.order_id === m![1])));
    }
    // razorpay.com/docs/api/disputes/fetch-all (a collection, newest first) and razorpay.com/docs/api/disputes/fetch: entities as they stand now.
    if (req.method === 'GET' && path === '/v1/disputes') return send(200, page(this.disputes));
    if (req.method === 'GET' && (m = path.match(/^\/v1\/disputes\/([^/]+)$/))) {
      const dispute = this.disputes.find((d) => d.id === m![1]);
      return dispute ? send(200, dispute) : send(400, error('BAD_REQUEST_ERROR', 'The id provided does not exist'));
    }
    if (req.method === 'GET' && path === '/v1/refunds') return send(200, page(this.refunds));
    // razorpay.com/docs/api/payments/fetch-all-payments: the account's payments, newest first, `from`/`count`/`skip`.
    if (req.method === 'GET' && path === '/v1/payments') return send(200, page(this.payments));
    if (req.method === 'GET' && (m = path.match(/^\/v1\/payments\/([^/]+)\/refunds$/))) {
      // razorpay.com/docs/api/refunds/fetch-multiple-refund-payment.
      if (!this.payments.some((p) => p.id === m![1])) return send(400, error('BAD_REQUEST_ERROR', 'The id provided does not exist'));
      return send(200, page(this.refunds.filter((r) => r.payment_id === m![1])));
    }
    if (req.method === 'POST' && (m = path.match(/^\/v1\/payments\/([^/]+)\/capture$/))) {
      // razorpay.com/docs/api/payments/capture: `amount` equal to the amount authorized, `currency`; only an authorized payment.
      if (this.failNextCapture) {
        this.failNextCapture = false;
        return send(503, {
          error: {
            code: 'SERVER_ERROR',
            description: 'The server encountered an error. The incident has been reported to admins.',
            source: 'NA',
            step: 'NA',
            reason: 'NA',
            metadata: {},
          },
        });
      }
      const payment = this.payments.find((p) => p.id === m![1]);
      if (!payment) return send(400, error('BAD_REQUEST_ERROR', 'The id provided does not exist'));
      if (payment.status !== 'authorized') return send(400, error('BAD_REQUEST_ERROR', 'This payment has already been captured'));
      if (Number(body.amount) !== payment.amount)
        return send(400, error('BAD_REQUEST_ERROR', 'Capture amount must be equal to the amount authorized', 'amount'));
      if (body.currency !== payment.currency) return send(400, error('BAD_REQUEST_ERROR', 'The currency should be same as the payment currency', 'currency'));
      payment.status = 'captured';
      payment.captured = true;
      const order = this.orders.find((o) => o.id === payment.order_id);
      if (order) {
        order.amount_paid += payment.amount;
        order.amount_due = Math.max(0, order.amount - order.amount_paid);
        order.status = order.amount_due === 0 ? 'paid' : 'attempted';
      }
      this.sent.push(this.sign('payment.captured', { payment: { entity: { ...payment } } }));
      if (order?.status === 'paid') this.sent.push(this.sign('order.paid', { payment: { entity: { ...payment } }, order: { entity: { ...order } } }));
      return send(200, payment);
    }
    if (req.method === 'GET' && (m = path.match(/^\/v1\/payments\/([^/]+)\/bank_transfer$/))) {
      // razorpay.com/docs/api/payments/smart-collect/fetch-payments-bank-transfer: the payment's bank_transfer entity.
      const bt = this.bankTransfers.get(m[1]!);
      return bt ? send(200, bt) : send(400, error('BAD_REQUEST_ERROR', 'The id provided does not exist'));
    }
    if (req.method === 'POST' && path === '/v1/virtual_accounts') {
      // razorpay.com/docs/api/payments/smart-collect/create-cust-id-bank-account: receivers.types is mandatory.
      const types = (body.receivers as { types?: unknown } | undefined)?.types;
      if (!Array.isArray(types) || !types.includes('bank_account'))
        return send(400, error('BAD_REQUEST_ERROR', 'The receivers field is required.', 'receivers'));
      const va: FakeVirtualAccount = {
        id: rzpId('va'),
        name: 'Acme Holidays',
        entity: 'virtual_account',
        status: 'active',
        description: String(body.description ?? ''),
        amount_expected: null,
        notes: (body.notes ?? []) as Record<string, string>,
        amount_paid: 0,
        customer_id: null,
        receivers: [
          {
            id: rzpId('ba'),
            entity: 'bank_account',
            ifsc: 'RATN0VAAPIS',
            bank_name: 'RBL Bank',
            name: 'Acme Holidays',
            notes: [],
            account_number: `2223330${String(this.virtualAccounts.length).padStart(9, '0')}`,
          },
        ],
        close_by: null,
        closed_at: null,
        created_at: this.now(),
      };
      this.virtualAccounts.push(va);
      return send(200, va);
    }
    if (req.method === 'POST' && path === '/v1/payment_links') return this.createLink(body, send);
    if (req.method === 'GET' && path === '/v1/payment_links') {
      // razorpay.com/docs/api/payments/payment-links/fetch-all: Query Parameters `payment_id`, `reference_id`; `{payment_links: [...]}`.
      this.expireLinks();
      const reference = url.searchParams.get('reference_id');
      return send(200, { payment_links: this.paymentLinks.filter((l) => reference === null || l.reference_id === reference) });
    }
    if (req.method === 'GET' && (m = path.match(/^\/v1\/payment_links\/([^/]+)$/))) {
      // razorpay.com/docs/api/payments/payment-links/fetch-id: the link as it stands now.
      this.expireLinks();
      const link = this.paymentLinks.find((l) => l.id === m![1]);
      return link ? send(200, link) : send(400, error('BAD_REQUEST_ERROR', 'The id provided does not exist'));
    }
    if (req.method === 'POST' && (m = path.match(/^\/v1\/payment_links\/([^/]+)\/cancel$/))) {
      // razorpay.com/docs/api/payments/payment-links/cancel: only a link still payable (created, partially_paid) is cancelled.
      this.expireLinks();
      const link = this.paymentLinks.find((l) => l.id === m![1]);
      if (!link) return send(400, error('BAD_REQUEST_ERROR', 'The id provided does not exist'));
      if (link.status !== 'created' && link.status !== 'partially_paid')
        return send(400, error('BAD_REQUEST_ERROR', `Payment Link cannot be cancelled in ${link.status} state`));
      link.cancelled_at = this.now();
      this.endLink(link, 'cancelled');
      return send(200, link);
    }
    if (req.method === 'GET' && path === '/v1/virtual_accounts') return send(200, page(this.virtualAccounts));
    if (req.method === 'GET' && (m = path.match(/^\/v1\/virtual_accounts\/([^/]+)\/payments$/))) {
      if (!this.virtualAccounts.some((v) => v.id === m![1])) return send(400, error('BAD_REQUEST_ERROR', 'The id provided does not exist'));
      return send(200, page(this.payments.filter((p) => p.virtual_account_id === m![1])));
    }
    return send(400, error('BAD_REQUEST_ERROR', 'The requested URL was not found on the server.'));
  }
}

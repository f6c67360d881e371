import type Razorpay from 'razorpay';
import {
  GatewayRejectedError,
  GatewayUnavailableError,
  type GatewayDispute,
  type GatewayOrder,
  type GatewayOrderRequest,
  type GatewayPayment,
  type GatewayRefund,
  type PaymentGateway,
  type PaymentLink,
  type PaymentLinkRequest,
  type VirtualAccount,
  type VirtualAccountRequest,
} from '../../domain/ports/payment-gateway.ts';
import { once } from '../lazy.ts';
import { disputeOfEntity, paymentLinkOf, paymentOfEntity, RazorpayWebhooks, refundOfEntity } from './razorpay-webhooks.ts';

/** The SDK's client class (razorpay-node's default export). */
export type RazorpaySdk = typeof Razorpay;

/**
 * Loads the SDK: `() => import('razorpay')`, named only where the adapter is wired
 * (infra/compose/adapters/payments.ts), so only the bundles of functions that wire the payments
 * group carry it. It brings axios and form-data (~650 KiB), parsed at start though run only here.
 */
export type LoadRazorpaySdk = () => Promise<{ readonly default: RazorpaySdk }>;

export interface RazorpaySettings {
  readonly keyId: string;
  readonly keySecret: string;
  /** The current webhook secret, then the previous one while it rotates. */
  readonly webhookSecrets: readonly string[];
  /** Razorpay's API host; only a test points it elsewhere (the fake in test/support). */
  readonly apiUrl?: string;
  /** One call's limit: past it the call is unavailable and retried by the next run. */
  readonly timeoutMs: number;
}

/** razorpay.com/docs/api/orders/fetch-all, Query Parameters `count`: at most 100 a page. */
const PAGE = 100;

/** The SDK throws `{statusCode, error: {code, description, …}}` for an answer (razorpay-node lib/api.js normalizeError), and axios's own error when none came. */
/** A link found under the reference asked for: answered when it is for the amount asked, AMOUNT_MISMATCH otherwise. */
function sameAmount(found: PaymentLink, request: PaymentLinkRequest): PaymentLink {
  if (found.amount !== request.amount)
    throw new GatewayRejectedError(
      'AMOUNT_MISMATCH',
      `payment link ${found.linkId} for ${request.referenceId} is for ${found.amount} paise, not ${request.amount}`,
      200,
    );
  return found;
}

function mapped(err: unknown): Error {
  const e = err as { statusCode?: unknown; error?: { code?: unknown; description?: unknown }; code?: unknown; message?: unknown };
  if (typeof e?.statusCode === 'number') {
    // razorpay.com/docs/api/errors: 4xx BAD_REQUEST_ERROR (the request is wrong; 401 the key), 5xx SERVER_ERROR, 429 too many requests.
    const code = typeof e.error?.code === 'string' ? e.error.code : 'UNKNOWN';
    const description = typeof e.error?.description === 'string' ? e.error.description : 'no description';
    if (e.statusCode >= 500 || e.statusCode === 429) return new GatewayUnavailableError(`${e.statusCode} ${code}: ${description}`);
    return new GatewayRejectedError(code, description, e.statusCode);
  }
  // No answer (refused, reset, timed out): the request may or may not have reached Razorpay.
  return new GatewayUnavailableError(typeof e?.message === 'string' ? e.message : String(err));
}

interface RazorpayVirtualAccount {
  id: string;
  notes?: Record<string, string> | unknown[];
  receivers?: { entity?: string; account_number?: string; ifsc?: string; bank_name?: string; name?: string }[];
}

/** razorpay.com/docs/api/payments/smart-collect (Smart Collect Entity): `receivers[]` holds the `bank_account` with `account_number`, `ifsc`, `bank_name`, `name`. */
function virtualAccountOf(va: RazorpayVirtualAccount): VirtualAccount {
  const bank = va.receivers?.find((r) => r.entity === 'bank_account');
  if (!bank?.account_number || !bank.ifsc) throw new GatewayRejectedError('NO_BANK_ACCOUNT', `virtual account ${va.id} has no bank_account receiver`, 200);
  return { virtualAccountId: va.id, accountNumber: bank.account_number, ifsc: bank.ifsc, bankName: bank.bank_name ?? '', beneficiaryName: bank.name ?? '' };
}

/**
 * Razorpay behind the PaymentGateway port, through the official Node SDK. Orders are one per
 * invoice: the receipt (the invoice id) is looked up before creating (Fetch All Orders takes
 * `receipt`), so a retry after a lost answer or a crash before our write finds the order the
 * first call made. A group's virtual account carries the group in its notes and is found
 * the same way when its creation's answer was lost.
 */
export class RazorpayPaymentGateway extends RazorpayWebhooks implements PaymentGateway {
  /**
   * The SDK loads at the first call to Razorpay: it brings axios, whose module start loads
   * Node's fetch (undici), and the webhook path (every notification) never needs it; only the
   * bundles of functions that wire the payments adapter group carry it (docs/performance.md, cold starts).
   */
  private readonly sdk: () => Promise<Razorpay>;

  constructor(settings: RazorpaySettings, loadSdk: LoadRazorpaySdk) {
    super(settings.webhookSecrets);
    this.sdk = once(async () => {
      const Sdk = (await loadSdk()).default;
      const sdk = new Sdk({ key_id: settings.keyId, key_secret: settings.keySecret });
      // The SDK's own HTTP client (an axios instance, razorpay-node lib/api.js `this.rq`) takes the base URL and timeout.
      const client = (sdk.api as unknown as { rq: { defaults: { baseURL?: string; timeout?: number } } }).rq;
      if (settings.apiUrl) client.defaults.baseURL = settings.apiUrl;
      client.defaults.timeout = settings.timeoutMs;
      return sdk;
    });
  }

  async createOrder(request: GatewayOrderRequest): Promise<GatewayOrder> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0)
      throw new RangeError(`a gateway order needs a positive amount of paise, got ${request.amount}`);
    try {
      // razorpay.com/docs/api/orders/fetch-all, Query Parameters: `receipt` "retrieves the orders that contain the provided value for receipt".
      const found = await (await this.sdk()).orders.all({ receipt: request.receipt, count: PAGE });
      const same = found.items.find((o) => o.receipt === request.receipt);
      if (same) {
        if (Number(same.amount) !== request.amount)
          throw new GatewayRejectedError(
            'AMOUNT_MISMATCH',
            `order ${same.id} for receipt ${request.receipt} is for ${same.amount} paise, not ${request.amount}`,
            200,
          );
        return { orderId: same.id, receipt: request.receipt, amount: request.amount };
      }
      // razorpay.com/docs/api/orders/create, Request Parameters: amount in the currency's subunit, currency, receipt (≤ 40 characters), notes (≤ 15 pairs of 256 characters).
      const order = await (await this.sdk()).orders.create({
        amount: request.amount,
        currency: request.currency,
        receipt: request.receipt,
        notes: { ...request.notes, description: request.description },
      });
      return { orderId: order.id, receipt: request.receipt, amount: request.amount };
    } catch (err) {
      throw err instanceof GatewayRejectedError ? err : mapped(err);
    }
  }

  async createVirtualAccount(request: VirtualAccountRequest): Promise<VirtualAccount> {
    try {
      // razorpay.com/docs/api/payments/smart-collect/create-cust-id-bank-account: receivers.types ["bank_account"], description, notes.
      const va = await (await this.sdk()).virtualAccounts.create({
        receivers: { types: ['bank_account'] },
        description: `Invoice payments of ${request.name}`.slice(0, 255),
        notes: { agent_group_id: request.agentGroupId },
      } as never);
      return virtualAccountOf(va as unknown as RazorpayVirtualAccount);
    } catch (err) {
      throw err instanceof GatewayRejectedError ? err : mapped(err);
    }
  }

  async findVirtualAccount(agentGroupId: string): Promise<VirtualAccount | undefined> {
    try {
      // razorpay.com/docs/api/payments/smart-collect/fetch-all: newest first, `count` ≤ 100 with `skip`. Only after a lost creation answer.
      for (let skip = 0; ; skip += PAGE) {
        const page = (await (await this.sdk()).virtualAccounts.all({ count: PAGE, skip })) as unknown as { items: RazorpayVirtualAccount[] };
        const mine = page.items.find((va) => !Array.isArray(va.notes) && va.notes?.agent_group_id === agentGroupId);
        if (mine) return virtualAccountOf(mine);
        if (page.items.length < PAGE) return undefined;
      }
    } catch (err) {
      throw err instanceof GatewayRejectedError ? err : mapped(err);
    }
  }

  async orderPayments(orderId: string): Promise<GatewayPayment[]> {
    try {
      // razorpay.com/docs/api/orders/fetch-payments: a collection of payment entities.
      const out = await (await this.sdk()).orders.fetchPayments(orderId);
      return out.items.map((p, i) => paymentOfEntity(p, `items[${i}]`));
    } catch (err) {
      throw mapped(err);
    }
  }

  async virtualAccountPayments(virtualAccountId: string, since: Date): Promise<GatewayPayment[]> {
    const payments: GatewayPayment[] = [];
    try {
      // razorpay.com/docs/api/payments/smart-collect/fetch-payments: `from` (Unix seconds), `count` ≤ 100, `skip`. The SDK's
      // virtualAccounts.fetchPayments sends no query, so its API client is called with the same path and the query.
      for (let skip = 0; ; skip += PAGE) {
        const page = (await (
          await this.sdk()
        ).api.get({
          url: `/virtual_accounts/${encodeURIComponent(virtualAccountId)}/payments`,
          data: { from: Math.floor(since.getTime() / 1000), count: PAGE, skip },
        })) as { items: unknown[] };
        payments.push(...page.items.map((p, i) => paymentOfEntity(p, `items[${skip + i}]`, virtualAccountId)));
        if (page.items.length < PAGE) return payments;
      }
    } catch (err) {
      throw err instanceof Error && err.name === 'ValidationError' ? err : mapped(err);
    }
  }

  async paymentsSince(since: Date): Promise<GatewayPayment[]> {
    const payments: GatewayPayment[] = [];
    try {
      // razorpay.com/docs/api/payments/fetch-all-payments: GET /payments, `from` (Unix seconds), `count` ≤ 100 with `skip`.
      for (let skip = 0; ; skip += PAGE) {
        const page = (await (await this.sdk()).payments.all({ from: Math.floor(since.getTime() / 1000), count: PAGE, skip })) as unknown as {
          items: unknown[];
        };
        payments.push(...page.items.map((p, i) => paymentOfEntity(p, `items[${skip + i}]`)));
        if (page.items.length < PAGE) return payments;
      }
    } catch (err) {
      throw err instanceof Error && err.name === 'ValidationError' ? err : mapped(err);
    }
  }

  async paymentRefunds(paymentId: string): Promise<GatewayRefund[]> {
    // razorpay.com/docs/api/refunds/fetch-multiple-refund-payment: GET /payments/:id/refunds, `count` ≤ 100 with `skip` (the SDK's refunds.all with payment_id).
    return this.refundPages({ payment_id: paymentId });
  }

  async refundsSince(since: Date): Promise<GatewayRefund[]> {
    // razorpay.com/docs/api/refunds/fetch-all: GET /refunds, `from` (Unix seconds), `count` ≤ 100 with `skip`.
    return this.refundPages({ from: Math.floor(since.getTime() / 1000) });
  }

  async disputesSince(since: Date): Promise<GatewayDispute[]> {
    // razorpay.com/docs/api/disputes/fetch-all: GET /disputes, a collection newest first (the sample), paged by the SDK's `count` and
    // `skip` (razorpay-node lib/resources/disputes.js sends only those): pages are read until one reaches a dispute created before `since`.
    const from = Math.floor(since.getTime() / 1000);
    const disputes: GatewayDispute[] = [];
    try {
      for (let skip = 0; ; skip += PAGE) {
        const page = (await (await this.sdk()).disputes.all({ count: PAGE, skip })) as unknown as { items: { created_at?: unknown }[] };
        disputes.push(...page.items.filter((d) => Number(d.created_at) >= from).map((d, i) => disputeOfEntity(d, `items[${skip + i}]`)));
        if (page.items.length < PAGE || page.items.some((d) => Number(d.created_at) < from)) return disputes;
      }
    } catch (err) {
      throw err instanceof Error && err.name === 'ValidationError' ? err : mapped(err);
    }
  }

  async dispute(disputeId: string): Promise<GatewayDispute> {
    try {
      // razorpay.com/docs/api/disputes/fetch: GET /disputes/:id, the dispute entity.
      return disputeOfEntity(await (await this.sdk()).disputes.fetch(disputeId), 'dispute');
    } catch (err) {
      throw err instanceof Error && err.name === 'ValidationError' ? err : mapped(err);
    }
  }

  async capturePayment(paymentId: string, amount: number, currency: string): Promise<GatewayPayment> {
    try {
      // razorpay.com/docs/api/payments/capture: POST /payments/:id/capture with `amount` (equal to the amount authorized) and `currency`; the captured payment entity.
      return paymentOfEntity(await (await this.sdk()).payments.capture(paymentId, amount, currency), 'payment');
    } catch (err) {
      throw err instanceof Error && err.name === 'ValidationError' ? err : mapped(err);
    }
  }

  async transferReference(paymentId: string): Promise<string | null> {
    try {
      // razorpay.com/docs/api/payments/smart-collect/fetch-payments-bank-transfer: GET /payments/:id/bank_transfer, the bank_transfer entity with `bank_reference`.
      const bt = (await (await this.sdk()).payments.bankTransfer(paymentId)) as unknown as { bank_reference?: unknown };
      return typeof bt.bank_reference === 'string' && /^[A-Za-z0-9/_-]{1,40}$/.test(bt.bank_reference) ? bt.bank_reference : null;
    } catch (err) {
      throw mapped(err);
    }
  }

  async createPaymentLink(request: PaymentLinkRequest): Promise<PaymentLink> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0)
      throw new RangeError(`a payment link needs a positive amount of paise, got ${request.amount}`);
    const sdk = await this.sdk().catch((err: unknown) => {
      throw mapped(err);
    });
    // A retry after a lost answer: the reference is taken (Razorpay refuses a second link for it), so the link made is looked up first.
    const found = await this.linkByReference(sdk, request.referenceId);
    if (found) return sameAmount(found, request);
    try {
      // razorpay.com/docs/api/payments/payment-links/create-standard: amount (subunits), currency, accept_partial (false: the whole amount),
      // reference_id (unique, ≤ 40), description, expire_by (Unix seconds), notify (we send our own e-mails), notes.
      return paymentLinkOf(
        await sdk.paymentLink.create({
          amount: request.amount,
          currency: request.currency,
          accept_partial: false,
          reference_id: request.referenceId,
          description: request.description.slice(0, 2048),
          expire_by: Math.floor(request.expireBy.getTime() / 1000),
          notify: { sms: false, email: false },
          reminder_enable: false,
          notes: request.notes,
        } as never),
      );
    } catch (err) {
      if (err instanceof Error && err.name === 'ValidationError') throw err;
      const refused = mapped(err);
      // Refreshes of one invoice racing ask for one reference at once: Razorpay makes the first and refuses the others (400, the reference taken).
      const raced = refused instanceof GatewayRejectedError && refused.httpStatus === 400 ? await this.linkByReference(sdk, request.referenceId) : undefined;
      if (raced) return sameAmount(raced, request);
      throw refused;
    }
  }

  async cancelPaymentLink(linkId: string): Promise<PaymentLink> {
    try {
      // razorpay.com/docs/api/payments/payment-links/cancel: POST /payment_links/:id/cancel, the cancelled link.
      return paymentLinkOf(await (await this.sdk()).paymentLink.cancel(linkId));
    } catch (err) {
      const refused = mapped(err);
      // Only a link still payable is cancelled: one already paid, cancelled or expired is answered as it stands.
      if (refused instanceof GatewayRejectedError && refused.httpStatus === 400) {
        const link = await this.paymentLink(linkId);
        if (link.status !== 'created' && link.status !== 'partially_paid') return link;
      }
      throw refused;
    }
  }

  async paymentLink(linkId: string): Promise<PaymentLink> {
    try {
      // razorpay.com/docs/api/payments/payment-links/fetch-id: GET /payment_links/:id.
      return paymentLinkOf(await (await this.sdk()).paymentLink.fetch(linkId));
    } catch (err) {
      throw err instanceof Error && err.name === 'ValidationError' ? err : mapped(err);
    }
  }

  /** razorpay.com/docs/api/payments/payment-links/fetch-all, Query Parameters `reference_id`: `{payment_links: [...]}`. */
  private async linkByReference(sdk: Razorpay, referenceId: string): Promise<PaymentLink | undefined> {
    try {
      const out = (await sdk.paymentLink.all({ reference_id: referenceId } as never)) as unknown as { payment_links?: unknown[] };
      const links = (out.payment_links ?? []).map((l, i) => paymentLinkOf(l, `payment_links[${i}]`));
      return links.find((l) => l.referenceId === referenceId);
    } catch (err) {
      throw err instanceof Error && err.name === 'ValidationError' ? err : mapped(err);
    }
  }

  private async refundPages(query: { payment_id?: string; from?: number }): Promise<GatewayRefund[]> {
    const refunds: GatewayRefund[] = [];
    try {
      for (let skip = 0; ; skip += PAGE) {
        const page = (await (await this.sdk()).refunds.all({ ...query, count: PAGE, skip } as never)) as unknown as { items: unknown[] };
        refunds.push(...page.items.map((r, i) => refundOfEntity(r, `items[${skip + i}]`)));
        if (page.items.length < PAGE) return refunds;
      }
    } catch (err) {
      throw err instanceof Error && err.name === 'ValidationError' ? err : mapped(err);
    }
  }
}

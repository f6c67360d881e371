import { createHash, randomBytes } from 'node:crypto';
import {
  GatewayRejectedError,
  type GatewayDispute,
  type GatewayOrder,
  type GatewayOrderRequest,
  type GatewayPayment,
  type GatewayRefund,
  type PaymentGateway,
  type PaymentLink,
  type VirtualAccount,
  type VirtualAccountRequest,
} from '../../domain/ports/payment-gateway.ts';
import { EVENT_ID_HEADER, hexSignature, RazorpayWebhooks, SIGNATURE_HEADER } from './razorpay-webhooks.ts';

/** A notification as a gateway sends it: the exact bytes and the headers that go with them. */
export interface SignedNotification {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Razorpay ids are 14 base62 characters after the prefix (razorpay.com/docs/api/orders/create, Response: `order_EKwxwAgItmmXdp`). */
const idOf = (seed: string): string => {
  const digest = createHash('sha256').update(seed).digest();
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  return Array.from(digest.subarray(0, 14), (b) => alphabet[b % 62]).join('');
};

/** A fresh payment id, as Razorpay mints one per payment. */
export const newPaymentId = (): string => `pay_${idOf(randomBytes(16).toString('hex'))}`;

/**
 * Signs one Razorpay event (razorpay.com/docs/webhooks/payments, sample payloads: `entity`
 * "event", `account_id`, `event`, `contains`, `payload.<entity>.entity`, `created_at`) with a
 * webhook secret, with the headers Razorpay sends (X-Razorpay-Signature, X-Razorpay-Event-Id).
 */
export function signedEvent(
  event: string,
  payload: Record<string, unknown>,
  secret: string,
  at: Date,
  eventId = `evt_${idOf(randomBytes(16).toString('hex'))}`,
): SignedNotification {
  const body = JSON.stringify({
    entity: 'event',
    account_id: 'acc_Sandbox0000001',
    event,
    contains: Object.keys(payload),
    payload,
    created_at: Math.floor(at.getTime() / 1000),
  });
  return { body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: hexSignature(body, secret), [EVENT_ID_HEADER]: eventId } };
}

/** razorpay.com/docs/api/payments, "Payment Entity" (the fields the service reads, and the ones Razorpay always sends beside them). */
export const paymentEntity = (p: { id: string; orderId: string | null; amount: number; currency: string; at: Date; method: string }) => ({
  id: p.id,
  entity: 'payment',
  amount: p.amount,
  currency: p.currency,
  status: 'captured',
  order_id: p.orderId,
  invoice_id: null,
  international: false,
  method: p.method,
  amount_refunded: 0,
  refund_status: null,
  captured: true,
  description: null,
  notes: [],
  created_at: Math.floor(p.at.getTime() / 1000),
});

/**
 * The payment gateway of local and sandbox stages (a sandbox adapter the project
 * owns, behind the same port as a real one), speaking Razorpay's wire format: `order_…` ids
 * derived from the receipt (so a retried issue never opens a second order for one invoice),
 * a virtual account derived from the group, and payments announced by the signed events
 * Razorpay sends. It keeps no payments of its own: reconciliation finds none here.
 */
export class SandboxPaymentGateway extends RazorpayWebhooks implements PaymentGateway {
  /** `secrets[0]` signs; every one of them verifies (a rotation's `<new>,<old>`). */
  constructor(private readonly webhookSecrets: readonly string[]) {
    super(webhookSecrets);
  }

  async createOrder(request: GatewayOrderRequest): Promise<GatewayOrder> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0)
      throw new RangeError(`a gateway order needs a positive amount of paise, got ${request.amount}`);
    return { orderId: `order_${idOf(`sandbox-order:${request.receipt}`)}`, receipt: request.receipt, amount: request.amount };
  }

  async createVirtualAccount(request: VirtualAccountRequest): Promise<VirtualAccount> {
    return sandboxVirtualAccount(request.agentGroupId);
  }

  async findVirtualAccount(agentGroupId: string): Promise<VirtualAccount | undefined> {
    return sandboxVirtualAccount(agentGroupId);
  }

  async orderPayments(): Promise<GatewayPayment[]> {
    return [];
  }

  async virtualAccountPayments(): Promise<GatewayPayment[]> {
    return [];
  }

  async paymentsSince(): Promise<GatewayPayment[]> {
    return [];
  }

  async paymentRefunds(): Promise<GatewayRefund[]> {
    return [];
  }

  async refundsSince(): Promise<GatewayRefund[]> {
    return [];
  }

  async disputesSince(): Promise<GatewayDispute[]> {
    return [];
  }

  /** The sandbox lists no disputes: Razorpay's answer for an id it does not know. */
  async dispute(disputeId: string): Promise<GatewayDispute> {
    throw new GatewayRejectedError('BAD_REQUEST_ERROR', `The id provided does not exist: ${disputeId}`, 400);
  }

  /** The sandbox lists no payments, so it holds none authorized: Razorpay's answer for an id it does not know. */
  async capturePayment(paymentId: string): Promise<GatewayPayment> {
    throw new GatewayRejectedError('BAD_REQUEST_ERROR', `The id provided does not exist: ${paymentId}`, 400);
  }

  /** The sandbox is asked for no payments, so never for a transfer's reference. */
  async transferReference(): Promise<string | null> {
    return null;
  }

  /** The sandbox has no hosted payment page: it makes no links (invoices there are paid by their order or by transfer). */
  async createPaymentLink(): Promise<PaymentLink> {
    throw new GatewayRejectedError('NOT_SUPPORTED', 'the sandbox gateway makes no payment links', 400);
  }

  async cancelPaymentLink(linkId: string): Promise<PaymentLink> {
    throw new GatewayRejectedError('BAD_REQUEST_ERROR', `The id provided does not exist: ${linkId}`, 400);
  }

  async paymentLink(linkId: string): Promise<PaymentLink> {
    throw new GatewayRejectedError('BAD_REQUEST_ERROR', `The id provided does not exist: ${linkId}`, 400);
  }

  /** What Razorpay sends when a partner pays `amount` paise against an order: `payment.captured`. */
  capture(orderId: string, amount: number, at: Date, paymentId = newPaymentId()): SignedNotification {
    return signedEvent(
      'payment.captured',
      { payment: { entity: paymentEntity({ id: paymentId, orderId, amount, currency: 'INR', at, method: 'upi' }) } },
      this.signingSecret(),
      at,
    );
  }

  /** What Razorpay sends when a bank transfer reaches a virtual account: `virtual_account.credited`. */
  credit(virtualAccountId: string, amount: number, utr: string, at: Date, paymentId = newPaymentId()): SignedNotification {
    const payment = paymentEntity({ id: paymentId, orderId: null, amount, currency: 'INR', at, method: 'bank_transfer' });
    return signedEvent(
      'virtual_account.credited',
      {
        payment: { entity: payment },
        virtual_account: { entity: { id: virtualAccountId, entity: 'virtual_account', status: 'active' } },
        bank_transfer: {
          entity: {
            id: `bt_${idOf(paymentId)}`,
            entity: 'bank_transfer',
            payment_id: paymentId,
            mode: 'NEFT',
            bank_reference: utr,
            amount,
            virtual_account_id: virtualAccountId,
          },
        },
      },
      this.signingSecret(),
      at,
    );
  }

  private signingSecret(): string {
    const secret = this.webhookSecrets[0];
    if (secret === undefined) throw new Error('the sandbox gateway has no webhook secret to sign with (RAZORPAY_WEBHOOK_SECRET)');
    return secret;
  }
}

/** A Smart Collect-shaped account (razorpay.com/docs/api/payments/smart-collect/create, Response: receivers[].account_number 16 digits, ifsc RATN0VAAPIS). */
function sandboxVirtualAccount(agentGroupId: string): VirtualAccount {
  const digits = BigInt(`0x${createHash('sha256').update(`sandbox-va:${agentGroupId}`).digest('hex').slice(0, 15)}`)
    .toString()
    .padStart(12, '0')
    .slice(-12);
  return {
    virtualAccountId: `va_${idOf(`sandbox-va:${agentGroupId}`)}`,
    accountNumber: `2223${digits}`,
    ifsc: 'RATN0VAAPIS',
    bankName: 'RBL Bank',
    beneficiaryName: 'Sandbox Holidays Pvt Ltd',
  };
}

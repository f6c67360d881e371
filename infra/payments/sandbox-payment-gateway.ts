import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { NotificationSignatureError, ValidationError } from '../../domain/errors.ts';
import type { GatewayOrder, GatewayOrderRequest, GatewayPaymentNotice, PaymentGateway, PaymentNotifications } from '../../domain/ports/payment-gateway.ts';

/** The header the sandbox gateway signs with, as real gateways name theirs. */
export const SANDBOX_SIGNATURE_HEADER = 'x-gateway-signature';

/** The only event the service acts on: money captured against an order. */
export const PAYMENT_CAPTURED = 'payment.captured';

/** A notification as the sandbox gateway sends it: the exact bytes and their signature. */
export interface SignedNotification {
  readonly body: string;
  readonly signature: string;
}

const signatureOf = (secret: Buffer, rawBody: string): string => createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');

/** A UTC instant whose calendar fields are real (Date.parse rolls 30 February over to March; the round trip catches it). */
const isIsoInstant = (s: unknown): s is string =>
  typeof s === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(s) && !Number.isNaN(Date.parse(s)) && new Date(s).toISOString().slice(0, 19) === s.slice(0, 19);

/**
 * The payment gateway of local and sandbox stages (a sandbox adapter the project
 * owns, behind the same port as a real one). Like a real gateway asked with an idempotent
 * receipt, it answers the same order for the same receipt: the order id is derived from it,
 * so a retried issue never opens a second order for one invoice. Payments against an order
 * are announced by a notification signed with HMAC-SHA256 of the raw body under the
 * webhook secret the gateway and the service share.
 */
export class SandboxPaymentGateway implements PaymentGateway, PaymentNotifications {
  readonly signatureHeader = SANDBOX_SIGNATURE_HEADER;

  constructor(private readonly webhookSecret: Buffer) {}

  async createOrder(request: GatewayOrderRequest): Promise<GatewayOrder> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0) throw new RangeError(`a gateway order needs a positive amount of paise, got ${request.amount}`);
    const id = createHash('sha256').update(`sandbox-order:${request.receipt}`).digest('base64url').slice(0, 14);
    return { orderId: `order_sbx_${id}`, receipt: request.receipt, amount: request.amount };
  }

  /**
   * What the gateway sends when a partner pays `amount` paise against an order: the body
   * (amounts in paise, as gateways send them) and its signature. A fresh payment id unless
   * one is given (a gateway re-sending the same payment sends the same id).
   */
  capture(orderId: string, amount: number, at: Date, paymentId = `pay_sbx_${randomBytes(9).toString('base64url')}`): SignedNotification {
    const body = JSON.stringify({ event: PAYMENT_CAPTURED, payment: { id: paymentId, orderId, amount, currency: 'INR', capturedAt: at.toISOString() } });
    return { body, signature: signatureOf(this.webhookSecret, body) };
  }

  readNotification(rawBody: string, signature: string | undefined): GatewayPaymentNotice {
    // Nothing in the body is read before the signature over its exact bytes holds; compared in constant time.
    const expected = Buffer.from(signatureOf(this.webhookSecret, rawBody), 'hex');
    const given = signature !== undefined && /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new NotificationSignatureError();
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      throw new ValidationError('body', 'The notification body must be JSON.');
    }
    const n = (parsed ?? {}) as { event?: unknown; payment?: Record<string, unknown> };
    if (n.event !== PAYMENT_CAPTURED) throw new ValidationError('event', `event must be ${PAYMENT_CAPTURED}; got ${JSON.stringify(n.event)}.`);
    const p = n.payment;
    if (typeof p !== 'object' || p === null) throw new ValidationError('payment', 'payment must be an object.');
    if (typeof p.id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(p.id)) throw new ValidationError('payment.id', 'payment.id must be the gateway payment id (1-64 letters, digits, _ or -).');
    if (typeof p.orderId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(p.orderId)) throw new ValidationError('payment.orderId', 'payment.orderId must be a gateway order id.');
    if (typeof p.amount !== 'number' || !Number.isSafeInteger(p.amount) || p.amount <= 0) throw new ValidationError('payment.amount', 'payment.amount must be a positive whole number of paise.');
    if (p.currency !== 'INR') throw new ValidationError('payment.currency', 'payment.currency must be INR.');
    if (!isIsoInstant(p.capturedAt)) throw new ValidationError('payment.capturedAt', 'payment.capturedAt must be an ISO 8601 UTC instant.');
    return { paymentId: p.id, orderId: p.orderId, amount: p.amount, capturedAt: new Date(p.capturedAt).toISOString() };
  }
}

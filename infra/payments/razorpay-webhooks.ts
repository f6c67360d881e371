import { createHmac, timingSafeEqual } from 'node:crypto';
// The SDK's own webhook check, from its module alone: the SDK's entry brings axios, whose start loads Node's fetch (docs/performance.md).
import { validateWebhookSignature } from 'razorpay/dist/utils/razorpay-utils.js';
import { NotificationSignatureError, ValidationError } from '../../domain/errors.ts';
import {
  wasCaptured,
  type GatewayDispute,
  type GatewayNotice,
  type GatewayPayment,
  type GatewayRefund,
  type PaymentLink,
  type PaymentNotifications,
} from '../../domain/ports/payment-gateway.ts';
import { DISPUTE_STATES } from '../../domain/receivables/payment.ts';

/**
 * Razorpay's webhook wire format, spoken by every stage (the sandbox gateway signs the same
 * envelope), so the one route `POST /gateway/notifications` serves them all.
 *
 * razorpay.com/docs/webhooks/integrations, "Validation": `X-Razorpay-Signature` is the hex
 * HMAC-SHA256 of the raw request body under the webhook secret; "Do not parse or cast the
 * webhook request body" before validating. razorpay.com/docs/webhooks/payloads/smart-collect,
 * "Watch Out!": after changing the secret, retries of older events are still signed with
 * the old one, so the previous secret is accepted while a rotation lasts.
 */
export const SIGNATURE_HEADER = 'x-razorpay-signature';
/** razorpay.com/docs/webhooks/best-practices, "Idempotency": the same event id on every redelivery of one event. */
export const EVENT_ID_HEADER = 'x-razorpay-event-id';

/**
 * The events acted on (razorpay.com/docs/webhooks/payments "Comparison: payment.captured vs
 * order.paid": both fire for one captured payment of an order; razorpay.com/docs/webhooks/smart-collect:
 * `virtual_account.credited` for a bank transfer into a virtual account). Every other event is answered 200 and ignored.
 */
export const PAYMENT_EVENTS = ['payment.captured', 'order.paid', 'virtual_account.credited'] as const;
/**
 * razorpay.com/docs/webhooks/payment-links, "Payment Link Paid": a link of ours paid; the payment's order (opened by Razorpay for
 * it) is then made its invoice's, so the order's own `payment.captured` and `order.paid` are its twins.
 */
export const LINK_PAID_EVENT = 'payment_link.paid';
/**
 * razorpay.com/docs/webhooks/payment-links (the events' table): `payment_link.cancelled` when a link is cancelled by the merchant
 * (on the dashboard, or by our own API cancel of a link we replaced), `payment_link.expired` when it passes `expire_by`; each
 * carries `payload.payment_link.entity` in the state it names. Only the link's `id` and `status` are read.
 */
export const LINK_ENDED_EVENTS = { 'payment_link.cancelled': 'cancelled', 'payment_link.expired': 'expired' } as const;
/**
 * razorpay.com/docs/webhooks/refunds, "List of Refunds Webhook Events": created, processed,
 * failed; each carries `payload.refund.entity` and `payload.payment.entity`. The refund's own
 * `status` says whether the money went back (a normal refund's `refund.created` sample is
 * already `processed`), so every one of them is read and the status decides.
 */
export const REFUND_EVENTS = ['refund.created', 'refund.processed', 'refund.failed'] as const;

/**
 * razorpay.com/docs/webhooks/disputes, "List of Disputes Webhook Events": created, won, lost,
 * closed, under_review, action_required; each carries `payload.payment.entity` and
 * `payload.dispute.entity`, whose `status` (open, under_review, won, lost, closed) is the state read.
 */
export const DISPUTE_EVENTS = [
  'payment.dispute.created',
  'payment.dispute.won',
  'payment.dispute.lost',
  'payment.dispute.closed',
  'payment.dispute.under_review',
  'payment.dispute.action_required',
] as const;

/** The shapes of Razorpay's ids as read here; the reference's GatewayNotification schema (functions/contracts/payments.ts) shows the same. */
export const PAYMENT_ID = /^pay_[A-Za-z0-9]{6,40}$/;
export const ORDER_ID = /^order_[A-Za-z0-9]{6,40}$/;
export const VA_ID = /^va_[A-Za-z0-9]{6,40}$/;
export const REFUND_ID = /^rfnd_[A-Za-z0-9]{6,40}$/;
export const DISPUTE_ID = /^disp_[A-Za-z0-9]{6,40}$/;
export const PAYMENT_LINK_ID = /^plink_[A-Za-z0-9]+$/;
export const PAYMENT_LINK_STATES = ['created', 'partially_paid', 'paid', 'cancelled', 'expired'] as const;

/** A Payment Link entity (razorpay.com/docs/api/payments/payment-links/entity), read strictly. */
export function paymentLinkOf(e: unknown, at = 'payment_link'): PaymentLink {
  const l = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
  if (typeof l.id !== 'string' || !PAYMENT_LINK_ID.test(l.id)) throw new ValidationError(`${at}.id`, `${at}.id must be a Razorpay Payment Link id (plink_…).`);
  if (typeof l.short_url !== 'string' || !/^https:\/\//.test(l.short_url))
    throw new ValidationError(`${at}.short_url`, `${at}.short_url must be an https URL.`);
  if (typeof l.amount !== 'number' || !Number.isSafeInteger(l.amount) || l.amount <= 0)
    throw new ValidationError(`${at}.amount`, `${at}.amount must be a positive whole number of subunits (paise).`);
  if (typeof l.status !== 'string' || !(PAYMENT_LINK_STATES as readonly string[]).includes(l.status))
    throw new ValidationError(`${at}.status`, `${at}.status must be a documented Payment Link state.`);
  return {
    linkId: l.id,
    shortUrl: l.short_url,
    referenceId: typeof l.reference_id === 'string' ? l.reference_id : '',
    amount: l.amount,
    status: l.status,
    orderId: typeof l.order_id === 'string' && l.order_id !== '' ? l.order_id : null,
  };
}

export const hexSignature = (rawBody: string, secret: string): string => createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');

/**
 * A Razorpay payment entity (razorpay.com/docs/api/payments "Payment Entity": `id`, `amount`
 * in the currency's subunit, `currency`, `status`, `order_id`, `method`, `created_at` in Unix
 * seconds), read strictly: `at` names the JSON path for the 400.
 */
export function paymentOfEntity(e: unknown, at: string, virtualAccountId: string | null = null, bankReference: string | null = null): GatewayPayment {
  if (typeof e !== 'object' || e === null) throw new ValidationError(at, `${at} must be a payment entity.`);
  const p = e as Record<string, unknown>;
  if (typeof p.id !== 'string' || !PAYMENT_ID.test(p.id)) throw new ValidationError(`${at}.id`, `${at}.id must be a Razorpay payment id (pay_…).`);
  if (p.order_id !== null && p.order_id !== undefined && (typeof p.order_id !== 'string' || !ORDER_ID.test(p.order_id)))
    throw new ValidationError(`${at}.order_id`, `${at}.order_id must be a Razorpay order id (order_…) or null.`);
  if (typeof p.amount !== 'number' || !Number.isSafeInteger(p.amount) || p.amount <= 0)
    throw new ValidationError(`${at}.amount`, `${at}.amount must be a positive whole number of subunits (paise).`);
  if (typeof p.currency !== 'string' || !/^[A-Z]{3}$/.test(p.currency)) throw new ValidationError(`${at}.currency`, `${at}.currency must be an ISO 4217 code.`);
  if (typeof p.status !== 'string' || p.status === '') throw new ValidationError(`${at}.status`, `${at}.status must be the payment's status.`);
  if (typeof p.created_at !== 'number' || !Number.isSafeInteger(p.created_at) || p.created_at <= 0)
    throw new ValidationError(`${at}.created_at`, `${at}.created_at must be a Unix timestamp in seconds.`);
  const refunded = p.amount_refunded ?? 0;
  if (typeof refunded !== 'number' || !Number.isSafeInteger(refunded) || refunded < 0 || refunded > p.amount)
    throw new ValidationError(`${at}.amount_refunded`, `${at}.amount_refunded must be a whole number of subunits between 0 and the amount.`);
  return {
    paymentId: p.id,
    orderId: typeof p.order_id === 'string' ? p.order_id : null,
    virtualAccountId,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    amountRefunded: refunded,
    createdAt: new Date(p.created_at * 1000).toISOString(),
    bankReference,
  };
}

/** A Razorpay refund entity (razorpay.com/docs/api/refunds, "Refunds Entity": `id`, `payment_id`, `amount`, `currency`, `status`, `created_at`), read strictly. */
export function refundOfEntity(e: unknown, at: string): GatewayRefund {
  if (typeof e !== 'object' || e === null) throw new ValidationError(at, `${at} must be a refund entity.`);
  const r = e as Record<string, unknown>;
  if (typeof r.id !== 'string' || !REFUND_ID.test(r.id)) throw new ValidationError(`${at}.id`, `${at}.id must be a Razorpay refund id (rfnd_…).`);
  if (typeof r.payment_id !== 'string' || !PAYMENT_ID.test(r.payment_id))
    throw new ValidationError(`${at}.payment_id`, `${at}.payment_id must be a Razorpay payment id (pay_…).`);
  if (typeof r.amount !== 'number' || !Number.isSafeInteger(r.amount) || r.amount <= 0)
    throw new ValidationError(`${at}.amount`, `${at}.amount must be a positive whole number of subunits (paise).`);
  if (typeof r.currency !== 'string' || !/^[A-Z]{3}$/.test(r.currency)) throw new ValidationError(`${at}.currency`, `${at}.currency must be an ISO 4217 code.`);
  if (typeof r.status !== 'string' || r.status === '') throw new ValidationError(`${at}.status`, `${at}.status must be the refund's status.`);
  if (typeof r.created_at !== 'number' || !Number.isSafeInteger(r.created_at) || r.created_at <= 0)
    throw new ValidationError(`${at}.created_at`, `${at}.created_at must be a Unix timestamp in seconds.`);
  return {
    refundId: r.id,
    paymentId: r.payment_id,
    amount: r.amount,
    currency: r.currency,
    status: r.status,
    createdAt: new Date(r.created_at * 1000).toISOString(),
  };
}

/** A Razorpay dispute entity (razorpay.com/docs/api/disputes/entity), read strictly; `status` one of the documented states. */
export function disputeOfEntity(e: unknown, at: string): GatewayDispute {
  if (typeof e !== 'object' || e === null) throw new ValidationError(at, `${at} must be a dispute entity.`);
  const d = e as Record<string, unknown>;
  const whole = (v: unknown, min: number) => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;
  if (typeof d.id !== 'string' || !DISPUTE_ID.test(d.id)) throw new ValidationError(`${at}.id`, `${at}.id must be a Razorpay dispute id (disp_…).`);
  if (typeof d.payment_id !== 'string' || !PAYMENT_ID.test(d.payment_id))
    throw new ValidationError(`${at}.payment_id`, `${at}.payment_id must be a Razorpay payment id (pay_…).`);
  if (!whole(d.amount, 1)) throw new ValidationError(`${at}.amount`, `${at}.amount must be a positive whole number of subunits (paise).`);
  if (!whole(d.amount_deducted, 0) || (d.amount_deducted as number) > (d.amount as number))
    throw new ValidationError(`${at}.amount_deducted`, `${at}.amount_deducted must be a whole number of subunits between 0 and the amount.`);
  if (typeof d.currency !== 'string' || !/^[A-Z]{3}$/.test(d.currency)) throw new ValidationError(`${at}.currency`, `${at}.currency must be an ISO 4217 code.`);
  if (typeof d.status !== 'string' || !(DISPUTE_STATES as readonly string[]).includes(d.status))
    throw new ValidationError(`${at}.status`, `${at}.status must be one of ${DISPUTE_STATES.join(', ')}.`);
  if (!whole(d.created_at, 1)) throw new ValidationError(`${at}.created_at`, `${at}.created_at must be a Unix timestamp in seconds.`);
  if (!whole(d.respond_by, 1)) throw new ValidationError(`${at}.respond_by`, `${at}.respond_by must be a Unix timestamp in seconds.`);
  return {
    disputeId: d.id,
    paymentId: d.payment_id,
    amount: d.amount as number,
    amountDeducted: d.amount_deducted as number,
    currency: d.currency,
    status: d.status,
    phase: typeof d.phase === 'string' ? d.phase : '',
    reasonCode: typeof d.reason_code === 'string' ? d.reason_code : '',
    respondBy: new Date((d.respond_by as number) * 1000).toISOString(),
    createdAt: new Date((d.created_at as number) * 1000).toISOString(),
  };
}

/**
 * Verifies with the SDK's own `validateWebhookSignature` under each secret in turn (current,
 * then previous during a rotation). The SDK compares with `===`; the constant-time comparison
 * in front of it keeps the verdict free of timing, and the SDK's is then the documented check.
 */
function verified(rawBody: string, signature: string | undefined, secrets: readonly string[]): boolean {
  if (signature === undefined || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  let ok = false;
  for (const secret of secrets) {
    const matches = timingSafeEqual(Buffer.from(hexSignature(rawBody, secret), 'hex'), given) && validateWebhookSignature(rawBody, signature, secret);
    ok = ok || matches;
  }
  return ok;
}

/** Reads Razorpay's event envelope after the signature holds; shared by the sandbox and the Razorpay adapter. */
export class RazorpayWebhooks implements PaymentNotifications {
  readonly signatureHeader = SIGNATURE_HEADER;
  readonly eventIdHeader = EVENT_ID_HEADER;

  /** `secrets`: the current webhook secret, then the previous one while it rotates. None: every notification is refused. */
  constructor(private readonly secrets: readonly string[]) {}

  readNotification(rawBody: string, signature: string | undefined, eventIdHeader: string | undefined): GatewayNotice {
    if (!verified(rawBody, signature, this.secrets)) throw new NotificationSignatureError();
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      throw new ValidationError('body', 'The notification body must be JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new ValidationError('body', 'The notification body must be a JSON object (the event envelope).');
    // Envelope: razorpay.com/docs/webhooks/payments, sample payloads: {entity:"event", account_id, event, contains[], payload{…}, created_at}.
    const n = parsed as { event?: unknown; payload?: Record<string, { entity?: unknown } | undefined> };
    if (typeof n.event !== 'string' || n.event === '') throw new ValidationError('event', 'event must name the Razorpay event.');
    const eventId = eventIdHeader !== undefined && /^[A-Za-z0-9_-]{1,64}$/.test(eventIdHeader) ? eventIdHeader : null;
    const refundEvent = (REFUND_EVENTS as readonly string[]).includes(n.event);
    const disputeEvent = (DISPUTE_EVENTS as readonly string[]).includes(n.event);
    const authorizedEvent = n.event === 'payment.authorized';
    const linkEvent = n.event === LINK_PAID_EVENT;
    const endedState = Object.hasOwn(LINK_ENDED_EVENTS, n.event) ? LINK_ENDED_EVENTS[n.event as keyof typeof LINK_ENDED_EVENTS] : null;
    if (!refundEvent && !disputeEvent && !authorizedEvent && !linkEvent && !endedState && !(PAYMENT_EVENTS as readonly string[]).includes(n.event))
      return { kind: 'ignored', event: n.event, eventId };
    const payload = n.payload;
    if (typeof payload !== 'object' || payload === null) throw new ValidationError('payload', 'payload must hold the event entities.');
    if (authorizedEvent) {
      // razorpay.com/docs/webhooks/payments, "payment.authorized": the payment entity, `status: authorized` until captured.
      const payment = paymentOfEntity(payload.payment?.entity, 'payload.payment.entity');
      return payment.status === 'authorized' && payment.orderId !== null
        ? { kind: 'authorized', event: n.event, eventId, payment }
        : { kind: 'ignored', event: n.event, eventId };
    }
    if (endedState) {
      const at = 'payload.payment_link.entity';
      const l = payload.payment_link?.entity as { id?: unknown; status?: unknown } | undefined;
      if (typeof l !== 'object' || l === null) throw new ValidationError(at, `${at} must be the Payment Link.`);
      if (typeof l.id !== 'string' || !PAYMENT_LINK_ID.test(l.id))
        throw new ValidationError(`${at}.id`, `${at}.id must be a Razorpay Payment Link id (plink_…).`);
      if (l.status !== endedState) throw new ValidationError(`${at}.status`, `${at}.status must be ${endedState} with ${n.event}.`);
      return { kind: 'link-ended', event: n.event, eventId, linkId: l.id };
    }
    if (linkEvent) {
      // razorpay.com/docs/webhooks/payment-links, "Payment Link Paid": payload.{payment_link, order, payment}.entity; the link's
      // `order_id` is the order Razorpay opened for the payment, which the payment entity names too.
      const link = paymentLinkOf(payload.payment_link?.entity, 'payload.payment_link.entity');
      const payment = paymentOfEntity(payload.payment?.entity, 'payload.payment.entity');
      if (link.orderId === null)
        throw new ValidationError(
          'payload.payment_link.entity.order_id',
          'payload.payment_link.entity.order_id must name the order Razorpay opened for the payment.',
        );
      if (payment.orderId !== link.orderId)
        throw new ValidationError('payload.payment.entity.order_id', "payload.payment.entity.order_id must be the link's order_id.");
      return wasCaptured(payment) ? { kind: 'link-paid', event: n.event, eventId, payment, linkId: link.linkId } : { kind: 'ignored', event: n.event, eventId };
    }
    if (disputeEvent) {
      const dispute = disputeOfEntity(payload.dispute?.entity, 'payload.dispute.entity');
      const disputed = paymentOfEntity(payload.payment?.entity, 'payload.payment.entity');
      if (disputed.paymentId !== dispute.paymentId)
        throw new ValidationError('payload.payment.entity.id', 'payload.payment.entity.id must be the payment the dispute names (payment_id).');
      return { kind: 'dispute', event: n.event, eventId, dispute, payment: disputed };
    }
    if (refundEvent) {
      const refund = refundOfEntity(payload.refund?.entity, 'payload.refund.entity');
      const refunded = paymentOfEntity(payload.payment?.entity, 'payload.payment.entity');
      if (refunded.paymentId !== refund.paymentId)
        throw new ValidationError('payload.payment.entity.id', 'payload.payment.entity.id must be the payment the refund names (payment_id).');
      // razorpay.com/docs/webhooks/refunds, "Identify Auto-Refunds": `captured` false is a payment never captured, so never ours to give back.
      if ((payload.payment?.entity as { captured?: unknown } | undefined)?.captured === false) return { kind: 'ignored', event: n.event, eventId };
      return { kind: 'refund', event: n.event, eventId, refund, payment: refunded };
    }
    let virtualAccountId: string | null = null;
    let bankReference: string | null = null;
    if (n.event === 'virtual_account.credited') {
      // razorpay.com/docs/webhooks/smart-collect, "Virtual Account Credited": payload.{payment, virtual_account, bank_transfer}.entity.
      const va = payload.virtual_account?.entity as { id?: unknown } | undefined;
      if (typeof va?.id !== 'string' || !VA_ID.test(va.id))
        throw new ValidationError('payload.virtual_account.entity.id', 'payload.virtual_account.entity.id must be a Razorpay virtual account id (va_…).');
      virtualAccountId = va.id;
      const ref = (payload.bank_transfer?.entity as { bank_reference?: unknown } | undefined)?.bank_reference;
      bankReference = typeof ref === 'string' && /^[A-Za-z0-9/_-]{1,40}$/.test(ref) ? ref : null;
    }
    const payment = paymentOfEntity(payload.payment?.entity, 'payload.payment.entity', virtualAccountId, bankReference);
    if (!wasCaptured(payment)) return { kind: 'ignored', event: n.event, eventId };
    // A Smart Collect transfer is announced twice (razorpay.com/docs/payments/smart-collect, payment.captured with
    // `method` bank_transfer and no order, and virtual_account.credited): only the twin that names the account is taken.
    if (n.event === 'payment.captured' && payment.orderId === null && (payload.payment?.entity as { method?: unknown } | undefined)?.method === 'bank_transfer')
      return { kind: 'ignored', event: n.event, eventId };
    return { kind: 'payment', event: n.event, eventId, payment };
  }
}

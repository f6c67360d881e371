import * as v from 'valibot';
import { DISPUTE_STATES } from '../../domain/receivables/payment.ts';
import {
  DISPUTE_EVENTS,
  DISPUTE_ID,
  EVENT_ID_HEADER,
  LINK_ENDED_EVENTS,
  LINK_PAID_EVENT,
  ORDER_ID,
  PAYMENT_EVENTS,
  PAYMENT_ID,
  PAYMENT_LINK_ID,
  PAYMENT_LINK_STATES,
  REFUND_EVENTS,
  REFUND_ID,
  SIGNATURE_HEADER,
  VA_ID,
} from '../../infra/payments/razorpay-webhooks.ts';
import { defineRoute } from '../http/route.ts';
import { ErrorBodySchema } from './common.ts';

/**
 * Razorpay's webhook body, as read by infra/payments/razorpay-webhooks.ts: every object is loose,
 * since Razorpay sends many fields not read here (card, notes, fee, account_id…) and may add more;
 * the fields listed are the ones read, each checked strictly (a missing or ill-typed one is a 400
 * naming it; test/unit/openapi-examples.test.ts holds the two together).
 */
const CURRENCY = v.pipe(v.string(), v.regex(/^[A-Z]{3}$/), v.description('ISO 4217; anything but INR is kept unmatched.'));
const UNIX = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.description(`${what}, in Unix seconds.`));
const PAISE = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what));
const id = (shape: RegExp, what: string) => v.pipe(v.string(), v.regex(shape), v.description(what));
/** `{entity}`: how Razorpay wraps each object of a payload. */
const wrapped = <S extends v.GenericSchema>(entity: S, what: string, when: string) =>
  v.optional(v.pipe(v.looseObject({ entity: v.pipe(entity, v.description(what)) }), v.description(when)));

/** razorpay.com/docs/api/payments, "Payment Entity". */
const PaymentEntitySchema = v.looseObject({
  id: id(PAYMENT_ID, "Razorpay's payment id (pay_…): a payment announced again under the same id is recorded once."),
  order_id: v.optional(
    v.pipe(
      v.nullable(v.pipe(v.string(), v.regex(ORDER_ID))),
      v.description("The order paid: an invoice's gatewayOrderId (null or absent for a bank transfer)."),
    ),
  ),
  amount: PAISE('Paise (the currency subunit).'),
  currency: CURRENCY,
  status: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Only money captured is taken: `captured`, or `refunded` since (its refunds then move it back); `authorized` with payment.authorized.'),
  ),
  amount_refunded: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Paise refunded of it so far, at most the amount.'))),
  method: v.optional(
    v.pipe(v.string(), v.description('`bank_transfer` without an order: a Smart Collect transfer, taken from its virtual_account.credited twin.')),
  ),
  captured: v.optional(v.pipe(v.boolean(), v.description('false on a refund event: an auto-refund of a payment never captured, ignored.'))),
  created_at: UNIX('When the payment was made'),
});

/** razorpay.com/docs/webhooks/payments (sample payloads), .../refunds, .../disputes, .../payment-links and .../smart-collect ("Virtual Account Credited"). */
export const GatewayNotificationSchema = v.looseObject({
  entity: v.optional(v.pipe(v.literal('event'), v.description('Always event; not read.'))),
  event: v.pipe(
    v.string(),
    v.minLength(1),
    v.description(
      `Acted on: ${[...PAYMENT_EVENTS, ...REFUND_EVENTS, ...DISPUTE_EVENTS, 'payment.authorized', LINK_PAID_EVENT, ...Object.keys(LINK_ENDED_EVENTS)].join(', ')}. Any other event is answered 200 IGNORED without reading payload.`,
    ),
  ),
  contains: v.optional(v.pipe(v.array(v.string()), v.description('The kinds of object in payload, such as payment; not read.'))),
  payload: v.pipe(
    v.looseObject({
      payment: wrapped(PaymentEntitySchema, 'The payment.', 'With every event acted on.'),
      refund: wrapped(
        v.looseObject({
          id: id(REFUND_ID, "Razorpay's refund id (rfnd_…): a refund announced again under the same id moves money once."),
          payment_id: id(PAYMENT_ID, 'The refunded payment (pay_…), the one in payload.payment.'),
          amount: PAISE('Paise refunded.'),
          currency: CURRENCY,
          status: v.pipe(v.string(), v.minLength(1), v.description('Only `processed` moves money; `pending` and `failed` are answered IGNORED.')),
          created_at: UNIX('When the refund was made'),
        }),
        'The refund.',
        'With refund events.',
      ),
      dispute: wrapped(
        v.looseObject({
          id: id(DISPUTE_ID, "Razorpay's dispute id (disp_…): each of its states is applied once."),
          payment_id: id(PAYMENT_ID, 'The disputed payment (pay_…), the one in payload.payment.'),
          amount: PAISE('Paise disputed.'),
          amount_deducted: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Paise deducted when lost (0 before), at most the amount.')),
          currency: CURRENCY,
          status: v.pipe(
            v.picklist(DISPUTE_STATES),
            v.description('`lost` gives the amount deducted back as a refund does; the others flag or clear the invoice for operators.'),
          ),
          phase: v.optional(v.pipe(v.string(), v.description('The dispute phase, kept for operators.'))),
          reason_code: v.optional(v.pipe(v.string(), v.description("The network's reason, kept for operators."))),
          respond_by: UNIX('The deadline to contest the dispute'),
          created_at: UNIX('When the dispute was opened'),
        }),
        'The dispute.',
        'With dispute events.',
      ),
      payment_link: wrapped(
        v.looseObject({
          id: id(PAYMENT_LINK_ID, 'Our Payment Link (plink_…) of an invoice.'),
          short_url: v.optional(v.pipe(v.string(), v.regex(/^https:\/\//), v.description(`The link as sent to the payer; read with ${LINK_PAID_EVENT}.`))),
          amount: v.optional(PAISE(`Paise asked; read with ${LINK_PAID_EVENT}.`)),
          status: v.pipe(
            v.picklist(PAYMENT_LINK_STATES),
            v.description("The link's state: `cancelled` with payment_link.cancelled, `expired` with payment_link.expired."),
          ),
          order_id: v.optional(
            v.pipe(
              v.string(),
              v.regex(ORDER_ID),
              v.description(`The order Razorpay opened for the payment, the one payload.payment names; read with ${LINK_PAID_EVENT}.`),
            ),
          ),
          reference_id: v.optional(v.pipe(v.string(), v.description('Our reference on the link.'))),
        }),
        'The Payment Link.',
        `With ${LINK_PAID_EVENT}, payment_link.cancelled and payment_link.expired.`,
      ),
      virtual_account: wrapped(
        v.looseObject({ id: id(VA_ID, "The virtual account credited (va_…): a group's.") }),
        'The virtual account.',
        'With virtual_account.credited.',
      ),
      bank_transfer: wrapped(
        v.looseObject({ bank_reference: v.optional(v.pipe(v.string(), v.description("The bank's reference (UTR), kept with the payment when it is one."))) }),
        'The bank transfer.',
        'With virtual_account.credited: the transfer that credited it.',
      ),
    }),
    v.description('The objects the event is about: those read are listed; Razorpay sends others (order, …), not read.'),
  ),
  created_at: v.optional(UNIX('When Razorpay raised the event; not read')),
});

export const GatewayNotificationReplySchema = v.object({
  outcome: v.pipe(
    v.picklist(['RECORDED', 'REFUNDED', 'DISPUTED', 'LINK_ENDED', 'DUPLICATE', 'UNMATCHED', 'IGNORED']),
    v.description(
      "RECORDED: a new payment. REFUNDED: a processed refund, posted once (the group owes it again). DISPUTED: a new state of a dispute (a lost one given back once, as a refund is). LINK_ENDED: the invoice's pay link expired or was cancelled on the dashboard: the invoice's payLink is cleared (null) at once, and the hourly refresh makes a new one while it owes. DUPLICATE: this payment id (or refund id, or dispute state) was recorded before, or a later dispute state was (nothing moved again); for an ended link, it is no longer the invoice's (replaced). UNMATCHED: the payment names an order or virtual account that is not ours, or is not in INR: kept for operators (`payments unmatched`), nothing posted; for a refund, the refunded payment is no group's; for an ended link, it is none of ours. IGNORED: an event not acted on, a payment not captured, a bank transfer's payment.captured (its virtual_account.credited twin records it), or a refund not processed.",
    ),
  ),
  event: v.pipe(v.string(), v.description('The event received, as sent.')),
  paymentId: v.pipe(v.nullable(v.string()), v.description('The payment (pay_…) the event is about; null when it names none.')),
  invoiceId: v.pipe(
    v.nullable(v.string()),
    v.description(
      "The invoice whose Razorpay order the payment paid (for a refund or dispute, its payment's); null for a bank transfer or when nothing matched.",
    ),
  ),
  refundId: v.pipe(v.nullable(v.string()), v.description('The refund (rfnd_…) of a refund event; null otherwise.')),
  disputeId: v.pipe(v.nullable(v.string()), v.description('The dispute (disp_…) of a dispute event; null otherwise.')),
  duplicate: v.pipe(v.boolean(), v.description('True when this payment was already recorded (or kept): nothing moved again.')),
});

export const gatewayNotificationRoute = defineRoute({
  operationId: 'receiveGatewayNotification',
  method: 'POST',
  path: '/gateway/notifications',
  auth: 'none',
  summary: "Razorpay's webhook (every stage: the sandbox gateway speaks the same format)",
  description:
    `Called by Razorpay, not by partners: no API key, no rate limit. The \`${SIGNATURE_HEADER}\` header must hold the hex HMAC-SHA256 of the exact raw body under the webhook secret ` +
    '(the current one, or the previous one while it rotates), checked before anything in the body is read. ' +
    `\`${EVENT_ID_HEADER}\` is kept with the payment. A captured payment of an invoice's order becomes one POSTED PAYMENT ledger entry of its group, allocated to that invoice first, ` +
    "then to the group's other open invoices oldest due date first; a bank transfer into a group's virtual account is allocated oldest due first; what is left stays as unallocated credit. " +
    'The same payment id announced again (payment.captured, then order.paid, or a redelivery), concurrently or later, is answered 200 `DUPLICATE` and records nothing. ' +
    "A processed refund (refund.created, .processed or .failed: the refund's own status decides) posts one ADJUSTMENT of its amount and takes it back from the group's credit, " +
    "then from the invoices the payment paid (the payment's invoice first), which owe it again; once per refund id. " +
    "A dispute's state is applied once and never after a later one; a lost dispute gives its amount deducted back as a refund does, once per dispute id. " +
    "An invoice's pay link that Razorpay reports expired or cancelled (payment_link.expired, payment_link.cancelled) is cleared from the invoice at once (`LINK_ENDED`); the hourly refresh makes a new one while the invoice owes.",
  tags: ['Payments'],
  rawBody: GatewayNotificationSchema,
  responses: {
    200: { description: 'Recorded, already recorded, kept for operators, or ignored: Razorpay stops retrying.', schema: GatewayNotificationReplySchema },
    400: {
      description:
        'The signature is missing or does not match the raw body (`param` names the header), or the signed body is not a Razorpay event (`param` names the field). Nothing is recorded.',
      schema: ErrorBodySchema,
    },
  },
});

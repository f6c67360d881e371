import * as v from 'valibot';
import { DISPUTE_EVENTS, EVENT_ID_HEADER, PAYMENT_EVENTS, REFUND_EVENTS, SIGNATURE_HEADER } from '../../infra/payments/razorpay-webhooks.ts';
import { defineRoute } from '../http/route.ts';
import { ErrorBodySchema } from './common.ts';

/** razorpay.com/docs/api/payments, "Payment Entity": the fields read (Razorpay sends many more, ignored). */
const CURRENCY = v.pipe(v.string(), v.description('ISO 4217; anything but INR is kept unmatched.'));
const UNIX = (what: string) => v.pipe(v.number(), v.integer(), v.description(`${what}, in Unix seconds.`));
/** `{entity}`: how Razorpay wraps each object of a payload. */
const wrapped = <S extends v.GenericSchema>(entity: S, what: string) => v.object({ entity: v.pipe(entity, v.description(what)) });

const PaymentEntitySchema = v.object({
  id: v.pipe(v.string(), v.description("Razorpay's payment id (pay_…): a payment announced again under the same id is recorded once.")),
  order_id: v.pipe(v.nullable(v.string()), v.description("The order paid: an invoice's gatewayOrderId (null for a bank transfer).")),
  amount: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Paise (the currency subunit).')),
  currency: CURRENCY,
  status: v.pipe(v.string(), v.description('Only money captured is taken: `captured`, or `refunded` since (its refunds then move it back).')),
  amount_refunded: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Paise refunded of it so far.'))),
  created_at: UNIX('When the payment was made'),
});

/** razorpay.com/docs/webhooks/payments (sample payloads) and razorpay.com/docs/webhooks/smart-collect ("Virtual Account Credited"). */
export const GatewayNotificationSchema = v.object({
  entity: v.pipe(v.literal('event'), v.description('Always event.')),
  event: v.pipe(
    v.string(),
    v.description(`Acted on: ${[...PAYMENT_EVENTS, ...REFUND_EVENTS, ...DISPUTE_EVENTS].join(', ')}. Any other event is answered 200 and ignored.`),
  ),
  contains: v.pipe(v.array(v.string()), v.description('The kinds of object in payload, such as payment.')),
  payload: v.pipe(
    v.object({
      payment: v.optional(v.pipe(wrapped(PaymentEntitySchema, 'The payment.'), v.description('With payment and virtual_account events.'))),
      refund: v.optional(
        v.pipe(
          wrapped(
            v.object({
              id: v.pipe(v.string(), v.description("Razorpay's refund id (rfnd_…): a refund announced again under the same id moves money once.")),
              payment_id: v.pipe(v.string(), v.description('The refunded payment (pay_…).')),
              amount: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Paise refunded.')),
              currency: CURRENCY,
              status: v.pipe(v.string(), v.description('Only `processed` moves money; `pending` and `failed` are answered IGNORED.')),
              created_at: UNIX('When the refund was made'),
            }),
            'The refund.',
          ),
          v.description('With refund events.'),
        ),
      ),
      dispute: v.optional(
        v.pipe(
          wrapped(
            v.object({
              id: v.pipe(v.string(), v.description("Razorpay's dispute id (disp_…): each of its states is applied once.")),
              payment_id: v.pipe(v.string(), v.description('The disputed payment (pay_…).')),
              amount: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Paise disputed.')),
              amount_deducted: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Paise deducted when lost (0 before).')),
              currency: CURRENCY,
              status: v.pipe(
                v.picklist(['open', 'under_review', 'won', 'lost', 'closed']),
                v.description('`lost` gives the amount deducted back as a refund does; the others flag or clear the invoice for operators.'),
              ),
              respond_by: UNIX('The deadline to contest the dispute'),
              created_at: UNIX('When the dispute was opened'),
            }),
            'The dispute.',
          ),
          v.description('With dispute events.'),
        ),
      ),
      virtual_account: v.optional(
        v.pipe(
          wrapped(
            v.object({ id: v.pipe(v.string(), v.description('The virtual account credited (va_…), for virtual_account.credited.')) }),
            'The virtual account.',
          ),
          v.description('With virtual_account.credited.'),
        ),
      ),
      bank_transfer: v.optional(
        v.pipe(
          wrapped(v.object({ bank_reference: v.pipe(v.string(), v.description("The bank's reference (UTR).")) }), 'The bank transfer.'),
          v.description('With virtual_account.credited: the transfer that credited it.'),
        ),
      ),
    }),
    v.description('The objects the event is about; only those read are described.'),
  ),
  created_at: UNIX('When Razorpay raised the event'),
});

export const GatewayNotificationReplySchema = v.object({
  outcome: v.pipe(
    v.picklist(['RECORDED', 'REFUNDED', 'DISPUTED', 'DUPLICATE', 'UNMATCHED', 'IGNORED']),
    v.description(
      "RECORDED: a new payment. REFUNDED: a processed refund, posted once (the group owes it again). DISPUTED: a new state of a dispute (a lost one given back once, as a refund is). DUPLICATE: this payment id (or refund id, or dispute state) was recorded before, or a later dispute state was (nothing moved again). UNMATCHED: the payment names an order or virtual account that is not ours, or is not in INR: kept for operators (`payments unmatched`), nothing posted; for a refund, the refunded payment is no group's. IGNORED: an event not acted on, a payment not captured, a bank transfer's payment.captured (its virtual_account.credited twin records it), or a refund not processed.",
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
    "A dispute's state is applied once and never after a later one; a lost dispute gives its amount deducted back as a refund does, once per dispute id.",
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

import * as v from 'valibot';
import { SANDBOX_SIGNATURE_HEADER, PAYMENT_CAPTURED } from '../../infra/payments/sandbox-payment-gateway.ts';
import { defineRoute } from '../http/route.ts';
import { DateTimeSchema, ErrorBodySchema } from './common.ts';

export const GatewayNotificationSchema = v.object({
  event: v.pipe(v.literal(PAYMENT_CAPTURED), v.description('The only event acted on.')),
  payment: v.object({
    id: v.pipe(v.string(), v.description("The gateway's payment id: a payment announced again under the same id is recorded once.")),
    orderId: v.pipe(v.string(), v.description("The gateway order paid: the invoice's gatewayOrderId.")),
    amount: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Paise captured (gateways send minor units).')),
    currency: v.literal('INR'),
    capturedAt: DateTimeSchema,
  }),
});

export const GatewayNotificationReplySchema = v.object({
  paymentId: v.string(),
  invoiceId: v.nullable(v.string()),
  duplicate: v.pipe(v.boolean(), v.description('True when this payment was already recorded: nothing moved again.')),
});

export const gatewayNotificationRoute = defineRoute({
  operationId: 'receiveGatewayNotification',
  method: 'POST',
  path: '/gateway/notifications',
  auth: 'none',
  summary: "The payment gateway's notification of a captured payment",
  description:
    `Called by the payment gateway, not by partners: no API key, no rate limit. The \`${SANDBOX_SIGNATURE_HEADER}\` header must hold the hex HMAC-SHA256 of the exact raw body under the gateway webhook secret ` +
    '(compared in constant time, before anything in the body is read). The payment becomes one POSTED PAYMENT ledger entry of the group whose invoice opened the order, ' +
    "allocated to that invoice first, then to the group's other open invoices oldest due date first; what is left stays as unallocated credit for the next invoices. " +
    'The same payment id announced again, concurrently or later, is answered 200 with `duplicate: true` and records nothing.',
  tags: ['Payments'],
  rawBody: GatewayNotificationSchema,
  responses: {
    200: { description: 'Recorded (or already recorded).', schema: GatewayNotificationReplySchema },
    400: { description: 'The body is not a payment.captured notification; `param` names the field.', schema: ErrorBodySchema },
    401: { description: 'The signature is missing or does not match the raw body.', schema: ErrorBodySchema },
    404: { description: 'The order is not one of ours: the gateway keeps retrying and operators are alerted by the log.', schema: ErrorBodySchema },
  },
});

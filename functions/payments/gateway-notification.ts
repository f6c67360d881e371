import { receiveGatewayPayment } from '../../domain/receivables/record-payment.ts';
import { gatewayNotificationRoute } from '../contracts/payments.ts';
import { endpoint } from '../http/endpoint.ts';
import type { HttpEvent } from '../http/types.ts';

/** The signature covers the bytes the gateway sent: API Gateway hands binary-looking bodies over base64-encoded. */
const rawBodyOf = (event: HttpEvent): string => {
  const body = typeof event.body === 'string' ? event.body : '';
  return event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
};

export const handler = endpoint(gatewayNotificationRoute, async ({ event, services }) => {
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const notice = services.gateway.readNotification(rawBodyOf(event), headers[services.gateway.signatureHeader]);
  const outcome = await receiveGatewayPayment({ receivables: services.receivables, tenants: services.tenants, clock: services.clock }, notice);
  return { status: 200, body: { paymentId: notice.paymentId, invoiceId: outcome.payment.invoiceId, duplicate: !outcome.recorded } };
});

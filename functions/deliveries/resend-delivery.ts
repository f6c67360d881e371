import { resendDelivery } from '../../domain/deliveries/read-deliveries.ts';
import { deliveryDeps } from '../../infra/compose/deliveries.ts';
import { resendWebhookDeliveryRoute } from '../contracts/deliveries.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(resendWebhookDeliveryRoute, async ({ principal, params, services }) => ({
  status: 202,
  body: await resendDelivery(deliveryDeps(services), principal.partnerId, params.id),
}));

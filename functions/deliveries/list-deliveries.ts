import { listEndpointDeliveries } from '../../domain/deliveries/read-deliveries.ts';
import { deliveryDeps } from '../../infra/compose/deliveries.ts';
import { listWebhookDeliveriesRoute } from '../contracts/deliveries.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listWebhookDeliveriesRoute, async ({ principal, params, query, services }) => ({
  status: 200,
  body: await listEndpointDeliveries(deliveryDeps(services), principal, params.id, query),
}));

import { listEndpoints } from '../../domain/webhooks/manage-endpoints.ts';
import { listWebhookEndpointsRoute } from '../contracts/webhooks.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listWebhookEndpointsRoute, async ({ principal, services }) => ({
  status: 200,
  body: { data: await listEndpoints(services, principal) },
}));

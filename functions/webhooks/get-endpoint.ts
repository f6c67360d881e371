import { getEndpoint } from '../../domain/webhooks/manage-endpoints.ts';
import { getWebhookEndpointRoute } from '../contracts/webhooks.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(getWebhookEndpointRoute, async ({ principal, params, services }) => ({
  status: 200,
  body: await getEndpoint(services, principal, params.id),
}));

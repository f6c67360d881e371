import { auditOrigin } from '../http/audit-origin.ts';
import { updateEndpoint } from '../../domain/webhooks/manage-endpoints.ts';
import { updateWebhookEndpointRoute } from '../contracts/webhooks.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(updateWebhookEndpointRoute, async ({ principal, params, body, services, state }) => ({
  status: 200,
  body: await updateEndpoint(services, principal, params.id, body, auditOrigin(principal, state)),
}));

import { auditOrigin } from '../http/audit-origin.ts';
import { createEndpoint } from '../../domain/webhooks/manage-endpoints.ts';
import { createWebhookEndpointRoute } from '../contracts/webhooks.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(createWebhookEndpointRoute, async ({ principal, body, services, state }) => ({
  status: 201,
  body: await createEndpoint(services, principal, body, auditOrigin(principal, state)),
}));

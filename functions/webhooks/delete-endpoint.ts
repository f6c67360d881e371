import { auditOrigin } from '../http/audit-origin.ts';
import { deleteEndpoint } from '../../domain/webhooks/manage-endpoints.ts';
import { deleteWebhookEndpointRoute } from '../contracts/webhooks.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(deleteWebhookEndpointRoute, async ({ principal, params, services, state }) => {
  await deleteEndpoint(services, principal, params.id, auditOrigin(principal, state));
  return { status: 204, body: undefined };
});

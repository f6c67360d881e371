import { endpoint } from '../http/endpoint.ts';
import { apiPingRoute } from '../contracts/system.ts';

export const handler = endpoint(apiPingRoute, async ({ principal, services }) => ({
  status: 200,
  body: { partnerId: principal.partnerId, keyPrefix: principal.keyPrefix, timestamp: services.clock.now().toISOString() },
}));

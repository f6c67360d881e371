import { endpoint } from '../http/endpoint.ts';
import { v1PingRoute } from '../contracts/system.ts';

export const handler = endpoint(v1PingRoute, async ({ principal, services }) => ({
  status: 200,
  body: {
    agentGroupId: principal.agentGroupId,
    channelId: principal.channelId,
    keyPrefix: principal.keyPrefix,
    timestamp: services.clock.now().toISOString(),
  },
}));

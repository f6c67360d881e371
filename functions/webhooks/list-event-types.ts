import { EVENT_TYPES_BODY, listEventTypesRoute } from '../contracts/webhooks.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listEventTypesRoute, async () => ({ status: 200, body: EVENT_TYPES_BODY }));

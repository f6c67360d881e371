import { areaRouter } from '../http/area-router.ts';
import { handler as listDeliveries } from '../deliveries/list-deliveries.ts';
import { handler as resendDelivery } from '../deliveries/resend-delivery.ts';
import { handler as fallback } from '../system/fallback.ts';
import { handler as createEndpoint } from '../webhooks/create-endpoint.ts';
import { handler as deleteEndpoint } from '../webhooks/delete-endpoint.ts';
import { handler as getEndpoint } from '../webhooks/get-endpoint.ts';
import { handler as listEndpoints } from '../webhooks/list-endpoints.ts';
import { handler as listEventTypes } from '../webhooks/list-event-types.ts';
import { handler as updateEndpoint } from '../webhooks/update-endpoint.ts';

/** A partner's webhook endpoints, the event types and the deliveries (list, resend). */
export const handler = areaRouter(
  [listEndpoints, createEndpoint, getEndpoint, updateEndpoint, deleteEndpoint, listEventTypes, listDeliveries, resendDelivery],
  fallback,
);

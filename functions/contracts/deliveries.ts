import * as v from 'valibot';
import { ATTEMPT_OUTCOMES, DELIVERY_STATUSES } from '../../domain/deliveries/delivery.ts';
import { CHANGES_DEFAULT_LOOKBACK_DAYS, PAGE_SIZE } from '../../domain/deliveries/read-deliveries.ts';
import { EVENT_TYPE_NAMES } from '../../domain/webhooks/event-types.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema, pageSizeParam } from './common.ts';
import { EndpointIdParamsSchema } from './webhooks.ts';

const DELIVERY_TAG = ['Webhook deliveries'];
const CHANGES_TAG = ['Change feed'];

const PageSizeSchema = v.optional(pageSizeParam(PAGE_SIZE.max, `Page size, 1–${PAGE_SIZE.max}; default ${PAGE_SIZE.default}.`), String(PAGE_SIZE.default));

const CursorSchema = v.optional(v.pipe(v.string(), v.minLength(1, 'cursor must not be empty.'), v.description('nextCursor of the previous page, unchanged.')));

export const ListDeliveriesQuerySchema = v.strictObject({
  cursor: CursorSchema,
  size: PageSizeSchema,
  outcome: v.optional(
    v.pipe(v.picklist(DELIVERY_STATUSES, `outcome must be one of ${DELIVERY_STATUSES.join(', ')}.`), v.description('Only deliveries with this status.')),
  ),
});

export const DeliveryAttemptSchema = v.object({
  attempt: v.pipe(v.number(), v.integer()),
  at: DateTimeSchema,
  outcome: v.pipe(
    v.picklist(ATTEMPT_OUTCOMES),
    v.description(
      'success (2xx), permanent (4xx), redirect (3xx, never followed), blocked (URL refused by the outbound guard), retryable (5xx, timeout, connection error).',
    ),
  ),
  statusCode: v.optional(v.pipe(v.number(), v.integer())),
  error: v.optional(v.string()),
  durationMs: v.pipe(v.number(), v.integer()),
});

export const CatalogueNotificationSchema = v.object({
  eventType: v.picklist(EVENT_TYPE_NAMES),
  entityType: v.string(),
  entityId: v.string(),
  fromDate: v.nullable(v.string()),
  toDate: v.nullable(v.string()),
  occurredAt: DateTimeSchema,
  dedupKey: v.string(),
});

export const DeliverySchema = v.object({
  deliveryId: v.pipe(v.string(), v.uuid()),
  endpointId: v.pipe(v.string(), v.uuid()),
  eventId: v.string(),
  eventType: v.picklist(EVENT_TYPE_NAMES),
  status: v.picklist(DELIVERY_STATUSES),
  payload: v.pipe(CatalogueNotificationSchema, v.description('The body sent, byte for byte the same on every attempt.')),
  attempts: v.array(DeliveryAttemptSchema),
  nextAttemptAt: v.nullable(DateTimeSchema),
  failureReason: v.nullable(v.string()),
  resendOf: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});

export const listWebhookDeliveriesRoute = defineRoute({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/api/webhooks/endpoints/{id}/deliveries',
  auth: 'api',
  summary: "An endpoint's deliveries with every attempt, newest first",
  description: 'Deliveries are kept 30 days. A malformed or tampered cursor, or one from another query, is 400 naming cursor.',
  tags: DELIVERY_TAG,
  params: EndpointIdParamsSchema,
  query: ListDeliveriesQuerySchema,
  responses: {
    200: { description: 'One page; nextCursor is null on the last.', schema: v.object({ data: v.array(DeliverySchema), nextCursor: v.nullable(v.string()) }) },
    404: { description: 'No such endpoint for this partner.', schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

export const DeliveryIdParamsSchema = v.object({ id: v.pipe(v.string(), v.uuid('id must be a UUID.')) });

export const resendWebhookDeliveryRoute = defineRoute({
  operationId: 'resendWebhookDelivery',
  method: 'POST',
  idempotencyKey: true,
  path: '/api/webhooks/deliveries/{id}/resend',
  auth: 'api',
  summary: 'Send a delivery again',
  description: 'A new delivery of the same payload and dedupKey to the same endpoint, on a fresh retry schedule. The original stays in the log as it was.',
  tags: DELIVERY_TAG,
  params: DeliveryIdParamsSchema,
  responses: {
    202: { description: 'Accepted; the new delivery, PENDING.', schema: DeliverySchema },
    404: { description: 'No such delivery for this partner.', schema: ErrorBodySchema },
    409: { description: 'The endpoint was deleted or is DISABLED.', schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

export const ListChangesQuerySchema = v.strictObject({ cursor: CursorSchema, size: PageSizeSchema });

export const ChangeSchema = v.object({
  ...CatalogueNotificationSchema.entries,
  recordedAt: v.pipe(DateTimeSchema, v.description('When the service recorded the change; the feed is ordered by it.')),
});

export const listChangesRoute = defineRoute({
  operationId: 'listChanges',
  method: 'GET',
  path: '/api/changes',
  auth: 'api',
  summary: "The channel's catalogue change feed, oldest first",
  description: `The same notifications webhooks carry, for partners who poll. Without a cursor the feed starts ${CHANGES_DEFAULT_LOOKBACK_DAYS} days back; changes are kept 30 days. nextCursor is always returned: call again with it to get what was recorded since.`,
  tags: CHANGES_TAG,
  query: ListChangesQuerySchema,
  responses: {
    200: { description: 'One page.', schema: v.object({ data: v.array(ChangeSchema), nextCursor: v.string() }) },
    ...AUTHENTICATED_ERRORS,
  },
});

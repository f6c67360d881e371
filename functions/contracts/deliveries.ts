import * as v from 'valibot';
import { ATTEMPT_OUTCOMES, DELIVERY_STATUSES } from '../../domain/deliveries/delivery.ts';
import { CHANGES_DEFAULT_LOOKBACK_DAYS, PAGE_SIZE } from '../../domain/deliveries/read-deliveries.ts';
import { EVENT_TYPE_NAMES } from '../../domain/webhooks/event-types.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, cursorPageOf, DateTimeSchema, ErrorBodySchema, pageSizeParam } from './common.ts';
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
  attempt: v.pipe(v.number(), v.integer(), v.description('1 for the first attempt; sent as X-Webhook-Attempt.')),
  at: v.pipe(DateTimeSchema, v.description('When it was sent.')),
  outcome: v.pipe(
    v.picklist(ATTEMPT_OUTCOMES),
    v.description(
      'success (2xx), permanent (4xx), redirect (3xx, never followed), blocked (URL refused by the outbound guard), retryable (5xx, timeout, connection error).',
    ),
  ),
  statusCode: v.optional(v.pipe(v.number(), v.integer(), v.description('The status your endpoint answered, when it answered.'))),
  error: v.optional(v.pipe(v.string(), v.description('What went wrong when no answer came (timeout, connection error, refused URL).'))),
  durationMs: v.pipe(v.number(), v.integer(), v.description('Milliseconds until the answer or the failure.')),
});

export const CatalogueNotificationSchema = v.object({
  eventType: v.pipe(v.picklist(EVENT_TYPE_NAMES), v.description('What changed: listing.updated, property.updated, inventory.changed or rate.changed.')),
  entityType: v.pipe(v.string(), v.description('listing, property, inventory or rate.')),
  entityId: v.pipe(v.string(), v.description('The listing id for listing.updated; the property id otherwise. Re-fetch it with the read API.')),
  fromDate: v.pipe(
    v.nullable(v.string()),
    v.description('For inventory and rate changes: the first date of the smallest window covering the changed dates; null otherwise.'),
  ),
  toDate: v.pipe(v.nullable(v.string()), v.description('For inventory and rate changes: the last date of that window; null otherwise.')),
  occurredAt: v.pipe(DateTimeSchema, v.description('When the change happened.')),
  dedupKey: v.pipe(v.string(), v.description('Unique per change; the same on every retry and resend, and sent as X-Webhook-Id. Deduplicate on it.')),
});

export const DeliverySchema = v.object({
  deliveryId: v.pipe(v.string(), v.uuid(), v.description('The delivery id, for POST /api/webhooks/deliveries/{id}/resend.')),
  endpointId: v.pipe(v.string(), v.uuid(), v.description('The endpoint it was sent to.')),
  eventId: v.pipe(v.string(), v.description('The change it notifies of (its dedupKey).')),
  eventType: v.pipe(v.picklist(EVENT_TYPE_NAMES), v.description('The event type of that change.')),
  status: v.pipe(
    v.picklist(DELIVERY_STATUSES),
    v.description('PENDING while attempts remain, SUCCEEDED once your endpoint answered 2xx, FAILED when the attempts ran out or an answer was permanent.'),
  ),
  payload: v.pipe(CatalogueNotificationSchema, v.description('The body sent, byte for byte the same on every attempt.')),
  attempts: v.pipe(v.array(DeliveryAttemptSchema), v.description('Every attempt, oldest first.')),
  nextAttemptAt: v.pipe(v.nullable(DateTimeSchema), v.description('When the next attempt is due; null when none is.')),
  failureReason: v.pipe(v.nullable(v.string()), v.description('Why the delivery failed for good; null unless FAILED.')),
  resendOf: v.pipe(v.nullable(v.string()), v.description('On a resend: the delivery it resends; null otherwise.')),
  createdAt: v.pipe(DateTimeSchema, v.description('When the delivery was queued.')),
  updatedAt: v.pipe(DateTimeSchema, v.description('When it last changed.')),
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
    200: { description: 'One page; nextCursor is null on the last.', schema: cursorPageOf(DeliverySchema, 'The deliveries of this page, newest first.') },
    404: { description: 'No such endpoint for this partner.', schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

export const DeliveryIdParamsSchema = v.object({
  id: v.pipe(v.string(), v.uuid('id must be a UUID.'), v.description('The delivery id (deliveryId of a delivery).')),
});

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
    200: {
      description: 'One page.',
      schema: v.object({
        data: v.pipe(v.array(ChangeSchema), v.description('The changes of this page, oldest recordedAt first.')),
        nextCursor: v.pipe(v.string(), v.description('Always present: keep it and come back with it to read what was recorded since.')),
      }),
    },
    ...AUTHENTICATED_ERRORS,
  },
});

import * as v from 'valibot';
import { AUTH_TYPES, ENDPOINT_STATUSES, MAX_ATTEMPTS, MAX_CUSTOM_HEADERS, TIMEOUT_SECONDS } from '../../domain/webhooks/endpoint.ts';
import { CATALOGUE_EVENT_TYPES, EVENT_TYPE_NAMES } from '../../domain/webhooks/event-types.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema, listOf } from './common.ts';

const TAG = ['Webhook endpoints'];
const NOT_FOUND = { 404: { description: 'No such endpoint for this partner.', schema: ErrorBodySchema } };

const EventTypesSchema = v.pipe(
  v.array(v.picklist(EVENT_TYPE_NAMES)),
  v.minLength(1, 'eventTypes must name at least one event type, or be omitted/null for all.'),
  v.description('Event types to receive; omit or null for all, including types added later.'),
);

const AUTH_TYPE_NOTE =
  'How deliveries authenticate to your endpoint: None, Basic (authSecret user:password), Bearer (authSecret the token) or HMAC (signingSecret required).';
const STATUS_NOTE = 'ACTIVE endpoints receive deliveries; a DISABLED one receives none and keeps its settings.';

const endpointFields = {
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(500), v.description('Your note about the endpoint, up to 500 characters.')))),
  authType: v.optional(v.pipe(v.picklist(AUTH_TYPES), v.description(AUTH_TYPE_NOTE)), 'None'),
  authSecret: v.optional(v.nullable(v.pipe(v.string(), v.description('Write-only. Basic: user:password. Bearer: the token.')))),
  signingSecret: v.optional(
    v.nullable(v.pipe(v.string(), v.description('Write-only. Keys X-Webhook-Signature (base64 HMAC-SHA256 of the raw body). 16–256 characters.'))),
  ),
  eventTypes: v.optional(v.nullable(EventTypesSchema)),
  headers: v.optional(
    v.pipe(
      v.record(v.string(), v.string()),
      v.description(`Static headers sent with every delivery (at most ${MAX_CUSTOM_HEADERS}); not for secrets — use authSecret.`),
    ),
  ),
  maxAttempts: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(MAX_ATTEMPTS.min), v.maxValue(MAX_ATTEMPTS.max), v.description(`Default ${MAX_ATTEMPTS.default}.`)),
  ),
  timeoutSeconds: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(TIMEOUT_SECONDS.min), v.maxValue(TIMEOUT_SECONDS.max), v.description(`Default ${TIMEOUT_SECONDS.default}.`)),
  ),
  status: v.optional(v.pipe(v.picklist(ENDPOINT_STATUSES), v.description(STATUS_NOTE))),
};

const UrlSchema = v.pipe(v.string(), v.maxLength(2048), v.url('url must be an absolute URL.'), v.description('https only; must resolve to public addresses.'));

export const CreateEndpointBodySchema = v.strictObject({ url: UrlSchema, ...endpointFields });

export const UpdateEndpointBodySchema = v.strictObject({
  url: v.optional(UrlSchema),
  ...endpointFields,
  // On update an absent authType keeps the stored one rather than resetting it to None.
  authType: v.optional(v.pipe(v.picklist(AUTH_TYPES), v.description(`${AUTH_TYPE_NOTE} Omitted: unchanged.`))),
});

export const WebhookEndpointSchema = v.object({
  id: v.pipe(v.string(), v.uuid(), v.description('The endpoint id.')),
  url: v.pipe(v.string(), v.description('Where deliveries are POSTed.')),
  description: v.pipe(v.nullable(v.string()), v.description('Your note about the endpoint; null without.')),
  authType: v.pipe(v.picklist(AUTH_TYPES), v.description(AUTH_TYPE_NOTE)),
  authSecretConfigured: v.pipe(v.boolean(), v.description('Whether an authSecret is set; the secret is never returned.')),
  signingSecretConfigured: v.pipe(
    v.boolean(),
    v.description('Whether a signing secret is set (deliveries then carry X-Webhook-Signature); the secret is never returned.'),
  ),
  eventTypes: v.pipe(v.nullable(v.array(v.string())), v.description('The event types it receives; null for all, including types added later.')),
  headers: v.pipe(v.record(v.string(), v.string()), v.description('Static headers sent with every delivery.')),
  maxAttempts: v.pipe(v.number(), v.integer(), v.description('Attempts per delivery before it is recorded as failed.')),
  timeoutSeconds: v.pipe(v.number(), v.integer(), v.description('Seconds an attempt waits for your answer.')),
  status: v.pipe(v.picklist(ENDPOINT_STATUSES), v.description(STATUS_NOTE)),
  createdAt: v.pipe(DateTimeSchema, v.description('When the endpoint was registered.')),
  updatedAt: v.pipe(DateTimeSchema, v.description('When it last changed.')),
});

export const EndpointIdParamsSchema = v.object({ id: v.pipe(v.string(), v.uuid('id must be a UUID.'), v.description('The endpoint id.')) });

export const listWebhookEndpointsRoute = defineRoute({
  operationId: 'listWebhookEndpoints',
  method: 'GET',
  path: '/api/webhooks/endpoints',
  auth: 'api',
  summary: "List this partner's webhook endpoints",
  tags: TAG,
  responses: {
    200: { description: 'Oldest first.', schema: listOf(WebhookEndpointSchema, 'Every endpoint of yours, oldest first.') },
    ...AUTHENTICATED_ERRORS,
  },
});

export const createWebhookEndpointRoute = defineRoute({
  operationId: 'createWebhookEndpoint',
  method: 'POST',
  idempotencyKey: true,
  path: '/api/webhooks/endpoints',
  auth: 'api',
  summary: 'Register a webhook endpoint (active at once)',
  description: 'The URL passes the outbound guard: https, public addresses only. Secrets are write-only and stored encrypted.',
  tags: TAG,
  body: CreateEndpointBodySchema,
  responses: {
    201: { description: 'Created.', schema: WebhookEndpointSchema },
    409: { description: 'The partner already has the maximum number of endpoints.', schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

export const getWebhookEndpointRoute = defineRoute({
  operationId: 'getWebhookEndpoint',
  method: 'GET',
  path: '/api/webhooks/endpoints/{id}',
  auth: 'api',
  summary: 'Get one webhook endpoint',
  tags: TAG,
  params: EndpointIdParamsSchema,
  responses: { 200: { description: 'The endpoint.', schema: WebhookEndpointSchema }, ...NOT_FOUND, ...AUTHENTICATED_ERRORS },
});

export const updateWebhookEndpointRoute = defineRoute({
  operationId: 'updateWebhookEndpoint',
  method: 'PUT',
  path: '/api/webhooks/endpoints/{id}',
  auth: 'api',
  summary: 'Update an endpoint or rotate a secret',
  description:
    'Omitted fields keep their value, so other fields change without re-sending secrets. A new signingSecret or authSecret rotates it; null clears it (not allowed where the authType needs it).',
  tags: TAG,
  params: EndpointIdParamsSchema,
  body: UpdateEndpointBodySchema,
  responses: {
    200: { description: 'The updated endpoint.', schema: WebhookEndpointSchema },
    ...NOT_FOUND,
    409: { description: 'Changed by another request meanwhile; read and retry.', schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

export const deleteWebhookEndpointRoute = defineRoute({
  operationId: 'deleteWebhookEndpoint',
  method: 'DELETE',
  path: '/api/webhooks/endpoints/{id}',
  auth: 'api',
  summary: 'Delete an endpoint',
  description: 'Deliveries still pending for it are dropped.',
  tags: TAG,
  params: EndpointIdParamsSchema,
  responses: { 204: { description: 'Deleted.' }, ...NOT_FOUND, ...AUTHENTICATED_ERRORS },
});

export const EventTypeSchema = v.object({
  eventType: v.pipe(v.string(), v.description('The event type, as eventTypes of an endpoint names it.')),
  entityType: v.pipe(v.string(), v.description('What its entityId identifies: listing, property, inventory or rate.')),
  description: v.pipe(v.string(), v.description('When it is sent.')),
});

export const listEventTypesRoute = defineRoute({
  operationId: 'listWebhookEventTypes',
  method: 'GET',
  path: '/api/webhooks/event-types',
  auth: 'api',
  summary: 'Event types an endpoint can subscribe to',
  tags: TAG,
  responses: { 200: { description: 'Every catalogue event type.', schema: listOf(EventTypeSchema, 'Every catalogue event type.') }, ...AUTHENTICATED_ERRORS },
});

export const EVENT_TYPES_BODY = { data: CATALOGUE_EVENT_TYPES.map((e) => ({ ...e })) };

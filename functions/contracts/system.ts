import * as v from 'valibot';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema } from './common.ts';

/** The public pages take no parameters; any query parameter is refused by name. */
const PUBLIC_ERRORS = { 400: { description: 'A query parameter was given; these pages take none. `param` names it.', schema: ErrorBodySchema } } as const;

export const ApiPingSchema = v.object({
  partnerId: v.pipe(v.string(), v.description('The partner the key belongs to.')),
  keyPrefix: v.pipe(v.string(), v.description('The first characters of the key, to tell keys apart; the key itself is never returned.')),
  timestamp: v.pipe(DateTimeSchema, v.description('Our time when this answer was made.')),
});

export const V1PingSchema = v.object({
  agentGroupId: v.pipe(v.string(), v.description('The agent group the key belongs to.')),
  channelId: v.pipe(v.string(), v.description('The channel whose listings and rates the group sells.')),
  keyPrefix: v.pipe(v.string(), v.description('The first characters of the key, to tell keys apart; the key itself is never returned.')),
  timestamp: v.pipe(DateTimeSchema, v.description('Our time when this answer was made.')),
});

export const apiPingRoute = defineRoute({
  operationId: 'apiPing',
  method: 'GET',
  path: '/api/ping',
  auth: 'api',
  summary: 'Smoke test for a partner key',
  description: 'Returns the partner the key belongs to and the leading characters of the key. Counts against the rate limit like any call.',
  tags: ['Partner read API'],
  responses: { 200: { description: 'The key works.', schema: ApiPingSchema }, ...AUTHENTICATED_ERRORS },
});

export const v1PingRoute = defineRoute({
  operationId: 'v1Ping',
  method: 'GET',
  path: '/v1/ping',
  auth: 'v1',
  summary: 'Smoke test for an agent-group key',
  description: 'Returns the agent group and channel the key resolves to. Counts against the rate limit like any call.',
  tags: ['Distribution API'],
  responses: { 200: { description: 'The key works.', schema: V1PingSchema }, ...AUTHENTICATED_ERRORS },
});

export const openApiRoute = defineRoute({
  operationId: 'getOpenApi',
  method: 'GET',
  path: '/openapi.json',
  auth: 'none',
  summary: 'This OpenAPI 3.1 document',
  description: 'Public: needs no key and is not rate limited.',
  tags: ['Meta'],
  responses: { 200: { description: 'The OpenAPI document.' }, ...PUBLIC_ERRORS },
});

/** Where the partner document is served; the reference links it. */
export const PARTNER_OPENAPI_PATH = '/openapi.partner.json';

export const partnerOpenApiRoute = defineRoute({
  operationId: 'getPartnerOpenApi',
  method: 'GET',
  path: PARTNER_OPENAPI_PATH,
  auth: 'none',
  summary: 'The OpenAPI 3.1 document of the partner API alone',
  description:
    "Public: needs no key and is not rate limited. This document without the operators' endpoints (Channex's Open Channel calls, Razorpay's notifications) and without their key scheme: " +
    'what a partner generates a client from. The same bytes as `docs/openapi.partner.json` in the repository.',
  tags: ['Meta'],
  responses: { 200: { description: 'The partner OpenAPI document.' }, ...PUBLIC_ERRORS },
});

export const docsRoute = defineRoute({
  operationId: 'getDocs',
  method: 'GET',
  path: '/docs',
  auth: 'none',
  summary: 'This reference, rendered',
  description: 'Public: needs no key and is not rate limited. One self-contained HTML page (Redoc with this document inline); it loads nothing from elsewhere.',
  tags: ['Meta'],
  responses: { 200: { description: 'The rendered reference.', document: 'text/html' }, ...PUBLIC_ERRORS },
});

export const postmanCollectionRoute = defineRoute({
  operationId: 'getPostmanCollection',
  method: 'GET',
  path: '/docs/postman-collection.json',
  auth: 'none',
  summary: 'This reference as a Postman collection',
  description:
    "Public: needs no key and is not rate limited. A Postman collection (format v2.1) made from the partner document (`GET /openapi.partner.json`; the operators' endpoints are called by Channex and Razorpay, not from Postman): a folder per tag, a request per operation with its parameters, a sample body and the key of its surface " +
    '(variables `baseUrl`, `partnerKey`, `agentGroupKey`). Import it together with `GET /docs/postman-environment.json`.',
  tags: ['Meta'],
  responses: { 200: { description: 'The collection (Postman format v2.1).', document: 'application/json' }, ...PUBLIC_ERRORS },
});

export const postmanEnvironmentRoute = defineRoute({
  operationId: 'getPostmanEnvironment',
  method: 'GET',
  path: '/docs/postman-environment.json',
  auth: 'none',
  summary: 'A Postman environment for the collection',
  description:
    "Public: needs no key and is not rate limited. `baseUrl` is this origin. On sandbox stages it holds the demo world's partner and agent-group keys (what `npm start` loads); elsewhere the keys are empty: paste your own.",
  tags: ['Meta'],
  responses: { 200: { description: 'The environment (Postman format).', document: 'application/json' }, ...PUBLIC_ERRORS },
});

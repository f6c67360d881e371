import { toJsonSchema } from '@valibot/to-json-schema';
import type { AnySchema, RouteSpec } from '../http/route.ts';

type Json = Record<string, unknown>;

const schemaOf = (s: AnySchema): Json => {
  const { $schema: _drop, ...rest } = toJsonSchema(s, { target: 'draft-2020-12', errorMode: 'ignore' }) as Json;
  return rest;
};

const RATE_HEADERS: Json = {
  'X-RateLimit-Limit': { description: 'Requests per minute this credential may make (600 unless configured otherwise).', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Whole tokens left in the bucket now (at most the burst, 100 unless configured otherwise).', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the bucket is full again.', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'Our id for this request; quote it when contacting us. Also on every log line.', schema: { type: 'string' } },
};

const RETRY_AFTER: Json = { 'Retry-After': { description: 'Seconds until a token is available again.', schema: { type: 'integer' } } };

/** Query and path schemas are valibot objects; each entry becomes one OpenAPI parameter. */
function parametersOf(schema: AnySchema | undefined, where: 'query' | 'path'): Json[] {
  if (!schema) return [];
  const json = schemaOf(schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    ...(s.description ? { description: s.description } : {}),
    schema: s,
    ...(where === 'query' && (s as { type?: string }).type === 'array' ? { style: 'form', explode: false } : {}),
  }));
}

function operation(route: RouteSpec): Json {
  const authed = route.auth !== 'none';
  const responses: Json = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    // A 401 never reached a bucket, so it carries no rate headers: only the request id.
    const rated = authed && status !== '401';
    const headers = rated ? { ...RATE_HEADERS, ...(status === '429' ? RETRY_AFTER : {}) } : { 'X-Request-Id': RATE_HEADERS['X-Request-Id'] };
    responses[status] = {
      description: spec.description,
      headers,
      ...(spec.schema ? { content: { 'application/json': { schema: schemaOf(spec.schema) } } } : {}),
      ...(spec.document ? { content: { [spec.document]: { schema: { type: 'string', contentMediaType: spec.document } } } } : {}),
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [...route.tags],
    security: authed ? [{ [route.auth === 'api' ? 'partnerKey' : 'agentGroupKey']: [] }] : [],
    parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
    ...((route.body ?? route.rawBody)
      ? { requestBody: { required: !route.bodyOptional, content: { 'application/json': { schema: schemaOf((route.body ?? route.rawBody)!) } } } }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document for a set of routes. Deterministic: same routes, same bytes. */
export function buildOpenApi(routes: readonly RouteSpec[]): Json {
  const paths: Record<string, Json> = {};
  for (const r of [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner Distribution Service',
      version: '1.0.0',
      description: [
        'Catalogue, availability, pricing, booking on credit, ledger and GST invoices for partners.',
        '',
        'Authentication: HTTP Basic with the API key as username and an empty password (`Authorization: Basic base64(<key>:)`).',
        '`/api` keys belong to partners; `/v1` keys to agent groups.',
        '',
        'Rate limits: a token bucket per credential, 600 requests per minute with a burst of 100 unless the credential has its own figures.',
        'Every authenticated response carries `X-RateLimit-Limit` (the per-minute rate), `X-RateLimit-Remaining` (whole tokens left now, at most the burst) and',
        '`X-RateLimit-Reset` (Unix seconds when the bucket is full again). A throttled request gets 429 with `Retry-After` in seconds.',
        '',
        'Errors: every non-2xx body has `status`, `error`, `message`, `path`, `timestamp` and a stable `code`; 400s add `param` naming the offending parameter.',
      ].join('\n'),
    },
    servers: [{ url: 'http://localhost:3000', description: 'npm start' }],
    components: {
      securitySchemes: {
        partnerKey: { type: 'http', scheme: 'basic', description: 'Partner API key as username, empty password.' },
        agentGroupKey: { type: 'http', scheme: 'basic', description: 'Agent-group API key as username, empty password.' },
      },
    },
    paths,
  };
}

import { toJsonSchema } from '@valibot/to-json-schema';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_TTL_HOURS, IDEMPOTENT_REPLAYED_HEADER } from '../../domain/idempotency/idempotency-key.ts';
import type { ErrorCode } from '../../domain/errors.ts';
import { OUTBOUND_MESSAGES, type OutboundMessage } from '../contracts/outbound.ts';
import { reasonPhrase, STATUS_OF } from '../http/error-status.ts';
import type { AnySchema, ResponseSpec, RouteSpec } from '../http/route.ts';
import { deprecationNote, type Deprecation } from '../http/deprecation.ts';
import { ErrorBodySchema } from '../contracts/common.ts';
import { PARTNER_OPENAPI_PATH } from '../contracts/system.ts';
import { SCENARIO_FAMILIES } from './scenario-descriptions.ts';
import { ComponentRegistry, hoistNullableDescriptions } from './components.ts';
import { OPENAPI_EXAMPLES } from './examples.ts';
import { POSTMAN_COLLECTION_PATH, POSTMAN_ENVIRONMENT_PATH } from './postman.ts';
import { PROVIDER_REQUEST_EXAMPLES } from './provider-examples.ts';
import { PARAMETER_REF } from './refs.ts';

type Json = Record<string, unknown>;

const schemaOf = (s: AnySchema): Json => {
  const { $schema: _drop, ...rest } = toJsonSchema(s, { target: 'draft-2020-12', errorMode: 'ignore' }) as Json;
  return hoistNullableDescriptions(rest);
};

const RATE_HEADERS: Json = {
  'X-RateLimit-Limit': { description: 'Requests per minute this credential may make (600 unless configured otherwise).', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Whole tokens left in the bucket now (at most the burst, 100 unless configured otherwise).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the bucket is full again.', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'Our id for this request; quote it when contacting us. Also on every log line.', schema: { type: 'string' } },
};

const RETRY_AFTER: Json = { 'Retry-After': { description: 'Seconds until a token is available again.', schema: { type: 'integer' } } };
const IDEMPOTENCY_KEY_PARAMETER: Json = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description: `Makes a retry safe: the first request with a key runs; the same key with the same path and body within ${IDEMPOTENCY_TTL_HOURS} hours gets that first answer again (marked \`${IDEMPOTENT_REPLAYED_HEADER}: true\`), the same key with another body is \`409 CONFLICT\` (\`reasonCode\` \`IDEMPOTENCY_KEY_REUSED\`), and while the first request is still running \`409 CONFLICT\` (\`IDEMPOTENCY_KEY_IN_USE\`). Keys are per API key holder and operation. A refused request keeps nothing, so its retry is judged afresh. Use a new UUID per intended request.`,
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: '^[\\x21-\\x7e]+$' },
  example: '7b4f8c1e-2f0a-4a53-9a51-0f1e6a2d9c11',
};
const IDEMPOTENT_REPLAYED: Json = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: `\`true\` when this is the stored answer to an earlier request with the same ${IDEMPOTENCY_HEADER}.`,
    schema: { type: 'string', enum: ['true'] },
  },
};
const IDEMPOTENCY_CONFLICT = `Or \`${IDEMPOTENCY_HEADER}\` refused: used before with another body (\`reasonCode\` \`IDEMPOTENCY_KEY_REUSED\`), or its first request is still running (\`IDEMPOTENCY_KEY_IN_USE\`); \`param\` names the header.`;
/** A route that takes Idempotency-Key answers its 409s too: added to the route's own 409, or as one. */
function withIdempotencyConflict(responses: RouteSpec['responses']): RouteSpec['responses'] {
  const own = responses[409];
  return {
    ...responses,
    409: own ? { ...own, description: `${own.description} ${IDEMPOTENCY_CONFLICT}` } : { description: IDEMPOTENCY_CONFLICT, schema: ErrorBodySchema },
  };
}
const RETRY_STORAGE: Json = { 'Retry-After': { description: 'Seconds to wait before retrying the same request.', schema: { type: 'integer' } } };

const DEPRECATION_HEADERS: Json = {
  Deprecation: {
    description: 'RFC 9745: on answers that involve a deprecated part of this operation; `@<unix seconds>` of the day it was deprecated.',
    schema: { type: 'string' },
  },
  Sunset: {
    description: 'RFC 8594: the HTTP date from which the deprecated part may stop working (at least 12 months after Deprecation).',
    schema: { type: 'string' },
  },
  Link: { description: 'With `rel="deprecation"`: the versioning policy.', schema: { type: 'string' } },
};

type Components = Record<string, Json>;

/**
 * The JSON schema with the field at `dotted` (through objects, arrays of objects and component
 * `$ref`s) marked deprecated; a path that is not there is an error in the route. A field of a
 * component is marked in the component, so wherever that shape appears it reads deprecated.
 */
function withDeprecatedField(
  schema: Json,
  dotted: string,
  note: string,
  operationId: string,
  components: Components,
  keys: readonly string[] = dotted.split('.'),
): Json {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    components[name] = withDeprecatedField(components[name]!, dotted, note, operationId, components, keys);
    return schema;
  }
  const [key, ...rest] = keys;
  const items = schema.items as Json | undefined;
  if (items && !schema.properties) return { ...schema, items: withDeprecatedField(items, dotted, note, operationId, components, keys) };
  const properties = schema.properties as Record<string, Json> | undefined;
  const field = properties?.[key!];
  if (!field) throw new Error(`${operationId}: no field ${dotted} to deprecate`);
  const marked = rest.length
    ? withDeprecatedField(field, dotted, note, operationId, components, rest)
    : { ...field, deprecated: true, description: [field.description, note].filter(Boolean).join(' ') };
  return { ...schema, properties: { ...properties, [key!]: marked } };
}

/** The operation with each of its deprecations marked where a generator and a reader look: the operation, the parameter, the field. */
function deprecate(op: Json, list: readonly Deprecation[], operationId: string, components: Components): Json {
  let out = op;
  for (const d of list) {
    const note = deprecationNote(d);
    if ('route' in d.what) out = { ...out, deprecated: true, description: [out.description, note].filter(Boolean).join('\n\n') };
    if ('query' in d.what) {
      const name = d.what.query;
      const params = out.parameters as Json[];
      if (!params.some((p) => p.name === name && p.in === 'query')) throw new Error(`${operationId}: no query parameter ${name} to deprecate`);
      out = {
        ...out,
        parameters: params.map((p) =>
          p.name === name && p.in === 'query' ? { ...p, deprecated: true, description: [p.description, note].filter(Boolean).join(' ') } : p,
        ),
      };
    }
    if ('body' in d.what) {
      const body = out.requestBody as { content: { 'application/json': { schema: Json } } } | undefined;
      if (!body) throw new Error(`${operationId}: no request body to deprecate ${d.what.body} in`);
      out = {
        ...out,
        requestBody: {
          ...body,
          content: {
            'application/json': {
              ...body.content['application/json'],
              schema: withDeprecatedField(body.content['application/json'].schema, d.what.body, note, operationId, components),
            },
          },
        },
      };
    }
    if ('response' in d.what) {
      const field = d.what.response;
      const responses = Object.entries(out.responses as Record<string, Json>).map(([status, r]) => {
        const json = (r.content as Record<string, { schema: Json }> | undefined)?.['application/json'];
        return [
          status,
          status.startsWith('2') && json
            ? { ...r, content: { 'application/json': { schema: withDeprecatedField(json.schema, field, note, operationId, components) } } }
            : r,
        ];
      });
      out = { ...out, responses: Object.fromEntries(responses) };
    }
  }
  const responses = Object.fromEntries(
    Object.entries(out.responses as Record<string, Json>).map(([status, r]) => [status, { ...r, headers: { ...(r.headers as Json), ...DEPRECATION_HEADERS } }]),
  );
  return { ...out, responses };
}

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

const SECURITY_OF = { api: 'partnerKey', v1: 'agentGroupKey', channex: 'channexKey' } as const;

/** The `code` an error status answers with when its response declares none (functions/http/error-status.ts has them all). */
export const ERROR_CODES_OF: Readonly<Record<number, readonly ErrorCode[]>> = {
  400: ['VALIDATION_FAILED'],
  401: ['UNAUTHORIZED'],
  402: ['CREDIT_DENIED'],
  404: ['NOT_FOUND'],
  405: ['METHOD_NOT_ALLOWED'],
  409: ['CONFLICT'],
  413: ['PAYLOAD_TOO_LARGE'],
  414: ['URI_TOO_LONG'],
  429: ['RATE_LIMITED'],
  503: ['SERVICE_UNAVAILABLE'],
};

/**
 * The codes one error answer of a route can carry: its declared ones, else its status's. A JSON
 * body the framework parses adds the parser's refusals to the 400; a sandbox-only route answers
 * elsewhere as an unknown path does.
 */
export function errorCodesOf(route: RouteSpec, status: number, spec: ResponseSpec): ErrorCode[] {
  const codes: ErrorCode[] = [...(spec.codes ?? ERROR_CODES_OF[status] ?? [])];
  if (!codes.length) throw new Error(`${route.operationId}: no error code for status ${status}; declare \`codes\` on the response`);
  if (status === 400 && route.body && !spec.codes) codes.push('MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE');
  if (status === 404 && route.sandboxOnly) codes.push('ROUTE_NOT_FOUND');
  return codes;
}

/** An error body: its shape by `$ref`, with `code` narrowed to what this answer can carry, so a generated client can switch on it. */
const errorBody = (ref: Json, codes: readonly ErrorCode[]): Json => ({
  allOf: [
    ref,
    {
      type: 'object',
      required: ['code'],
      properties: {
        code: {
          type: 'string',
          enum: codes,
          description: 'What went wrong, stable to switch on; this answer carries one of these. Match on it, never on `message`.',
        },
      },
    },
  ],
});

/** `createBooking` → `CreateBooking`: the stem of the component names an operation's unnamed bodies take. */
const pascal = (id: string): string => id.charAt(0).toUpperCase() + id.slice(1);

/** The operation, its bodies as component `$ref`s (deprecations are marked once the components exist). */
function operation(route: RouteSpec, registry: ComponentRegistry): Json {
  const stem = pascal(route.operationId);
  // Rate-limited Basic-auth surfaces; Channex's api-key routes have no token bucket.
  const authed = route.auth === 'api' || route.auth === 'v1';
  const responses: Json = {};
  for (const [status, spec] of Object.entries(route.idempotencyKey ? withIdempotencyConflict(route.responses) : route.responses)) {
    // A 401 or 414 never reached a bucket, and a 503 may not have, so none carries rate headers: only the request id.
    const rated = authed && !['401', '414', '503'].includes(status);
    const retry = status === '429' ? RETRY_AFTER : status === '503' ? RETRY_STORAGE : {};
    const headers = rated ? { ...RATE_HEADERS, ...retry } : { 'X-Request-Id': RATE_HEADERS['X-Request-Id'], ...retry };
    const alternatives = Object.fromEntries(
      (spec.alsoAs ?? []).map((a) => [a.mediaType, { schema: { type: 'string', contentMediaType: a.mediaType, description: a.description } }]),
    );
    const content = spec.schema
      ? {
          'application/json': {
            schema: status.startsWith('2')
              ? registry.ref(spec.schema, `${stem}Response${status === '200' ? '' : status}`)
              : errorBody(registry.ref(spec.schema, `${stem}Error${status}`), errorCodesOf(route, Number(status), spec)),
          },
          ...alternatives,
        }
      : spec.document
        ? { [spec.document]: { schema: { type: 'string', contentMediaType: spec.document } } }
        : undefined;
    const replayed = route.idempotencyKey && status.startsWith('2') ? IDEMPOTENT_REPLAYED : {};
    responses[status] = { description: spec.description, headers: { ...headers, ...replayed }, ...(content ? { content } : {}) };
  }
  // A real exchange with the local stack (functions/openapi/examples.ts), beside the schemas it satisfies.
  const example = OPENAPI_EXAMPLES[route.operationId];
  const exampleOf = (value: unknown): Json => ({ examples: { [route.operationId]: { summary: 'From a run against the local stack', value } } });
  const answered = example ? (responses[String(example.status)] as Json | undefined) : undefined;
  const answeredJson = (answered?.content as Record<string, Json> | undefined)?.['application/json'];
  if (answered && answeredJson) {
    responses[String(example!.status)] = {
      ...answered,
      content: { ...(answered.content as Json), 'application/json': { ...answeredJson, ...exampleOf(example!.response) } },
    };
  }
  // A signed notification's body is the provider's: its published sample (functions/openapi/provider-examples.ts).
  const provided = PROVIDER_REQUEST_EXAMPLES[route.operationId];
  const requestExample =
    example?.request !== undefined
      ? exampleOf(example.request)
      : provided
        ? { examples: { [route.operationId]: { summary: provided.summary, value: provided.request } } }
        : {};
  const op: Json = {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [...route.tags],
    security: route.auth === 'none' ? [] : [{ [SECURITY_OF[route.auth]]: [] }],
    parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query'), ...(route.idempotencyKey ? [IDEMPOTENCY_KEY_PARAMETER] : [])],
    ...((route.body ?? route.rawBody)
      ? {
          requestBody: {
            required: !route.bodyOptional,
            content: { 'application/json': { schema: registry.ref((route.body ?? route.rawBody)!, `${stem}Body`), ...requestExample } },
          },
        }
      : {}),
    responses,
  };
  return op;
}

/** The sandbox section's tables: each set of requests with what each value does (functions/openapi/scenario-descriptions.ts). */
const scenarioSections = (): string[] =>
  SCENARIO_FAMILIES.flatMap((family) => [
    `${family.requests.map((r) => `\`${r.method} ${r.path}\``).join(', ')}:`,
    '',
    '| value | effect |',
    '|---|---|',
    ...family.values.map(({ value, effect }) => `| \`${value}\` | ${effect} |`),
    '',
  ]);

/** The overview a partner reads first: one section each for keys, limits, errors, paging, sandbox and pushes. */
function overview(): string {
  const codes = Object.entries(STATUS_OF)
    .sort(([a, x], [b, y]) => x - y || a.localeCompare(b))
    .map(([code, status]) => `| ${status} ${reasonPhrase(status)} | \`${code}\` |`);
  return [
    'Catalogue, availability, pricing, booking on credit, ledger and GST invoices for partners.',
    '',
    '# Authentication',
    '',
    'HTTP Basic with the API key as username and an empty password: `Authorization: Basic base64(<key>:)`.',
    '`/api` keys belong to partners (catalogue reads, webhooks, change feed); `/v1` keys to agent groups (distribution, orders, bookings, ledger).',
    'A missing, malformed, revoked or unknown key, or a key used on the other surface, is `401 UNAUTHORIZED`. Keys are stored hashed and never returned.',
    `This reference, \`/openapi.json\` and the partner API alone (the operators' endpoints left out, the document to generate a client from), [${PARTNER_OPENAPI_PATH}](${PARTNER_OPENAPI_PATH}), are public.`,
    '',
    '# Rate limits',
    '',
    'A token bucket per key: 600 requests per minute with a burst of 100 unless the key has its own figures. Every authenticated answer except a 401 carries:',
    '',
    '| header | meaning |',
    '|---|---|',
    '| `X-RateLimit-Limit` | requests per minute this key may make |',
    '| `X-RateLimit-Remaining` | whole tokens left now, at most the burst |',
    '| `X-RateLimit-Reset` | Unix seconds when the bucket is full again |',
    '| `Retry-After` | on a `429 RATE_LIMITED` only: seconds until a token is available |',
    '',
    'Every answer carries `X-Request-Id`; quote it when contacting us.',
    '',
    '# Errors',
    '',
    'Every non-2xx answer has one JSON shape: `status` (the HTTP status), `error` (its reason phrase), `message` (for a human), `path`, `timestamp` and a stable `code`.',
    'A 400 adds `param`, naming the offending parameter as you wrote it (`selectedProperties[0].quantity`), and the message names it too; nothing is clamped silently.',
    'Some refusals add their own fields (`402 CREDIT_DENIED`: the shortfall; `409 PRICE_MOVED`: `expectedTotal` and `breakup`).',
    "Another tenant's resource is a 404 exactly like a missing one.",
    'Each error answer of each operation below lists the `code`s it can carry as an enum (a generated client gets them as a union); the table gives every code by status.',
    '',
    '```json',
    '{"status":400,"error":"Bad Request","message":"size: size must be at most 100.","path":"/v1/bookings","timestamp":"2027-03-01T10:00:00.000Z","code":"VALIDATION_FAILED","param":"size"}',
    '```',
    '',
    '| status | code |',
    '|---|---|',
    ...codes,
    '| 500 Internal Server Error | `INTERNAL_ERROR` (nothing about the cause; quote `X-Request-Id`) |',
    '',
    '# Idempotency',
    '',
    `Creating POSTs take an \`${IDEMPOTENCY_HEADER}\` header (1–${IDEMPOTENCY_KEY_MAX} printable ASCII characters; a UUID per intended request). The first request with a key runs; a retry with the same key, path and body within ${IDEMPOTENCY_TTL_HOURS} hours gets the first answer again with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`, and creates nothing. The same key with another body is \`409 CONFLICT\` with \`reasonCode\` \`IDEMPOTENCY_KEY_REUSED\` and \`param\` \`${IDEMPOTENCY_HEADER}\`; a retry while the first request is still running is \`409 CONFLICT\` with \`IDEMPOTENCY_KEY_IN_USE\` (retry in a moment). Keys belong to the key holder (your partner or agent group) and the operation. Refusals (4xx) and 5xx answers are not kept: a retry runs again.`,
    '',
    '# Paging',
    '',
    'Lists return `data` and `nextCursor`; pass the cursor back unchanged with the same filters. A cursor is sealed: altered, truncated or from another query it is a 400 naming `cursor`. `size` above its maximum is a 400, never clamped.',
    '',
    '# Sandbox scenarios',
    '',
    'On sandbox stages the request header `X-Test-Scenario` forces answers that are rare in production; production ignores the header entirely. An unknown value is a 400 naming `X-Test-Scenario`.',
    '',
    ...scenarioSections(),
    '# Versioning and deprecations',
    '',
    'This contract changes only by adding: new operations, new optional parameters and fields, new values where a field says more may come. Anything else (removing or renaming, making optional required, changing a type or a meaning) is a breaking change, made only after the part has been deprecated for at least 12 months.',
    'A deprecated operation, parameter or field is marked deprecated here, and every answer that involves it carries `Deprecation` (RFC 9745, the date it was deprecated as `@<unix seconds>`), `Sunset` (RFC 8594, the HTTP date from which it may stop working) and `Link: <…>; rel="deprecation"` pointing to this section. Every change is listed in the changelog (`CHANGELOG.md`), by operation.',
    '',
    '# Postman',
    '',
    `The partner API as a Postman collection: [${POSTMAN_COLLECTION_PATH}](${POSTMAN_COLLECTION_PATH}), with an environment for it: [${POSTMAN_ENVIRONMENT_PATH}](${POSTMAN_ENVIRONMENT_PATH}) (on sandbox stages it holds the demo keys). Import both, pick the environment, send.`,
    'The typed TypeScript client, generated from this document, is `@villa-distribution/partner-distribution-client`.',
    '',
    '# Calls we make to you',
    '',
    'The service also calls you: catalogue webhooks go to the endpoints a partner registers, booking callbacks to the `callbackUrl` of a booking. Both are listed under Webhooks with their bodies, headers and signatures.',
    'Every URL must be https and resolve only to public addresses, checked when you give it and again on every send.',
  ].join('\n');
}

function outbound(m: OutboundMessage, registry: ComponentRegistry): Json {
  return {
    post: {
      operationId: m.operationId,
      summary: m.summary,
      description: m.description,
      tags: [WEBHOOKS_TAG],
      security: [],
      parameters: m.headers.map((h) => ({
        name: h.name,
        in: 'header',
        required: h.name !== 'X-Webhook-Signature',
        description: h.description,
        schema: { type: 'string' },
      })),
      requestBody: { required: true, content: { 'application/json': { schema: registry.ref(m.schema, `${pascal(m.name)}Body`) } } },
      responses: Object.fromEntries(Object.entries(m.answers).map(([status, description]) => [status, { description }])),
    },
  };
}

const WEBHOOKS_TAG = 'Webhooks and callbacks';

/**
 * Every tag, in the order of a partner's journey (start, catalogue, availability and rates,
 * orders, bookings, amendments, money, pushes, sandbox), then the operators' own endpoints.
 * A route's tag missing here fails the build, so a new tag is placed and described once.
 */
export const TAG_GROUPS: readonly { readonly name: string; readonly tags: readonly (readonly [string, string])[] }[] = [
  {
    name: 'Partner API',
    tags: [
      ['Meta', 'This reference, its Postman files, and a ping per surface to check a key.'],
      ['Partner read API', "Your channel's catalogue with a partner key (`/api`): listings, day-by-day inventory and rates."],
      ['Distribution API', 'Selling with an agent-group key (`/v1`): listings, availability and priced search on your channel.'],
      ['Orders', 'Price a stay (preview), store it as an order, read and re-confirm it. No inventory is held.'],
      ['Bookings', 'Book an order on credit, read bookings, quote and make cancellations.'],
      ['Amendments', 'Quote and apply a change of dates, party, units, meals or services of a confirmed booking.'],
      ['Invoices', 'GST tax invoices of your agent group and their PDFs; a billing run on request.'],
      ['Ledger', 'Every charge, refund, adjustment and payment on your credit account, and the statement.'],
      ['Finance contacts', 'The people of your agent group who receive its billing documents by e-mail.'],
      ['Audit', 'Who changed what on your account, with the request id.'],
      ['Webhook endpoints', 'Register the https endpoints that receive catalogue webhooks.'],
      ['Webhook deliveries', 'What was sent to an endpoint, each attempt, and resending.'],
      ['Change feed', 'The catalogue changes as a cursor-paged feed: the pull side of the webhooks.'],
      [WEBHOOKS_TAG, 'The calls we make to you: catalogue webhooks and booking callbacks.'],
      ['Test clocks (sandbox)', "Sandbox stages only: move an agent group's time forward to see billing and credit control."],
    ],
  },
  {
    name: 'Operators (not the partner API)',
    tags: [
      ['Channel manager (operators)', "Channex's Open Channel calls to us, with the inbound key the operator set."],
      ['Payments', "Razorpay's signed notifications of payments, refunds and disputes."],
    ],
  },
];

const TAG_ORDER = TAG_GROUPS.flatMap((g) => g.tags.map(([name]) => name));

/** `Idempotency-Key` → `IdempotencyKey`, `bookingId` → `BookingId`: a parameter's component name. */
const parameterName = (name: string): string =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(pascal)
    .join('');

/**
 * The paths with every parameter that two or more operations declare identically (a shared
 * path id, cursor, page size, date window or Idempotency-Key) moved to `components.parameters`
 * and referred to by `$ref`, so a generator makes one type of it. A parameter's most used form
 * takes its plain name (`Cursor`); another form of the same parameter is named after the first
 * operation declaring it (`SizeOfListInvoices`).
 */
function shareParameters(paths: Record<string, Json>): { paths: Record<string, Json>; parameters: Record<string, Json> } {
  const uses = new Map<string, { parameter: Json; count: number; first: string; at: number }>();
  let at = 0;
  for (const ops of Object.values(paths))
    for (const op of Object.values(ops) as Json[])
      for (const p of (op.parameters as Json[] | undefined) ?? []) {
        const key = JSON.stringify(p);
        const seen = uses.get(key);
        if (seen) seen.count++;
        else uses.set(key, { parameter: p, count: 1, first: op.operationId as string, at: at++ });
      }
  const shared = [...uses].filter(([, u]) => u.count > 1).sort(([, a], [, b]) => b.count - a.count || a.at - b.at);
  const names = new Map<string, string>();
  const parameters: Record<string, Json> = {};
  for (const [key, u] of shared) {
    const plain = parameterName(u.parameter.name as string);
    const name = plain in parameters ? `${plain}Of${pascal(u.first)}` : plain;
    names.set(key, name);
    parameters[name] = u.parameter;
  }
  const refer = (p: Json): Json => {
    const name = names.get(JSON.stringify(p));
    return name ? { $ref: `${PARAMETER_REF}${name}` } : p;
  };
  const out = Object.fromEntries(
    Object.entries(paths).map(([path, ops]) => [
      path,
      Object.fromEntries(
        Object.entries(ops).map(([method, op]) => {
          const o = op as Json;
          return [method, o.parameters ? { ...o, parameters: (o.parameters as Json[]).map(refer) } : o];
        }),
      ),
    ]),
  );
  const sortedParameters = Object.fromEntries(
    Object.keys(parameters)
      .sort()
      .map((n) => [n, parameters[n]!]),
  );
  return { paths: out, parameters: sortedParameters };
}

const SECURITY_SCHEMES: Record<(typeof SECURITY_OF)[keyof typeof SECURITY_OF], Json> = {
  partnerKey: { type: 'http', scheme: 'basic', description: 'Partner API key as username, empty password. Opens `/api`.' },
  agentGroupKey: { type: 'http', scheme: 'basic', description: 'Agent-group API key as username, empty password. Opens `/v1`.' },
  channexKey: {
    type: 'apiKey',
    in: 'header',
    name: 'api-key',
    description: 'The inbound key the operator set in the Channex Open Channel. Opens `/channel-manager/channex/`.',
  },
};

/** The tags of TAG_GROUPS' operators group: Channex's and Razorpay's calls to us, not the partner API. */
export const OPERATOR_TAGS: readonly string[] = TAG_GROUPS.filter((g) => g !== TAG_GROUPS[0]).flatMap((g) => g.tags.map(([name]) => name));

/** The routes a partner calls: every route but those tagged for operators. */
export const partnerRoutes = (routes: readonly RouteSpec[]): RouteSpec[] => routes.filter((r) => !r.tags.some((t) => OPERATOR_TAGS.includes(t)));

/** The OpenAPI 3.1 document for a set of routes. Deterministic: same routes, same bytes. */
export function buildOpenApi(routes: readonly RouteSpec[]): Json {
  const registry = new ComponentRegistry();
  const sorted = [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const built = sorted.map((r) => [r, operation(r, registry)] as const);
  const webhooks = Object.fromEntries(OUTBOUND_MESSAGES.map((m) => [m.name, outbound(m, registry)]));
  const schemas = registry.schemas();
  const used = new Set([...routes.flatMap((r) => r.tags), WEBHOOKS_TAG]);
  const unplaced = [...used].filter((t) => !TAG_ORDER.includes(t));
  if (unplaced.length) throw new Error(`Tags with no place in TAG_GROUPS (functions/openapi/build.ts): ${unplaced.join(', ')}`);
  const groups = TAG_GROUPS.map((g) => ({ name: g.name, tags: g.tags.filter(([name]) => used.has(name)) })).filter((g) => g.tags.length);
  const paths: Record<string, Json> = {};
  for (const [r, op] of built) {
    const final = r.deprecated?.length ? deprecate(op, r.deprecated, r.operationId, schemas) : op;
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: final };
  }
  const shared = shareParameters(paths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner Distribution Service',
      version: '1.0.0',
      description: overview(),
      license: { name: 'Proprietary: for contracted partners only', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the API is served from the same origin as this document, on every stage.
    servers: [{ url: '/', description: 'The origin serving this document' }],
    components: {
      schemas,
      parameters: shared.parameters,
      // Only the schemes some operation uses: the partner document has no Channex key.
      securitySchemes: Object.fromEntries(
        Object.entries(SECURITY_SCHEMES).filter(([name]) => routes.some((r) => r.auth !== 'none' && SECURITY_OF[r.auth] === name)),
      ),
    },
    tags: groups.flatMap((g) => g.tags.map(([name, description]) => ({ name, description }))),
    // Redoc's sidebar groups: the partner's journey, then the operators' endpoints apart.
    'x-tagGroups': groups.map((g) => ({ name: g.name, tags: g.tags.map(([name]) => name) })),
    paths: shared.paths,
    webhooks,
  };
}

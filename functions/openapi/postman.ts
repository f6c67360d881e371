/**
 * A Postman collection (format v2.1) made from the OpenAPI document, for people who explore the
 * API by clicking: one folder per tag, one request per operation with its path variables, its
 * query parameters (optional ones disabled) and a sample JSON body, and the right key for its
 * surface. Deterministic: the same document gives the same bytes. Served next to the reference
 * (GET /docs/postman-collection.json) and written to docs/postman/ by `npm run openapi`.
 */
import { inlinedDocument } from './refs.ts';

type Json = Record<string, unknown>;

export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** Where the reference links them; the same origin serves the API. */
export const POSTMAN_COLLECTION_PATH = '/docs/postman-collection.json';
export const POSTMAN_ENVIRONMENT_PATH = '/docs/postman-environment.json';

/** The variables a request uses: the origin and one key per surface (HTTP Basic, empty password). */
export const POSTMAN_VARIABLES = { baseUrl: 'baseUrl', partnerKey: 'partnerKey', agentGroupKey: 'agentGroupKey' } as const;

const LOCAL_ORIGIN = 'http://localhost:3000';

/**
 * The demo world's tripkart keys (scripts/demo-world.ts; a test holds them equal), which
 * `npm start` loads: the sandbox environment's credentials. Plaintext on purpose: they open
 * only a local or test stage with the demo world, and production never serves them.
 */
export const SANDBOX_DEMO_KEYS = { partnerKey: 'pds_demo_partner_tripkart_01', agentGroupKey: 'pds_demo_group_tripkart_agents_01' } as const;

const basic = (variable: string) => ({
  type: 'basic',
  basic: [
    { key: 'username', value: `{{${variable}}}`, type: 'string' },
    { key: 'password', value: '', type: 'string' },
  ],
});

function authOf(security: unknown): Json {
  const scheme = Object.keys(((security as Json[] | undefined) ?? [])[0] ?? {})[0];
  if (scheme === 'partnerKey') return basic(POSTMAN_VARIABLES.partnerKey);
  if (scheme === 'agentGroupKey') return basic(POSTMAN_VARIABLES.agentGroupKey);
  return { type: 'noauth' };
}

/** A plausible value for a JSON schema: its example or default, the first enum or choice, else an empty value of its type. */
export function sample(schema: Json | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if (schema.examples && Array.isArray(schema.examples)) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choice = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (choice) return sample(choice.find((c) => c.type !== 'null') ?? choice[0], depth + 1);
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set((schema.required ?? []) as string[]);
      // Required fields only: a body a partner can send as it is, and add to.
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([name]) => required.has(name))
          .map(([name, s]) => [name, sample(s, depth + 1)]),
      );
    }
    case 'array':
      return schema.items ? [sample(schema.items as Json, depth + 1)] : [];
    case 'string':
      return schema.format === 'date'
        ? '2027-01-10'
        : schema.format === 'date-time'
          ? '2027-01-10T10:00:00.000Z'
          : schema.format === 'email'
            ? 'guest@example.com'
            : '';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Json };

function request(path: string, method: string, op: Json): Json {
  const parameters = (op.parameters ?? []) as Parameter[];
  // A trailing slash is an empty last segment in Postman's path: Channex's routes need theirs.
  const segments = path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/^\{(.+)\}$/, ':$1'));
  const query = parameters
    .filter((p) => p.in === 'query')
    .map((p) => ({ key: p.name, value: String(sample(p.schema) ?? ''), ...(p.description ? { description: p.description } : {}), disabled: !p.required }));
  const enabled = query.filter((q) => !q.disabled).map((q) => `${q.key}=${q.value}`);
  const body = ((op.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined)?.['application/json'];
  const headers = parameters
    .filter((p) => p.in === 'header')
    .map((p) => ({ key: p.name, value: String(sample(p.schema) ?? ''), disabled: !p.required, ...(p.description ? { description: p.description } : {}) }));
  return {
    name: String(op.summary ?? op.operationId),
    request: {
      method: method.toUpperCase(),
      auth: authOf(op.security),
      header: body ? [{ key: 'Content-Type', value: 'application/json' }, ...headers] : headers,
      url: {
        raw: `{{${POSTMAN_VARIABLES.baseUrl}}}/${segments.join('/')}${enabled.length ? `?${enabled.join('&')}` : ''}`,
        host: [`{{${POSTMAN_VARIABLES.baseUrl}}}`],
        path: segments,
        ...(query.length ? { query } : {}),
        ...(segments.some((s) => s.startsWith(':'))
          ? {
              variable: parameters
                .filter((p) => p.in === 'path')
                .map((p) => ({ key: p.name, value: '', ...(p.description ? { description: p.description } : {}) })),
            }
          : {}),
      },
      ...(body ? { body: { mode: 'raw', raw: JSON.stringify(sample(body.schema), null, 2), options: { raw: { language: 'json' } } } } : {}),
      ...(op.description ? { description: String(op.description) } : {}),
    },
    response: [],
  };
}

/** The collection for an OpenAPI document: one folder per tag in the document's tag order, requests in path order. */
export function buildPostmanCollection(named: Json): Json {
  // Samples walk each body as a tree: its components inlined.
  const document = inlinedDocument(named);
  const order = ((document.tags ?? []) as { name: string }[]).map((t) => t.name);
  const tagRank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const info = document.info as { title: string; version: string };
  const folders = new Map<string, Json[]>();
  for (const [path, ops] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = ((op.tags as string[] | undefined) ?? [])[0] ?? 'Other';
      folders.set(tag, [...(folders.get(tag) ?? []), request(path, method, op)]);
    }
  }
  return {
    info: {
      name: info.title,
      description: `Generated from the OpenAPI document (version ${info.version}). Pick the environment, set the keys, and send. Partner keys open /api, agent-group keys /v1; the password is always empty.`,
      schema: POSTMAN_SCHEMA,
    },
    // In the reference's tag order (a partner's journey) where it gives one, else as tags first appear.
    item: [...folders].sort(([a], [b]) => tagRank(a) - tagRank(b)).map(([name, item]) => ({ name, item })),
    variable: [
      { key: POSTMAN_VARIABLES.baseUrl, value: LOCAL_ORIGIN, type: 'string' },
      { key: POSTMAN_VARIABLES.partnerKey, value: '', type: 'string' },
      { key: POSTMAN_VARIABLES.agentGroupKey, value: '', type: 'string' },
    ],
  };
}

/** A Postman environment: the origin and one partner and one agent-group key (empty where none is given). */
export function buildPostmanEnvironment(name: string, keys: { readonly partnerKey: string; readonly agentGroupKey: string }, origin = LOCAL_ORIGIN): Json {
  return {
    name,
    values: [
      { key: POSTMAN_VARIABLES.baseUrl, value: origin, type: 'default', enabled: true },
      { key: POSTMAN_VARIABLES.partnerKey, value: keys.partnerKey, type: 'secret', enabled: true },
      { key: POSTMAN_VARIABLES.agentGroupKey, value: keys.agentGroupKey, type: 'secret', enabled: true },
    ],
    _postman_variable_scope: 'environment',
  };
}

import { appendFileSync } from 'node:fs';
import * as v from 'valibot';
import { expect } from 'vitest';
import { buildOpenApi } from '../../functions/openapi/build.ts';
import { inlinedDocument } from '../../functions/openapi/refs.ts';
import { ROUTES } from '../../functions/registry.ts';
import type { CallResult } from './stack.ts';

type Json = Record<string, unknown>;
type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
};

/** An `allOf` as one schema: its members' properties together (an error body: its shape, then `code` narrowed). */
const merged = (schema: JsonSchema): JsonSchema =>
  schema.allOf ? { ...schema, properties: Object.assign({}, ...schema.allOf.map((m) => merged(m).properties ?? {}), schema.properties) } : schema;

let document: Json | undefined;
// Inlined: the walk below reads each body schema as a tree.
const openApi = (): Json => (document ??= inlinedDocument(buildOpenApi(ROUTES)));

/** Headers whose presence the contract documents per response. */
const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'];

/** Dotted paths of body fields the JSON Schema does not name (the document a partner reads). */
function undocumentedFields(value: unknown, whole: JsonSchema | undefined, at = ''): string[] {
  if (!whole || value === null || typeof value !== 'object') return [];
  const schema = merged(whole);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const fits = branches.map((b) => undocumentedFields(value, b, at));
    return fits.find((f) => f.length === 0) ?? fits[0] ?? [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => undocumentedFields(item, schema.items, `${at}[${i}]`));
  if (!schema.properties) return [];
  return Object.entries(value).flatMap(([key, field]) => {
    const path = at ? `${at}.${key}` : key;
    const fieldSchema = schema.properties![key];
    return fieldSchema ? undocumentedFields(field, fieldSchema, path) : [path];
  });
}

/**
 * Asserts that an e2e response is one the route's contract documents: its status is listed,
 * its body satisfies the valibot schema the OpenAPI document is generated from and carries
 * no field the document leaves out, and the rate-limit headers it carries are exactly the
 * ones documented for that status.
 */
export function expectContract(res: CallResult, operationId: string): void {
  const route = ROUTES.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`No route with operationId ${operationId} in functions/registry.ts`);
  // `CAPTURE_OPENAPI_EXAMPLES=<file> vitest run --project e2e …` collects real exchanges for the reference (scripts/openapi-examples.ts).
  const capture = process.env.CAPTURE_OPENAPI_EXAMPLES;
  if (capture && res.status < 300 && res.body !== undefined)
    appendFileSync(capture, `${JSON.stringify({ operationId, status: res.status, request: res.request?.body, response: res.body })}\n`);
  const spec = route.responses[res.status];
  expect(spec, `${operationId} does not document status ${res.status}`).toBeDefined();

  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const alternative = spec?.alsoAs?.find((a) => a.mediaType === mediaType);
  if (spec?.schema && mediaType !== 'application/json') {
    expect(alternative, `${operationId} ${res.status} answered ${mediaType}, which the contract does not document`).toBeDefined();
  }
  if (spec?.schema && !alternative) {
    const parsed = v.safeParse(spec.schema, res.body);
    const problems = parsed.success ? [] : parsed.issues.map((i) => `${v.getDotPath(i) ?? '(body)'}: ${i.message}`);
    expect(problems, `${operationId} ${res.status} body breaks its schema`).toEqual([]);
    const operation = (openApi().paths as Record<string, Record<string, Json>>)[route.path]![route.method.toLowerCase()]!;
    const documented = (operation.responses as Record<string, { content?: { 'application/json': { schema: JsonSchema } } }>)[String(res.status)];
    expect(undocumentedFields(res.body, documented?.content?.['application/json'].schema), `${operationId} ${res.status} body has undocumented fields`).toEqual(
      [],
    );
    if (res.status >= 400) {
      const codes = merged(documented!.content!['application/json'].schema).properties?.code?.enum;
      expect(codes, `${operationId} ${res.status}: the reference lists the codes this answer may carry`).toBeDefined();
      expect(codes, `${operationId} ${res.status}: code ${(res.body as { code?: string }).code} is not among the documented ones`).toContain(
        (res.body as { code?: string }).code,
      );
    }
  }

  const operation = (openApi().paths as Record<string, Record<string, Json>>)[route.path]![route.method.toLowerCase()]!;
  const headers = ((operation.responses as Record<string, { headers?: Record<string, unknown> }>)[String(res.status)]?.headers ?? {}) as Record<
    string,
    unknown
  >;
  const documentedRate = RATE_HEADERS.filter((h) => h in headers);
  const sentRate = RATE_HEADERS.filter((h) => res.headers.has(h));
  expect(sentRate, `${operationId} ${res.status}: rate-limit headers sent vs documented`).toEqual(documentedRate);
  for (const h of sentRate) expect(res.headers.get(h), `${h} must be an integer`).toMatch(/^\d+$/);
  expect(res.headers.get('X-Request-Id'), 'X-Request-Id is on every response').toMatch(/^[0-9a-f-]{36}$/);
}

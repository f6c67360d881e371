import type { Context } from 'aws-lambda';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkDeprecation, DEPRECATION_DOCS, deprecationHeaders, type Deprecation } from '../../functions/http/deprecation.ts';
import { endpoint } from '../../functions/http/endpoint.ts';
import { defineRoute } from '../../functions/http/route.ts';
import type { HttpEvent, HttpResult } from '../../functions/http/types.ts';
import { buildOpenApi } from '../../functions/openapi/build.ts';
import { inlinedDocument } from '../../functions/openapi/refs.ts';
import { ROUTES } from '../../functions/registry.ts';
import { logger } from '../../infra/logger.ts';
import { serviceEnv } from '../../scripts/local-stack.ts';
import { clientTypes } from '../../scripts/client-types.ts';

/**
 * A demo route with a deprecated query parameter, body field and response field, and a wholly
 * deprecated one, served in process by the shared stack (routes without auth touch no store).
 */
const SORT_GONE: Deprecation = { what: { query: 'sort' }, since: '2027-01-15', sunset: '2028-01-15', instead: 'Use `order` instead.' };
const CODE_GONE: Deprecation = { what: { body: 'guest.legacyCode' }, since: '2027-02-01', sunset: '2028-03-01', instead: 'Send `guest.code` instead.' };
const RATE_GONE: Deprecation = { what: { response: 'rooms.legacyRate' }, since: '2027-03-01', sunset: '2028-03-01', instead: 'Read `rate` instead.' };

const demoRoute = defineRoute({
  operationId: 'testDemoRooms',
  method: 'POST',
  path: '/test/rooms',
  auth: 'none',
  summary: 'Test only',
  tags: [],
  query: v.strictObject({ sort: v.optional(v.string()), order: v.optional(v.string()) }),
  body: v.strictObject({ guest: v.strictObject({ code: v.optional(v.string()), legacyCode: v.optional(v.string()) }) }),
  responses: { 200: { description: 'Rooms.', schema: v.object({ rooms: v.array(v.object({ rate: v.number(), legacyRate: v.number() })) }) } },
  deprecated: [SORT_GONE, CODE_GONE, RATE_GONE],
});
const oldRoute = defineRoute({
  ...demoRoute,
  operationId: 'testOldRooms',
  path: '/test/old-rooms',
  deprecated: [{ what: { route: true }, since: '2027-04-01', sunset: '2028-04-01', instead: 'Use POST /test/rooms.' }],
});

const rooms = endpoint(demoRoute, async () => ({ status: 200, body: { rooms: [{ rate: 100, legacyRate: 100 }] } }));
const oldRooms = endpoint(oldRoute, async () => ({ status: 200, body: { rooms: [] } }));

function event(path: string, body: unknown, query?: Record<string, string>): HttpEvent {
  return {
    version: '2.0',
    routeKey: `POST ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: { host: 'localhost', 'content-type': 'application/json' },
    queryStringParameters: query,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'gateway-request-id',
      routeKey: `POST ${path}`,
      stage: '$default',
      time: '01/Jan/2027:00:00:00 +0000',
      timeEpoch: 1_798_761_600_000,
    },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}
const invoke = (handler: unknown, e: HttpEvent) =>
  (handler as (e: HttpEvent, c: Context) => Promise<HttpResult>)(e, { getRemainingTimeInMillis: () => 10_000 } as Context);
const notice = (since: string, sunset: string) => ({
  Deprecation: `@${Date.parse(`${since}T00:00:00Z`) / 1000}`,
  Sunset: new Date(`${sunset}T00:00:00Z`).toUTCString(),
  Link: `<${DEPRECATION_DOCS}>; rel="deprecation"; type="text/html"`,
});

beforeAll(() => {
  // config() only: nothing here reaches DynamoDB or SQS.
  for (const [name, value] of Object.entries(serviceEnv({ stage: 'test', tableName: 'unused', dynamodb: 'http://127.0.0.1:9', sqs: 'http://127.0.0.1:9' })))
    vi.stubEnv(name, value);
  // Each request is logged; keep the test output quiet.
  vi.spyOn(logger, 'info').mockImplementation(() => undefined);
});
afterAll(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('Deprecation and Sunset headers', () => {
  it('carries them on every answer of a route with a deprecated response field, dated by that field', async () => {
    const res = await invoke(rooms, event('/test/rooms', { guest: {} }));

    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject(notice('2027-03-01', '2028-03-01'));
    expect(res.headers.Deprecation).toBe('@1803859200');
    expect(res.headers.Sunset).toBe('Wed, 01 Mar 2028 00:00:00 GMT');
  });

  it('dates them by the earliest deprecation the request meets: a deprecated parameter or body field only when sent', async () => {
    const withSort = await invoke(rooms, event('/test/rooms', { guest: {} }, { sort: 'price' }));
    const withCode = await invoke(rooms, event('/test/rooms', { guest: { legacyCode: 'X1' } }));

    expect(withSort.headers).toMatchObject(notice('2027-01-15', '2028-01-15'));
    expect(withCode.headers).toMatchObject(notice('2027-02-01', '2028-03-01'));
  });

  it('carries them on a wholly deprecated route’s errors too, and never on a route without deprecations', async () => {
    const refused = await invoke(oldRooms, event('/test/old-rooms', { guest: { unknown: 1 } }));
    const plain = await invoke(
      endpoint({ ...demoRoute, deprecated: undefined }, async () => ({ status: 200, body: { rooms: [] } })),
      event('/test/rooms', { guest: {} }, { sort: 'price' }),
    );

    expect(refused.statusCode).toBe(400);
    expect(refused.headers).toMatchObject(notice('2027-04-01', '2028-04-01'));
    expect(Object.keys(plain.headers)).not.toContain('Deprecation');
    expect(Object.keys(plain.headers)).not.toContain('Sunset');
  });

  it('refuses a sunset sooner than 12 months after the deprecation, and dates that are not days', () => {
    expect(() => checkDeprecation({ ...SORT_GONE, sunset: '2028-01-14' })).toThrow(/12 months/);
    expect(() => checkDeprecation({ ...SORT_GONE, since: '15/01/2027' })).toThrow(/YYYY-MM-DD/);
    expect(() => endpoint({ ...demoRoute, deprecated: [{ ...RATE_GONE, sunset: '2027-09-01' }] }, async () => ({ status: 200, body: {} }))).toThrow(
      /12 months/,
    );
    expect(deprecationHeaders([])).toEqual({});
  });
});

describe('Deprecations in the OpenAPI document and the typed client', () => {
  type Op = {
    deprecated?: boolean;
    parameters: { name: string; deprecated?: boolean }[];
    requestBody: { content: { 'application/json': { schema: any } } };
    responses: Record<string, { headers: Record<string, unknown>; content?: { 'application/json': { schema: any } } }>;
  };
  // Inlined: the deprecated fields sit in the bodies' components.
  const doc = inlinedDocument(buildOpenApi([demoRoute, oldRoute])) as unknown as { paths: Record<string, { post: Op }> };

  it('marks the operation, the parameter and the fields deprecated, names the sunset, and documents the headers', () => {
    const op = doc.paths['/test/rooms']!.post;

    expect(op.deprecated).toBeUndefined();
    expect(doc.paths['/test/old-rooms']!.post.deprecated).toBe(true);
    expect(op.parameters.find((p) => p.name === 'sort')).toMatchObject({ deprecated: true, description: expect.stringContaining('works until 2028-01-15') });
    expect(op.parameters.find((p) => p.name === 'order')!.deprecated).toBeUndefined();
    expect(op.requestBody.content['application/json'].schema.properties.guest.properties.legacyCode).toMatchObject({ deprecated: true });
    expect(op.responses['200']!.content!['application/json'].schema.properties.rooms.items.properties.legacyRate).toMatchObject({ deprecated: true });
    expect(Object.keys(op.responses['200']!.headers)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
  });

  it('refuses to build a document deprecating a field the route does not have', () => {
    expect(() => buildOpenApi([{ ...demoRoute, deprecated: [{ ...RATE_GONE, what: { response: 'rooms.nope' } }] }])).toThrow(/no field rooms.nope/);
  });

  it('reaches the typed client as @deprecated on the field', async () => {
    const types = await clientTypes(buildOpenApi([...ROUTES, demoRoute]));

    expect(types).toMatch(/@deprecated[\s\S]{0,300}legacyRate: number/);
  }, 60_000);
});

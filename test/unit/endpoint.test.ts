import { createServer, type Server, type Socket } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { withinBudget } from '../../functions/http/budget.ts';
import { endpoint } from '../../functions/http/endpoint.ts';
import { documentReply } from '../../functions/http/responses.ts';
import { defineRoute } from '../../functions/http/route.ts';
import type { HttpEvent, HttpResult } from '../../functions/http/types.ts';
import { awsClientOptions } from '../../infra/aws-client.ts';
import { logger } from '../../infra/logger.ts';
import { serviceEnv } from '../../scripts/local-stack.ts';

/**
 * The shared Middy stack, in process: a throwaway route with a body schema and synthetic
 * API Gateway v2 events. Routes without auth never touch DynamoDB, but the handler input
 * carries services(), so a test stage's environment is stubbed for config(), its endpoints
 * a closed port (a unit test that reached one would fail, test/support/no-network.ts).
 */
const ThingSchema = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1)),
  selectedProperties: v.array(v.object({ quantity: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
});

const thingsRoute = defineRoute({
  operationId: 'testCreateThing',
  method: 'POST',
  path: '/test/things',
  auth: 'none',
  summary: 'Test only',
  tags: [],
  body: ThingSchema,
  responses: { 201: { description: 'Created.' } },
});

const INTERNAL_DETAIL = 'connect ECONNREFUSED 10.0.0.7:5432 user=ledger password=hunter2';

const createThing = endpoint(thingsRoute, async ({ body }) => ({ status: 201, body: { name: body.name, lines: body.selectedProperties.length } }));
const explode = endpoint(thingsRoute, async () => {
  throw new Error(INTERNAL_DETAIL);
});

/** A "DynamoDB" that accepts connections and never answers, as a paused DynamoDB Local does. */
let silentStore: { server: Server; sockets: Socket[]; url: string };
const stalledRead = endpoint(thingsRoute, async () => {
  const client = new DynamoDBClient(
    awsClientOptions({ region: 'ap-south-1', aws: { connectTimeoutMs: 200, requestTimeoutMs: 200, maxAttempts: 2 } }, silentStore.url),
  );
  try {
    await client.send(new GetItemCommand({ TableName: 'pds-test', Key: { PK: { S: 'x' }, SK: { S: 'y' } } }));
  } finally {
    client.destroy();
  }
  return { status: 201, body: {} };
});

function event(opts: { body?: string; headers?: Record<string, string> }): HttpEvent {
  return {
    version: '2.0',
    routeKey: 'POST /test/things',
    rawPath: '/test/things',
    rawQueryString: '',
    headers: { host: 'localhost', ...opts.headers },
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'POST', path: '/test/things', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'gateway-request-id',
      routeKey: 'POST /test/things',
      stage: '$default',
      time: '01/Jan/2026:00:00:00 +0000',
      timeEpoch: 1_767_225_600_000,
    },
    body: opts.body,
    isBase64Encoded: false,
  };
}

const lambdaContext = (): Context =>
  ({
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:ap-south-1:123456789012:function:test',
    memoryLimitInMB: '512',
    awsRequestId: 'lambda-request-id',
    logGroupName: '/aws/lambda/test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }) as Context;

type Handler = (e: HttpEvent, c: Context) => Promise<HttpResult>;
const invoke = (handler: unknown, e: HttpEvent): Promise<HttpResult> => (handler as Handler)(e, lambdaContext());
const JSON_HEADERS = { 'content-type': 'application/json' };
const parsed = (res: HttpResult): Record<string, unknown> => JSON.parse(res.body ?? '') as Record<string, unknown>;

beforeAll(async () => {
  const sockets: Socket[] = [];
  const server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  silentStore = { server, sockets, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
  for (const [name, value] of Object.entries(serviceEnv({ stage: 'test', tableName: 'pds-test', dynamodb: 'http://127.0.0.1:9', sqs: 'http://127.0.0.1:9' })))
    vi.stubEnv(name, value);
  // Unhandled errors are logged in full; keep the test output quiet.
  vi.spyOn(logger, 'error').mockImplementation(() => undefined);
  vi.spyOn(logger, 'info').mockImplementation(() => undefined);
  vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
});

afterAll(() => {
  for (const socket of silentStore.sockets) socket.destroy();
  silentStore.server.close();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('withinBudget', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when the request outruns its budget, and the handler’s own answer when it does not', async () => {
    const never = withinBudget(
      () => new Promise<HttpResult>(() => undefined),
      () => 50,
    );
    const quick = withinBudget(
      async (): Promise<HttpResult> => ({ statusCode: 204, headers: {} }),
      () => 60_000,
    );

    const [late, onTime] = await Promise.all([invoke(never, event({})), invoke(quick, event({}))]);

    expect(late.statusCode).toBe(503);
    expect(late.headers?.['Retry-After']).toBe('2');
    expect(parsed(late)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', path: '/test/things' });
    expect(onTime).toEqual({ statusCode: 204, headers: {} });
  });
});

describe('endpoint() stack', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when storage never answers, without sending the call twice', async () => {
    const res = await invoke(stalledRead, event({ body: JSON.stringify({ name: 'villa', selectedProperties: [] }), headers: JSON_HEADERS }));

    expect(res.statusCode).toBe(503);
    expect(res.headers?.['Retry-After']).toBe('2');
    expect(parsed(res)).toMatchObject({ status: 503, error: 'Service Unavailable', code: 'SERVICE_UNAVAILABLE', path: '/test/things' });
    expect(res.body).not.toContain(silentStore.url.split(':').pop());
    // Sent once and never answered: it may have been applied, so the client did not send it again.
    expect(silentStore.sockets).toHaveLength(1);
  });

  it('passes a valid JSON body to the handler and answers with its reply', async () => {
    const res = await invoke(createThing, event({ body: JSON.stringify({ name: 'villa', selectedProperties: [{ quantity: 1 }] }), headers: JSON_HEADERS }));

    expect(res.statusCode).toBe(201);
    expect(parsed(res)).toEqual({ name: 'villa', lines: 1 });
  });

  it('answers malformed JSON with 400 MALFORMED_JSON naming the body', async () => {
    const res = await invoke(createThing, event({ body: '{"name": "villa",', headers: JSON_HEADERS }));

    expect(res.statusCode).toBe(400);
    expect(parsed(res)).toMatchObject({ status: 400, error: 'Bad Request', code: 'MALFORMED_JSON', param: 'body', path: '/test/things' });
  });

  it('answers a JSON body with a forbidden __proto__ key with 400 MALFORMED_JSON', async () => {
    const res = await invoke(createThing, event({ body: '{"__proto__": {"admin": true}}', headers: JSON_HEADERS }));

    expect(res.statusCode).toBe(400);
    expect(parsed(res)).toMatchObject({ code: 'MALFORMED_JSON', param: 'body' });
  });

  it('answers a body without Content-Type with 400 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await invoke(createThing, event({ body: JSON.stringify({ name: 'villa', selectedProperties: [] }) }));

    expect(res.statusCode).toBe(400);
    expect(parsed(res)).toMatchObject({ status: 400, code: 'UNSUPPORTED_MEDIA_TYPE', param: 'Content-Type' });
  });

  it('answers a body with another Content-Type with 400 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await invoke(createThing, event({ body: 'name=villa', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));

    expect(res.statusCode).toBe(400);
    expect(parsed(res)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers a schema failure with 400 VALIDATION_FAILED naming the nested parameter', async () => {
    const res = await invoke(createThing, event({ body: JSON.stringify({ name: 'villa', selectedProperties: [{ quantity: 0 }] }), headers: JSON_HEADERS }));

    expect(res.statusCode).toBe(400);
    const body = parsed(res);
    expect(body).toMatchObject({ status: 400, error: 'Bad Request', code: 'VALIDATION_FAILED', param: 'selectedProperties[0].quantity' });
    expect(body.message).toContain('selectedProperties[0].quantity');
  });

  it('refuses a query parameter on a route that takes none, naming it', async () => {
    const res = await invoke(createThing, {
      ...event({ body: JSON.stringify({ name: 'villa', selectedProperties: [] }), headers: JSON_HEADERS }),
      queryStringParameters: { debug: '1' },
    });

    expect(res.statusCode).toBe(400);
    expect(parsed(res)).toMatchObject({ code: 'VALIDATION_FAILED', param: 'debug', message: 'debug is not a recognised parameter.' });
  });

  it('answers an unexpected error with a generic 500 that leaks neither message nor stack', async () => {
    const res = await invoke(explode, event({ body: JSON.stringify({ name: 'villa', selectedProperties: [] }), headers: JSON_HEADERS }));

    expect(res.statusCode).toBe(500);
    const body = parsed(res);
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'path', 'status', 'timestamp']);
    expect(body).toMatchObject({ status: 500, error: 'Internal Server Error', code: 'INTERNAL_ERROR' });
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('ECONNREFUSED');
    expect(res.body).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('puts the same fresh X-Request-Id on success and on every kind of error', async () => {
    const valid = JSON.stringify({ name: 'villa', selectedProperties: [] });
    const responses = await Promise.all([
      invoke(createThing, event({ body: valid, headers: JSON_HEADERS })),
      invoke(createThing, event({ body: '{', headers: JSON_HEADERS })),
      invoke(createThing, event({ body: valid })),
      invoke(createThing, event({ body: '{}', headers: JSON_HEADERS })),
      invoke(explode, event({ body: valid, headers: { ...JSON_HEADERS, 'x-request-id': 'caller-chosen' } })),
    ]);

    const ids = responses.map((r) => r.headers['X-Request-Id']);
    expect(responses.map((r) => r.statusCode)).toEqual([201, 400, 400, 400, 500]);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers JSON with charset on every response', async () => {
    const res = await invoke(createThing, event({ body: '{', headers: JSON_HEADERS }));

    expect(res.headers['Content-Type']).toBe('application/json; charset=utf-8');
  });
});

describe('document replies', () => {
  const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 31) % 256);
  const text = '<html>'.padEnd(4096, 'x');
  const pdf = endpoint(thingsRoute, async () => documentReply('application/pdf', bytes));
  const page = endpoint(thingsRoute, async () => documentReply('text/html; charset=utf-8', text));
  // A fresh event each time: the body parser replaces the body it reads.
  const asking = () => event({ body: JSON.stringify({ name: 'a', selectedProperties: [] }), headers: { ...JSON_HEADERS, 'accept-encoding': 'gzip' } });

  it('sends bytes base64-encoded as they are, never gzipped again, even to a caller that accepts gzip', async () => {
    const res = await invoke(pdf, asking());
    expect(res.statusCode).toBe(200);
    expect(res.isBase64Encoded).toBe(true);
    expect(res.headers?.['Content-Type']).toBe('application/pdf');
    expect(res.headers?.['Content-Encoding']).toBeUndefined();
    expect(Buffer.from(res.body ?? '', 'base64').equals(Buffer.from(bytes))).toBe(true);
  });

  it('sends text as written, gzipped for a caller that accepts it', async () => {
    const res = await invoke(page, asking());
    expect(res.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(res.headers?.['Content-Encoding']).toBe('gzip');
    const { gunzipSync } = await import('node:zlib');
    expect(gunzipSync(Buffer.from(res.body ?? '', 'base64')).toString()).toBe(text);
  });
});

describe('large JSON arrays', () => {
  // More than two slices, the last one short, with text that is not ASCII.
  const rows = Array.from({ length: 25_003 }, (_, i) => ({ id: `row-${i}`, label: i % 7 === 0 ? 'Café ₹' : 'plain', rate: i / 4, missing: undefined }));
  const bulk = endpoint(thingsRoute, async () => ({ status: 200, body: rows }));
  const asking = (encoding?: string) =>
    event({ body: JSON.stringify({ name: 'a', selectedProperties: [] }), headers: { ...JSON_HEADERS, ...(encoding ? { 'accept-encoding': encoding } : {}) } });

  it('gzips an array while writing it into exactly the JSON the whole array makes', async () => {
    const res = await invoke(bulk, asking('gzip'));

    expect(res.statusCode).toBe(200);
    expect(res.headers['Content-Encoding']).toBe('gzip');
    expect(res.headers['Content-Type']).toBe('application/json; charset=utf-8');
    expect(res.isBase64Encoded).toBe(true);
    const { gunzipSync } = await import('node:zlib');
    expect(gunzipSync(Buffer.from(res.body ?? '', 'base64')).toString()).toBe(JSON.stringify(rows));
  });

  it('sends the same array as plain JSON to a caller that does not accept gzip', async () => {
    const res = await invoke(bulk, asking());

    expect(res.headers['Content-Encoding']).toBeUndefined();
    expect(res.body).toBe(JSON.stringify(rows));
  });
});

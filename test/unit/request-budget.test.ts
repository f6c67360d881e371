import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { withinBudget } from '../../functions/http/budget.ts';
import type { HttpEvent, HttpResult } from '../../functions/http/types.ts';
import { getAll } from '../../infra/dynamo/batch-get.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { logger } from '../../infra/logger.ts';
import { RequestAbandonedError } from '../../infra/request-work.ts';

/**
 * A request answered over its budget stops its work: the DynamoDB client (the service's own,
 * over HTTP to a local stand-in that answers BatchGetItem as DynamoDB does) sends nothing more
 * for it. The verdict counts the calls the stand-in received; the store holds every answer
 * until the 503 has gone out, so at most the one batch in flight then can have been sent,
 * however fast or slow the machine (without the refusal all five are).
 */
let server: Server;
let url: string;
const received: string[] = [];
const held: (() => void)[] = [];
/** Once set, the stand-in answers each call as it comes instead of holding it. */
let answering = false;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(String(req.headers['x-amz-target']));
      const table = Object.keys((JSON.parse(body) as { RequestItems: Record<string, unknown> }).RequestItems)[0]!;
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ Responses: { [table]: [] }, UnprocessedKeys: {} }));
      };
      if (answering) answer();
      else held.push(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
});

afterAll(() => {
  server.close();
  vi.restoreAllMocks();
});

const event = (): HttpEvent =>
  ({
    version: '2.0',
    routeKey: 'GET /v1/availability',
    rawPath: '/v1/availability',
    rawQueryString: '',
    headers: {},
    requestContext: { http: { method: 'GET', path: '/v1/availability' } },
    isBase64Encoded: false,
  }) as unknown as HttpEvent;

describe('withinBudget abandons the work of a request it answered with a 503', () => {
  it('sends no further BatchGet once the answer is out, and the abandoned work ends refused', async () => {
    const db = createDocumentClient({
      region: 'ap-south-1',
      endpoints: { dynamodb: url },
      aws: { connectTimeoutMs: 1_000, requestTimeoutMs: 5_000, maxAttempts: 1 },
    } as never);
    const keys = Array.from({ length: 500 }, (_, i) => ({ PK: `PROPERTY#p${i}`, SK: 'MONTH#2027-03' }));
    let work: Promise<unknown> | undefined;
    const handler = withinBudget(
      async (): Promise<HttpResult> => {
        // Five batches, one at a time: the shape of a long month read.
        work = getAll(db, 'pds-test', keys, { inFlight: 1 });
        await work;
        return { statusCode: 200, headers: {} };
      },
      () => 20,
    );

    const answer = await handler(event(), {} as Context);
    expect(answer.statusCode).toBe(503);

    // The store answers only now, after the caller has its 503, and from now on at once.
    answering = true;
    held.splice(0).forEach((r) => r());
    await expect(work).rejects.toBeInstanceOf(RequestAbandonedError);
    expect(received.length).toBeLessThanOrEqual(1);
    expect(received.every((target) => target === 'DynamoDB_20120810.BatchGetItem')).toBe(true);
    db.destroy();
  });

  it('leaves work that finishes within its budget alone', async () => {
    received.length = 0;
    const db = createDocumentClient({
      region: 'ap-south-1',
      endpoints: { dynamodb: url },
      aws: { connectTimeoutMs: 1_000, requestTimeoutMs: 5_000, maxAttempts: 1 },
    } as never);
    const handler = withinBudget(
      async (): Promise<HttpResult> => {
        await getAll(
          db,
          'pds-test',
          Array.from({ length: 250 }, (_, i) => ({ PK: `P#${i}`, SK: 'M' })),
          { inFlight: 1 },
        );
        return { statusCode: 204, headers: {} };
      },
      () => 60_000,
    );
    const answer = await handler(event(), {} as Context);
    expect(answer.statusCode).toBe(204);
    expect(received).toHaveLength(3);
    db.destroy();
  });
});

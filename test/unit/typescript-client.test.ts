import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createPartnerClient,
  parseCallback,
  parseWebhook,
  PartnerApiError,
  retryAfterSeconds,
  SignatureError,
  verifyCallbackSignature,
  verifyWebhookSignature,
} from '../../clients/typescript/src/index.ts';
import { bookingCallbackBody, signCallback } from '../../events/booking-callback.ts';
import { catalogueWebhookBody, signWebhookBody } from '../../events/catalogue-webhook.ts';
import { buildOpenApi } from '../../functions/openapi/build.ts';
import { ROUTES } from '../../functions/registry.ts';
import { CLIENT_TYPES_FILE, clientTypes } from '../../scripts/client-types.ts';
import { callbackOutcome } from '../support/callback-outcome.ts';

const BASE = 'http://pds.test';
const errorBody = (status: number, code: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ status, error: 'x', message: `${code} happened`, path: '/v1/ping', timestamp: '2027-01-01T00:00:00.000Z', code, ...extra });
const json = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'application/json', 'x-request-id': 'req-1', ...headers } });
const PING = JSON.stringify({ agentGroupId: 'g', channelId: 'c', keyPrefix: 'pds_', timestamp: '2027-01-01T00:00:00.000Z' });

/** A client whose fetch answers from a script, recording each request, and whose sleep records the wait instead of waiting. */
function scripted(answers: Response[], retry: { maxRetries?: number; maxDelaySeconds?: number } = {}) {
  const requests: Request[] = [];
  const slept: number[] = [];
  const client = createPartnerClient({
    baseUrl: `${BASE}/`,
    apiKey: 'pds_key_1',
    retry: { ...retry, sleep: async (ms) => void slept.push(ms), now: () => Date.parse('2027-01-01T00:00:00Z') },
    fetch: async (request) => {
      requests.push(request);
      const next = answers.shift();
      if (!next) throw new Error('no answer scripted');
      return next;
    },
  });
  return { client, requests, slept };
}

describe('Client: generated types', () => {
  it('clients/typescript/src/generated/openapi.ts is what openapi-typescript makes of the current OpenAPI document', async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');

    const generated = await clientTypes(buildOpenApi(ROUTES));

    expect(committed === generated, 'the typed client is stale: run `npm run openapi` and commit the result').toBe(true);
  }, 60_000);

  it('is published with the generator, runtime and compiler versions the repository tests it with', () => {
    const manifest = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')) as Record<string, Record<string, string>>;
    const root = manifest('package.json');
    const client = manifest('clients/typescript/package.json');

    expect(client.dependencies).toEqual({ 'openapi-fetch': root.devDependencies!['openapi-fetch'] });
    expect(client.devDependencies).toEqual({ 'openapi-typescript': root.devDependencies!['openapi-typescript'], typescript: root.devDependencies!.typescript });
    expect(client.name).toBe('@villa-distribution/partner-distribution-client');
  });
});

describe('Client: requests and errors', () => {
  it('sends the key as HTTP Basic with an empty password and asks for gzip', async () => {
    const { client, requests } = scripted([json(200, PING)]);

    const ping = await client.GET('/v1/ping');

    expect(ping.agentGroupId).toBe('g');
    expect(requests[0]!.url).toBe(`${BASE}/v1/ping`);
    expect(requests[0]!.headers.get('authorization')).toBe(`Basic ${Buffer.from('pds_key_1:').toString('base64')}`);
    expect(requests[0]!.headers.get('accept-encoding')).toBe('gzip');
  });

  it('throws PartnerApiError carrying code, param, request id and every field of the body', async () => {
    const { client } = scripted([
      json(409, errorBody(409, 'PRICE_MOVED', { expectedTotal: 10500 })),
      json(400, errorBody(400, 'VALIDATION_FAILED', { param: 'size' })),
    ]);

    const moved = await client
      .POST('/v1/bookings', { body: { orderId: 'o', externalBookingId: 'e', acceptedTotal: 1, primaryGuest: { firstName: 'A', lastName: 'B' } } })
      .catch((e: unknown) => e);
    const invalid = await client.GET('/v1/ledger', { params: { query: { size: '500' } } }).catch((e: unknown) => e);

    expect(moved).toBeInstanceOf(PartnerApiError);
    expect(moved).toMatchObject({ status: 409, code: 'PRICE_MOVED', param: undefined, requestId: 'req-1', body: { expectedTotal: 10500 } });
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', param: 'size', message: '400 VALIDATION_FAILED: VALIDATION_FAILED happened' });
  });

  it('names an answer that is not the service error body by its status', async () => {
    const { client } = scripted([new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })]);

    const error = await client.GET('/v1/ping').catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', body: undefined });
  });
});

describe('Client: Retry-After', () => {
  it('waits out a 429 and a 503 for the seconds each asks, then answers, sending the same body each time', async () => {
    const { client, requests, slept } = scripted([
      json(429, errorBody(429, 'RATE_LIMITED'), { 'retry-after': '3' }),
      json(503, errorBody(503, 'SERVICE_UNAVAILABLE'), { 'retry-after': '1' }),
      json(200, JSON.stringify({ paymentId: 'p', invoiceId: null, duplicate: false })),
    ]);

    const answer = await client.POST('/gateway/notifications', {
      body: {
        entity: 'event',
        event: 'payment.captured',
        contains: ['payment'],
        payload: { payment: { entity: { id: 'pay_p', order_id: 'order_o', amount: 100, currency: 'INR', status: 'captured', created_at: 1798761600 } } },
        created_at: 1798761600,
      },
    });

    expect(answer.paymentId).toBe('p');
    expect(slept).toEqual([3_000, 1_000]);
    const bodies = await Promise.all(requests.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toContain('payment.captured');
  });

  it('gives up after maxRetries and throws the last answer', async () => {
    const { client, requests, slept } = scripted(
      [1, 2, 3].map(() => json(429, errorBody(429, 'RATE_LIMITED'), { 'retry-after': '1' })),
      { maxRetries: 2 },
    );

    const error = await client.GET('/v1/ping').catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect([requests.length, slept]).toEqual([3, [1_000, 1_000]]);
  });

  it('does not wait longer than maxDelaySeconds, nor guess a delay the server did not give, nor retry other statuses', async () => {
    for (const answer of [
      json(429, errorBody(429, 'RATE_LIMITED'), { 'retry-after': '61' }),
      json(503, errorBody(503, 'SERVICE_UNAVAILABLE')),
      json(500, errorBody(500, 'INTERNAL_ERROR'), { 'retry-after': '1' }),
    ]) {
      const { client, requests, slept } = scripted([answer], { maxDelaySeconds: 60 });

      await expect(client.GET('/v1/ping')).rejects.toBeInstanceOf(PartnerApiError);
      expect([requests.length, slept]).toEqual([1, []]);
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2027-01-01T00:00:00Z');

    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds('Fri, 01 Jan 2027 00:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Thu, 31 Dec 2026 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });
});

describe('Client: cursor iteration', () => {
  const page = (ids: string[], nextCursor: string | null) =>
    json(200, JSON.stringify({ data: ids.map((id) => ({ id })), nextCursor, creditLimit: 0, availableCredit: 0, exposure: 0 }));

  it('follows nextCursor through empty pages until it is null, keeping the filters', async () => {
    const { client, requests } = scripted([page(['a'], 'c1'), page([], 'c2'), page(['b'], null)]);

    const rows: unknown[] = [];
    for await (const row of client.each('/v1/ledger', { query: { type: 'PAYMENT', size: '1' } })) rows.push(row);

    expect(rows).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(requests.map((r) => new URL(r.url).search)).toEqual(['?type=PAYMENT&size=1', '?type=PAYMENT&size=1&cursor=c1', '?type=PAYMENT&size=1&cursor=c2']);
  });

  it('stops a feed at its first empty page, whose cursor is where the next poll starts', async () => {
    const { client, requests } = scripted([
      json(200, JSON.stringify({ data: [{ eventType: 'rate.changed' }], nextCursor: 'f1' })),
      json(200, JSON.stringify({ data: [], nextCursor: 'f2' })),
    ]);

    const pages = [];
    for await (const p of client.pages('/api/changes')) pages.push(p);

    expect(pages.map((p) => p.nextCursor)).toEqual(['f1', 'f2']);
    expect(requests).toHaveLength(2);
  });
});

describe('Client: signature verifiers', () => {
  const secret = 'whsec_client_cross_check_0001';
  const webhook = catalogueWebhookBody({
    eventType: 'rate.changed',
    entityType: 'listing',
    entityId: 'goa-1',
    fromDate: '2027-01-01',
    toDate: '2027-01-03',
    occurredAt: '2027-01-01T00:00:00.000Z',
    dedupKey: 'k1',
  });
  const callback = bookingCallbackBody(
    callbackOutcome({ agentGroupId: 'group-1', partnerId: 'partner-1' }, 'https://agent.example/callbacks', {
      bookingId: 'PMS-9001',
      externalBookingId: 'EXT-42',
    }),
  );
  const t = 1_790_000_000;

  it('accepts a catalogue webhook signed by the service and nothing else', () => {
    const signature = signWebhookBody(webhook, secret);

    expect(verifyWebhookSignature(webhook, signature, secret)).toBe(true);
    expect(verifyWebhookSignature(new TextEncoder().encode(webhook), signature, secret)).toBe(true);
    expect(parseWebhook(webhook, signature, secret)).toMatchObject({ eventType: 'rate.changed', entityId: 'goa-1' });
    expect(verifyWebhookSignature(`${webhook} `, signature, secret)).toBe(false);
    expect(verifyWebhookSignature(webhook, signature, `${secret}x`)).toBe(false);
    expect(verifyWebhookSignature(webhook, undefined, secret)).toBe(false);
    expect(() => parseWebhook(webhook, signWebhookBody(webhook, 'other'), secret)).toThrow(SignatureError);
  });

  it('accepts a booking callback signed by the service within 300 seconds, and refuses a stale, future, altered or malformed one', () => {
    const header = signCallback(callback, secret, t);

    expect(verifyCallbackSignature(callback, header, secret, t + 300)).toBe(true);
    expect(parseCallback(callback, header, secret, t - 300)).toMatchObject({ eventType: 'booking.confirmed', bookingId: 'PMS-9001' });
    expect(verifyCallbackSignature(callback, header, secret, t + 301)).toBe(false);
    expect(verifyCallbackSignature(callback, header, secret, t - 301)).toBe(false);
    expect(verifyCallbackSignature(callback.replace('EXT-42', 'EXT-43'), header, secret, t)).toBe(false);
    expect(verifyCallbackSignature(callback, header.toUpperCase(), secret, t)).toBe(false);
    expect(verifyCallbackSignature(callback, `${header},v0=00`, secret, t)).toBe(false);
    expect(() => parseCallback(callback, header, secret, t + 301)).toThrow(SignatureError);
  });
});

import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../functions/contracts/common.ts';
import { call, newAgentGroup, newPartner, type CallResult, type GroupFixture, type PartnerFixture } from '../support/stack.ts';

let partner: PartnerFixture;
let group: GroupFixture;

beforeAll(async () => {
  [partner, group] = await Promise.all([newPartner(), newAgentGroup()]);
});

/** The error body (docs/product-rules.md "Errors"): exactly these fields, nothing else. */
function expectErrorBody(res: CallResult, status: number, error: string, code: string, path: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(v.safeParse(ErrorBodySchema, res.body).success).toBe(true);
  expect(res.body).toEqual({ status, error, message: expect.any(String), path, timestamp: expect.any(String), code });
  expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
}

/** The raw response text with the two values that may differ between equivalent errors blanked. */
function normalised(res: CallResult): string {
  const { path, timestamp } = res.body as { path: string; timestamp: string };
  return res.text.replace(JSON.stringify(path), '"<path>"').replace(JSON.stringify(timestamp), '"<timestamp>"');
}

describe('Unknown paths', () => {
  it('answers 404 with the error body under /api for a valid partner key', async () => {
    const res = await call('GET', '/api/no-such-resource', { key: partner.apiKey });

    expectErrorBody(res, 404, 'Not Found', 'ROUTE_NOT_FOUND', '/api/no-such-resource');
  });

  it('answers 404 with the error body under /v1 for a valid group key', async () => {
    const res = await call('GET', '/v1/listings/abc/nothing-here', { key: group.apiKey });

    expectErrorBody(res, 404, 'Not Found', 'ROUTE_NOT_FOUND', '/v1/listings/abc/nothing-here');
  });

  it('counts an unknown path under /api as an authenticated request, with rate headers', async () => {
    const res = await call('GET', '/api/no-such-resource', { key: partner.apiKey });

    expect(res.headers.get('x-ratelimit-limit')).toBe('600');
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it('checks the key before admitting a path exists: no key under /v1 is 401, not 404', async () => {
    const res = await call('GET', '/v1/no-such-resource');

    expectErrorBody(res, 401, 'Unauthorized', 'UNAUTHORIZED', '/v1/no-such-resource');
  });

  it('answers 404 outside /api and /v1 without asking for a key', async () => {
    const res = await call('GET', '/nowhere/at/all');

    expectErrorBody(res, 404, 'Not Found', 'ROUTE_NOT_FOUND', '/nowhere/at/all');
    expect(res.headers.has('x-ratelimit-limit')).toBe(false);
  });

  it('answers 404 for the bare root', async () => {
    const res = await call('GET', '/');

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });

  it('tells a missing route from a missing resource: an unknown action under a booking is ROUTE_NOT_FOUND, an unknown booking NOT_FOUND', async () => {
    const route = await call('POST', '/v1/bookings/bk-123/no-such-thing', { key: group.apiKey, body: {} });
    const resource = await call('GET', '/v1/bookings/bk-123', { key: group.apiKey });

    expectErrorBody(route, 404, 'Not Found', 'ROUTE_NOT_FOUND', '/v1/bookings/bk-123/no-such-thing');
    expectErrorBody(resource, 404, 'Not Found', 'NOT_FOUND', '/v1/bookings/bk-123');
    expect(route.body.message).not.toBe(resource.body.message);
  });

  it('makes every unknown-route 404 byte-identical apart from timestamp and path', async () => {
    const responses = await Promise.all([
      call('GET', '/v1/bookings/bk-123/items', { key: group.apiKey }),
      call('GET', '/v1/whatever', { key: group.apiKey }),
      call('GET', '/api/no-such-resource', { key: partner.apiKey }),
      call('DELETE', '/elsewhere'),
    ]);

    expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    expect(new Set(responses.map(normalised)).size).toBe(1);
  });
});

describe('Wrong method', () => {
  it('answers 405 with Allow: GET for POST /api/ping', async () => {
    const res = await call('POST', '/api/ping', { key: partner.apiKey, body: {} });

    expectErrorBody(res, 405, 'Method Not Allowed', 'METHOD_NOT_ALLOWED', '/api/ping');
    expect(res.headers.get('allow')).toBe('GET');
    expect((res.body as { message: string }).message).toContain('GET');
    expect(res.headers.get('x-ratelimit-limit')).toBe('600');
  });

  it('answers 405 for DELETE /v1/ping with a group key', async () => {
    const res = await call('DELETE', '/v1/ping', { key: group.apiKey });

    expectErrorBody(res, 405, 'Method Not Allowed', 'METHOD_NOT_ALLOWED', '/v1/ping');
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('asks for the key before telling which methods exist under /api', async () => {
    const res = await call('POST', '/api/ping');

    expect(res.status).toBe(401);
    expect(res.headers.has('allow')).toBe(false);
  });
});

describe('Long URLs', () => {
  const query = (length: number) => `?q=${'a'.repeat(length - '/v1/ledger?q='.length)}`;

  it.each([9_000, 100_000])('refuses a %i-character URL with 414 URI_TOO_LONG in the error body, before the key is checked', async (length) => {
    const res = await call('GET', `/v1/ledger${query(length)}`);

    expectErrorBody(res, 414, 'URI Too Long', 'URI_TOO_LONG', '/v1/ledger');
    expect(res.body.message).toContain('8192');
  });

  it('reads a URL of exactly 8,192 characters as usual', async () => {
    const res = await call('GET', `/v1/ledger${query(8_192)}`, { key: group.apiKey });

    expect(res.status).not.toBe(414);
    expect(res.status).toBeLessThan(500);
  });

  it('echoes only the start of an over-long path', async () => {
    const res = await call('GET', `/v1/${'x'.repeat(9_000)}`);

    expect(res.status).toBe(414);
    expect(res.body.path).toBe(`/v1/${'x'.repeat(252)}`);
  });
});

import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { describe, expect, it } from 'vitest';
import { issueKey } from '../../domain/admin.ts';
import { adminDeps } from '../../infra/container.ts';
import { expectContract } from '../support/contract.ts';
import { call, newAgentGroup, newPartner, testServices, type CallResult } from '../support/stack.ts';

const PER_MINUTE = 600;
const BURST = 100;
const INTERVAL_MS = 60_000 / PER_MINUTE;

const header = (res: CallResult, name: string): number => Number(res.headers.get(name));

/**
 * Fires `count` requests, at most `inFlight` at a time (default: all at once); returns them
 * with the wall-clock time the whole burst took.
 */
async function burst(count: number, send: (i: number) => Promise<CallResult>, inFlight = count): Promise<{ responses: CallResult[]; elapsedMs: number }> {
  const started = Date.now();
  const responses: CallResult[] = new Array(count);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) responses[i] = await send(i);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, lane));
  return { responses, elapsedMs: Date.now() - started };
}

describe('Rate limiting', () => {
  it('puts X-RateLimit-Limit, -Remaining and -Reset on an authenticated response', async () => {
    // prepare
    const p = await newPartner();
    const before = Math.floor(Date.now() / 1000);

    // act
    const res = await call('GET', '/api/ping', { key: p.apiKey });

    // assess
    expect(res.status).toBe(200);
    expect(header(res, 'x-ratelimit-limit')).toBe(PER_MINUTE);
    expect(header(res, 'x-ratelimit-remaining')).toBe(BURST - 1);
    expect(header(res, 'x-ratelimit-reset')).toBeGreaterThanOrEqual(before);
    expect(header(res, 'x-ratelimit-reset')).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 1);
    expect(res.headers.has('retry-after')).toBe(false);
    expectContract(res, 'apiPing');
  });

  it('counts remaining down by one per request of the same key', async () => {
    const g = await newAgentGroup();

    const first = await call('GET', '/v1/ping', { key: g.apiKey });
    const second = await call('GET', '/v1/ping', { key: g.apiKey });

    expect(header(first, 'x-ratelimit-remaining')).toBe(BURST - 1);
    // At most one token can have come back between the two calls.
    expect(header(second, 'x-ratelimit-remaining')).toBeGreaterThanOrEqual(BURST - 2);
    expect(header(second, 'x-ratelimit-remaining')).toBeLessThanOrEqual(BURST - 1);
    expectContract(second, 'v1Ping');
  });

  it('answers a throttled request with Retry-After, rate headers and the 429 body', async () => {
    // prepare: a key whose bucket is empty (one token a minute)
    const p = await newPartner({ rateLimit: { perMinute: 1, burst: 1 } });
    await call('GET', '/api/ping', { key: p.apiKey });

    // act
    const res = await call('GET', '/api/ping', { key: p.apiKey });

    // assess
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      status: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/retry after \d+ s/),
      path: '/api/ping',
      timestamp: expect.any(String),
      code: 'RATE_LIMITED',
    });
    expect(header(res, 'retry-after')).toBeGreaterThanOrEqual(1);
    expect(header(res, 'retry-after')).toBeLessThanOrEqual(60);
    expect(header(res, 'x-ratelimit-remaining')).toBe(0);
    expect(header(res, 'x-ratelimit-limit')).toBe(1);
    expect(header(res, 'x-ratelimit-reset')).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    expectContract(res, 'apiPing');
  });

  it('gives each credential its own bucket, even two keys of one partner racing each other', { timeout: 90_000 }, async () => {
    // prepare: two keys of one partner with 5-token buckets that refill one token a minute
    const rateLimit = { perMinute: 1, burst: 5 };
    const a = await newPartner({ rateLimit });
    const b = await issueKey(adminDeps(testServices(), TEST_OPERATOR), { owner: { kind: 'partner', id: a.partnerId }, rateLimit });

    // act: 2 × 5 at once would overdraw one shared bucket twice over
    const { responses, elapsedMs } = await burst(10, (i) => call('GET', '/api/ping', { key: i % 2 === 0 ? a.apiKey : b.apiKey }));
    const next = await Promise.all([call('GET', '/api/ping', { key: a.apiKey }), call('GET', '/api/ping', { key: b.apiKey })]);

    // assess: every one of the 10 admitted; then each bucket is empty (bar a minute's refill)
    expect(responses.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    const refill = Math.floor(elapsedMs / 60_000);
    expect(next.filter((r) => r.status === 200).length).toBeLessThanOrEqual(2 * refill);
  });

  it('honours a key’s own limits: reports its per-minute rate and throttles after its burst', async () => {
    // prepare: 30 per minute is one token per 2 s
    const p = await newPartner({ rateLimit: { perMinute: 30, burst: 5 } });

    // act
    const started = Date.now();
    const responses: CallResult[] = [];
    for (let i = 0; i < 7; i++) responses.push(await call('GET', '/api/ping', { key: p.apiKey }));
    const refill = Math.floor((Date.now() - started) / 2000);

    // assess: five admitted, then refusals, less any token the 2 s refill gave back meanwhile
    expect(responses.every((r) => header(r, 'x-ratelimit-limit') === 30)).toBe(true);
    expect(responses.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(header(responses[0]!, 'x-ratelimit-remaining')).toBe(4);
    const throttled = responses.filter((r) => r.status === 429);
    expect(throttled.length).toBeGreaterThanOrEqual(2 - refill);
    for (const res of throttled) expect([1, 2]).toContain(header(res, 'retry-after'));
  });

  it('spends tokens on refused paths too: a 404 under /api counts', async () => {
    const p = await newPartner({ rateLimit: { perMinute: 1, burst: 2 } });

    const notFound = await call('GET', '/api/no-such-thing', { key: p.apiKey });
    const ping = await call('GET', '/api/ping', { key: p.apiKey });
    const throttled = await call('GET', '/api/ping', { key: p.apiKey });

    expect([notFound.status, ping.status, throttled.status]).toEqual([404, 200, 429]);
  });

  it('sends no rate headers with a 401: an unknown key has no bucket', async () => {
    const res = await call('GET', '/api/ping', { key: 'pds_ThisKeyWasNeverIssuedToAnybody000000000' });

    expect(res.status).toBe(401);
    expect(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'].filter((h) => res.headers.has(h))).toEqual([]);
  });

  // serverless offline starts a cold worker for every concurrent request: 110 at once would
  // stall the shared server for everyone else's tests for most of a minute. 16 lanes keep the
  // burst as fast as offline can serve it; the true race on one bucket is the integration test's.
  it('never admits more than 100 + the refill of a burst of 110, nor refuses any of the first 100', { timeout: 120_000 }, async () => {
    // prepare
    const p = await newPartner();

    // act
    const { responses, elapsedMs } = await burst(110, () => call('GET', '/api/ping', { key: p.apiKey }), 16);

    // assess: the burst, plus at most one token per interval that passed while it ran
    const refill = Math.floor(elapsedMs / INTERVAL_MS);
    const ok = responses.filter((r) => r.status === 200).length;
    const throttled = responses.filter((r) => r.status === 429);
    expect(ok + throttled.length).toBe(responses.length);
    expect(ok).toBeGreaterThanOrEqual(BURST);
    expect(ok).toBeLessThanOrEqual(BURST + refill);
    // Whenever the requests outran the refill, the surplus was refused with a proper 429.
    expect(throttled.length).toBeGreaterThanOrEqual(responses.length - BURST - refill);
    for (const res of throttled) {
      expect(res.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', path: '/api/ping' });
      expect(header(res, 'retry-after')).toBeGreaterThanOrEqual(1);
      expect(header(res, 'x-ratelimit-remaining')).toBe(0);
    }
  });

  it('refuses a burst past 100 with 429s carrying the error body, whatever the machine speed', { timeout: 120_000 }, async () => {
    // prepare: the default burst of 100, but one token back only every 10 s, so refill cannot hide the surplus
    const p = await newPartner({ rateLimit: { perMinute: 6, burst: BURST } });

    // act
    const { responses, elapsedMs } = await burst(110, () => call('GET', '/api/ping', { key: p.apiKey }), 16);

    // assess
    const refill = Math.floor(elapsedMs / 10_000);
    const throttled = responses.filter((r) => r.status === 429);
    expect(responses.filter((r) => r.status === 200).length).toBeLessThanOrEqual(BURST + refill);
    expect(throttled.length).toBeGreaterThanOrEqual(10 - refill);
    expect(throttled.length).toBeGreaterThan(0);
    for (const res of throttled) {
      expect(Object.keys(res.body as object).sort()).toEqual(['code', 'error', 'message', 'path', 'status', 'timestamp']);
      expect(res.body).toMatchObject({ status: 429, error: 'Too Many Requests', path: '/api/ping', code: 'RATE_LIMITED' });
      expect(header(res, 'retry-after')).toBeGreaterThanOrEqual(1);
      expect(header(res, 'x-ratelimit-limit')).toBe(6);
    }
  });
});

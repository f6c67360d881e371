import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { intervalMs, type BucketPolicy, type RateDecision } from '../../domain/rate-limit.ts';
import { dynamoCalls, resetDynamoCalls } from '../../infra/dynamo/client.ts';
import { testServices } from '../support/stack.ts';

const DEFAULT: BucketPolicy = { perMinute: 600, burst: 100 };
const freshBucket = (): string => `test-${randomUUID()}`;
const admittedCount = (decisions: readonly RateDecision[]): number => decisions.filter((d) => d.allowed).length;

describe('DynamoRateLimiter', () => {
  it('admits exactly burst of 200 calls racing at one instant on a fresh bucket', async () => {
    // prepare
    const limiter = testServices().rateLimiter;
    const bucket = freshBucket();
    const now = Date.now();

    // act
    const decisions = await Promise.all(Array.from({ length: 200 }, () => limiter.consume(bucket, DEFAULT, now)));

    // assess
    expect(admittedCount(decisions)).toBe(DEFAULT.burst);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.retryAfter >= 1)).toBe(true);
  });

  it('hands every admitted caller a different token when 200 calls race on the wall clock', async () => {
    // prepare
    const limiter = testServices().rateLimiter;
    const bucket = freshBucket();
    const started = Date.now();

    // act
    const decisions = await Promise.all(Array.from({ length: 200 }, () => limiter.consume(bucket, DEFAULT, Date.now())));
    const elapsed = Date.now() - started;

    // assess: the burst, plus at most the tokens that refilled while the race ran
    const refill = Math.floor(elapsed / intervalMs(DEFAULT));
    const admitted = admittedCount(decisions);
    expect(admitted).toBeGreaterThanOrEqual(DEFAULT.burst);
    expect(admitted).toBeLessThanOrEqual(DEFAULT.burst + refill);
    const tats = decisions.filter((d) => d.allowed).map((d) => d.tat);
    expect(new Set(tats).size).toBe(tats.length);
  });

  it('keeps two racing buckets apart: neither spends the other’s tokens', async () => {
    // prepare
    const limiter = testServices().rateLimiter;
    const [a, b] = [freshBucket(), freshBucket()];
    const now = Date.now();

    // act
    const decisions = await Promise.all(
      Array.from({ length: 300 }, (_, i) => limiter.consume(i % 2 === 0 ? a : b, DEFAULT, now).then((d) => ({ bucket: i % 2 === 0 ? a : b, d }))),
    );

    // assess
    expect(admittedCount(decisions.filter((x) => x.bucket === a).map((x) => x.d))).toBe(DEFAULT.burst);
    expect(admittedCount(decisions.filter((x) => x.bucket === b).map((x) => x.d))).toBe(DEFAULT.burst);
  });

  it('honours an override policy: its burst, its per-minute limit and its wait', async () => {
    // prepare
    const limiter = testServices().rateLimiter;
    const bucket = freshBucket();
    const policy: BucketPolicy = { perMinute: 30, burst: 5 };
    const now = Date.now();

    // act
    const decisions: RateDecision[] = [];
    for (let i = 0; i < 6; i++) decisions.push(await limiter.consume(bucket, policy, now));

    // assess
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(decisions.every((d) => d.limit === 30)).toBe(true);
    expect(decisions[5]).toMatchObject({ retryAfter: 2, resetAt: Math.ceil((now + 5 * 2000) / 1000) });
  });

  it('gives a token back one interval after the bucket ran dry', async () => {
    // prepare: an empty 30/min bucket (one token per 2 s)
    const limiter = testServices().rateLimiter;
    const bucket = freshBucket();
    const policy: BucketPolicy = { perMinute: 30, burst: 2 };
    const now = Date.now();
    await limiter.consume(bucket, policy, now);
    await limiter.consume(bucket, policy, now);

    // act
    const early = await limiter.consume(bucket, policy, now + 1999);
    const onTime = await limiter.consume(bucket, policy, now + 2000);

    // assess
    expect(early).toMatchObject({ allowed: false, tat: now + 4000, retryAfter: 1 });
    expect(onTime).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('restarts a bucket idle past full as a fresh one', async () => {
    // prepare
    const limiter = testServices().rateLimiter;
    const bucket = freshBucket();
    const policy: BucketPolicy = { perMinute: 60, burst: 3 };
    const now = Date.now();
    for (let i = 0; i < 3; i++) await limiter.consume(bucket, policy, now);

    // act
    const later = await limiter.consume(bucket, policy, now + 60_000);

    // assess
    expect(later).toMatchObject({ allowed: true, remaining: 2, tat: now + 61_000 });
  });

  it('admits the last token to a request stamped just before a concurrent refill, and nothing beyond it', async () => {
    // prepare: two tokens a minute; a request stamped 50 ms later refills the fresh bucket first
    const limiter = testServices().rateLimiter;
    const bucket = `skew-${randomUUID()}`;
    const policy: BucketPolicy = { perMinute: 1, burst: 2 };
    const t0 = Date.now();
    const later = await limiter.consume(bucket, policy, t0 + 50);

    // act: two requests whose own clocks read t0
    const earlier = await limiter.consume(bucket, policy, t0);
    const beyond = await limiter.consume(bucket, policy, t0);

    // assess: the second token is granted (as of the observed t0 + 50), the third is not
    expect(later.allowed).toBe(true);
    expect(earlier.allowed).toBe(true);
    expect(earlier.remaining).toBe(0);
    expect(beyond.allowed).toBe(false);
  });

  it('keeps the refill time even after an earlier-stamped request spends, so the last token still goes to the next one', async () => {
    // prepare: three tokens a minute; a request stamped 50 ms later refills, one stamped t0 spends
    const limiter = testServices().rateLimiter;
    const bucket = `skew2-${randomUUID()}`;
    const policy: BucketPolicy = { perMinute: 1, burst: 3 };
    const t0 = Date.now();
    await limiter.consume(bucket, policy, t0 + 50);
    const first = await limiter.consume(bucket, policy, t0);

    // act
    const last = await limiter.consume(bucket, policy, t0);
    const beyond = await limiter.consume(bucket, policy, t0);

    // assess
    expect(first.allowed).toBe(true);
    expect(last.allowed).toBe(true);
    expect(beyond.allowed).toBe(false);
  });

  it('spends one write a request, on a bucket used more slowly than its interval as on a busy one', async () => {
    // prepare: a fresh bucket, 60 a minute (one token a second)
    const limiter = testServices().rateLimiter;
    const bucket = freshBucket();
    const policy: BucketPolicy = { perMinute: 60, burst: 5 };
    const now = Date.now();
    const writes = async (at: number) => {
      resetDynamoCalls();
      const decision = await limiter.consume(bucket, policy, at);
      return { allowed: decision.allowed, writes: dynamoCalls.byOperation.UpdateItemCommand ?? 0 };
    };

    // act: a first request, one every 5 s (idle, full again each time), then three at one instant (busy)
    const slow = [await writes(now), await writes(now + 5_000), await writes(now + 10_000)];
    const busy = [await writes(now + 10_000), await writes(now + 10_000), await writes(now + 10_000)];

    // assess
    expect(slow).toEqual(Array(3).fill({ allowed: true, writes: 1 }));
    expect(busy).toEqual(Array(3).fill({ allowed: true, writes: 1 }));
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admit, intervalMs, type BucketPolicy, type RateDecision } from '../../domain/rate-limit.ts';

const DEFAULT: BucketPolicy = { perMinute: 600, burst: 100 };
const NOW = 1_750_000_000_000;

/** Runs requests at the given instants through one bucket; returns every decision in order. */
function replay(policy: BucketPolicy, times: readonly number[]): RateDecision[] {
  let tat: number | undefined;
  return times.map((now) => {
    const decision = admit(policy, tat, now);
    if (decision.allowed) tat = decision.tat;
    return decision;
  });
}

describe('GCRA admit()', () => {
  it('admits exactly burst back-to-back requests on a fresh bucket, then refuses', () => {
    // prepare
    const times = Array.from({ length: DEFAULT.burst + 1 }, () => NOW);

    // act
    const decisions = replay(DEFAULT, times);

    // assess
    expect(decisions.slice(0, DEFAULT.burst).every((d) => d.allowed)).toBe(true);
    expect(decisions[DEFAULT.burst]!.allowed).toBe(false);
  });

  it('counts remaining down from burst − 1 to 0 over a burst', () => {
    const decisions = replay(
      DEFAULT,
      Array.from({ length: DEFAULT.burst }, () => NOW),
    );

    expect(decisions.map((d) => d.remaining)).toEqual(Array.from({ length: DEFAULT.burst }, (_, i) => DEFAULT.burst - 1 - i));
  });

  it('gives one token back per interval after the bucket is empty', () => {
    // prepare: an empty bucket
    const t = intervalMs(DEFAULT);
    const burst = Array.from({ length: DEFAULT.burst }, () => NOW);

    // act
    const [justBefore, atInterval, again] = replay(DEFAULT, [...burst, NOW + t - 1, NOW + t, NOW + t]).slice(DEFAULT.burst);

    // assess
    expect(justBefore!.allowed).toBe(false);
    expect(atInterval!.allowed).toBe(true);
    expect(atInterval!.remaining).toBe(0);
    expect(again!.allowed).toBe(false);
  });

  it('is full again after burst intervals of idleness', () => {
    const t = intervalMs(DEFAULT);
    const burst = Array.from({ length: DEFAULT.burst }, () => NOW);

    const after = replay(DEFAULT, [...burst, NOW + DEFAULT.burst * t]).at(-1)!;

    expect(after).toMatchObject({ allowed: true, remaining: DEFAULT.burst - 1 });
  });

  it('reports the per-minute limit, Unix seconds of full refill and no wait when admitting', () => {
    const decisions = replay(DEFAULT, [NOW, NOW, NOW]);

    expect(decisions[2]).toEqual({
      allowed: true,
      limit: 600,
      remaining: 97,
      resetAt: Math.ceil((NOW + 300) / 1000),
      retryAfter: 0,
      tat: NOW + 300,
    });
  });

  it('reports zero remaining, unchanged tat and whole seconds to wait when refusing', () => {
    // prepare: 30/min → one token every 2 s, so the wait is 2 s
    const policy: BucketPolicy = { perMinute: 30, burst: 5 };

    const refused = replay(policy, [NOW, NOW, NOW, NOW, NOW, NOW + 500]).at(-1)!;

    expect(refused).toEqual({ allowed: false, limit: 30, remaining: 0, resetAt: Math.ceil((NOW + 10_000) / 1000), retryAfter: 2, tat: NOW + 10_000 });
  });

  it('never asks a refused caller to wait less than one second', () => {
    const burst = Array.from({ length: DEFAULT.burst }, () => NOW);

    const refused = replay(DEFAULT, [...burst, NOW + 99]).at(-1)!;

    expect(refused).toMatchObject({ allowed: false, retryAfter: 1 });
  });

  it('admits a request retried after Retry-After seconds', () => {
    const policy: BucketPolicy = { perMinute: 7, burst: 2 };
    const [, , refused] = replay(policy, [NOW, NOW, NOW]);

    const retried = replay(policy, [NOW, NOW, NOW + refused!.retryAfter * 1000]).at(-1)!;

    expect(retried.allowed).toBe(true);
  });

  it('never admits more than burst + W/interval requests in any window of length W', () => {
    const policyArb = fc.record({ perMinute: fc.integer({ min: 1, max: 6000 }), burst: fc.integer({ min: 1, max: 50 }) });
    const gapsArb = fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 300 });
    fc.assert(
      fc.property(policyArb, gapsArb, fc.integer({ min: 1, max: 120_000 }), (policy, gaps, window) => {
        // prepare: non-decreasing request instants
        const times: number[] = [];
        let at = NOW;
        for (const gap of gaps) times.push((at += gap));

        // act
        const admitted = replay(policy, times)
          .map((d, i) => (d.allowed ? times[i]! : undefined))
          .filter((t): t is number => t !== undefined);

        // assess: every window [start, start + W] opened at an admitted instant (the worst case)
        const bound = policy.burst + window / intervalMs(policy) + 1e-9;
        for (let i = 0; i < admitted.length; i++) {
          let j = i;
          while (j < admitted.length && admitted[j]! - admitted[i]! <= window) j++;
          if (j - i > bound) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('never reports more remaining tokens than the burst, nor fewer than zero', () => {
    fc.assert(
      fc.property(
        fc.record({ perMinute: fc.integer({ min: 1, max: 6000 }), burst: fc.integer({ min: 1, max: 50 }) }),
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 200 }),
        (policy, gaps) => {
          let at = NOW;
          const decisions = replay(
            policy,
            gaps.map((g) => (at += g)),
          );
          return decisions.every((d) => Number.isInteger(d.remaining) && d.remaining >= 0 && d.remaining < policy.burst);
        },
      ),
    );
  });
});

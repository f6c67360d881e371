/**
 * Token bucket as GCRA: instead of a token count we keep the "theoretical arrival time"
 * (tat) — the instant the bucket will be full again. One number per credential, so a
 * single conditional write decides a request (infra/dynamo/dynamo-rate-limiter.ts).
 *
 * With interval T = 60 s / perMinute and tolerance τ = (burst − 1)·T, a request at `now`
 * is admitted iff max(tat, now) − now ≤ τ, and then tat' = max(tat, now) + T.
 * This admits exactly `burst` back-to-back requests on a full bucket and refills one
 * token every T.
 */
export interface BucketPolicy {
  readonly perMinute: number;
  readonly burst: number;
}

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Whole tokens left after this request. */
  readonly remaining: number;
  /** Unix seconds when the bucket is full again. */
  readonly resetAt: number;
  /** Whole seconds to wait before one token is back; 0 when allowed. */
  readonly retryAfter: number;
  /** The new tat in ms (unchanged when denied). */
  readonly tat: number;
}

export const intervalMs = (p: BucketPolicy): number => 60_000 / p.perMinute;
export const toleranceMs = (p: BucketPolicy): number => (p.burst - 1) * intervalMs(p);

/** Pure decision for a bucket whose stored tat is `storedTat` (undefined: never used). */
export function admit(policy: BucketPolicy, storedTat: number | undefined, now: number): RateDecision {
  const t = intervalMs(policy);
  const base = Math.max(storedTat ?? now, now);
  if (base - now > toleranceMs(policy)) return denied(policy, base, now);
  return allowed(policy, base + t, now);
}

/** The decision for an admitted request that moved the bucket to `newTat`. */
export function allowed(policy: BucketPolicy, newTat: number, now: number): RateDecision {
  const t = intervalMs(policy);
  // Tokens left = (burst·T − (tat' − now)) / T, floored; clamp the float fuzz at the edges.
  const remaining = Math.min(policy.burst, Math.max(0, Math.floor((policy.burst * t - (newTat - now)) / t + 1e-9)));
  return { allowed: true, limit: policy.perMinute, remaining, resetAt: Math.ceil(newTat / 1000), retryAfter: 0, tat: newTat };
}

/** The decision for a refused request against a bucket whose tat is `tat`. */
export function denied(policy: BucketPolicy, tat: number, now: number): RateDecision {
  const waitMs = tat - toleranceMs(policy) - now;
  return {
    allowed: false,
    limit: policy.perMinute,
    remaining: 0,
    resetAt: Math.ceil(tat / 1000),
    retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
    tat,
  };
}

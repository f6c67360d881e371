import type { BucketPolicy, RateDecision } from '../rate-limit.ts';

/** Decides one request against a credential's bucket, atomically across every instance. */
export interface RateLimiter {
  consume(bucketId: string, policy: BucketPolicy, now: number): Promise<RateDecision>;
}

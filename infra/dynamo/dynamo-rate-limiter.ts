import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RateLimiter } from '../../domain/ports/rate-limiter.ts';
import { allowed, denied, intervalMs, toleranceMs, type BucketPolicy, type RateDecision } from '../../domain/rate-limit.ts';
import { isConditionFailure } from './client.ts';
import { keys } from './keys.ts';

/**
 * Timeline the two conditions guard (tat = when the bucket is full again):
 *   tat < now                     bucket full (idle): restart from now         → REFILL
 *   now ≤ tat ≤ now + τ           tokens left: push tat one interval later     → SPEND
 *   tat > now + τ                 empty: refuse, tat unchanged
 * Each write is atomic, so racing instances never hand out the same token twice. A refill
 * also records the refiller's clock (`seen`, the base the tat was built from), so a request
 * stamped a few ms before a concurrent refill can be decided at that observed time rather
 * than refused early. Spends leave `seen` alone: an earlier-stamped spender must not hide
 * the later reading the bucket was built on.
 */
const SPEND = 'tat BETWEEN :now AND :ceiling';
const REFILL = 'attribute_not_exists(tat) OR tat < :now';
/** A bucket idle this long past full is indistinguishable from a new one; let TTL drop it. */
const IDLE_TTL_SECONDS = 3600;
const MAX_ATTEMPTS = 4;
/** Buckets whose last tat this process remembers; past it the hints start over (a hint only orders the writes). */
const MAX_HINTS = 10_000;

export class DynamoRateLimiter implements RateLimiter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * The tat this process last saw of each bucket. A credential used more slowly than its
   * interval (most are) finds its bucket full again on every request, so the SPEND write would
   * fail before the REFILL: a bucket last seen full by now is refilled first, one write instead
   * of two. The hint only orders the two conditional writes; a wrong one (another instance spent
   * since) costs the second write, as before.
   */
  private readonly lastTat = new Map<string, number>();

  async consume(bucketId: string, policy: BucketPolicy, now: number): Promise<RateDecision> {
    const decision = await this.decide(bucketId, policy, now);
    if (this.lastTat.size >= MAX_HINTS) this.lastTat.clear();
    this.lastTat.set(bucketId, decision.tat);
    return decision;
  }

  private async decide(bucketId: string, policy: BucketPolicy, now: number): Promise<RateDecision> {
    const t = intervalMs(policy);
    let at = now;
    if ((this.lastTat.get(bucketId) ?? -Infinity) < at) {
      const refilled = await this.write(bucketId, 'SET tat = :fresh, expiresAt = :ttl, seen = :now', REFILL, { ':now': at, ':fresh': at + t }, at);
      if (refilled.ok) return allowed(policy, refilled.tat, at);
    }
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const spent = await this.write(
        bucketId,
        'SET tat = tat + :t, expiresAt = :ttl',
        SPEND,
        {
          ':now': at,
          ':ceiling': at + toleranceMs(policy),
          ':t': t,
        },
        at,
      );
      if (spent.ok) return allowed(policy, spent.tat, at);
      if (spent.tat !== undefined && spent.tat >= at) {
        // Concurrent requests read slightly different clocks. When a later-stamped request
        // refilled the bucket, this one would pass as of that writer's reading — a time
        // that has already happened — so decide it there instead of refusing it early.
        if (spent.seen !== undefined && spent.seen > at && spent.tat - toleranceMs(policy) <= spent.seen) {
          at = spent.seen;
          continue;
        }
        return denied(policy, spent.tat, at);
      }

      const refilled = await this.write(bucketId, 'SET tat = :fresh, expiresAt = :ttl, seen = :now', REFILL, { ':now': at, ':fresh': at + t }, at);
      if (refilled.ok) return allowed(policy, refilled.tat, at);
      // Another instance refilled between our two writes: spend from its bucket instead.
    }
    // Sustained contention on one credential: refuse rather than admit unaccounted requests.
    return denied(policy, at + toleranceMs(policy) + t, at);
  }

  private async write(
    bucketId: string,
    update: string,
    condition: string,
    values: Record<string, number>,
    now: number,
  ): Promise<{ ok: true; tat: number } | { ok: false; tat: number | undefined; seen: number | undefined }> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.rateBucket(bucketId),
          UpdateExpression: update,
          ConditionExpression: condition,
          ExpressionAttributeValues: { ...values, ':ttl': Math.ceil(now / 1000) + IDLE_TTL_SECONDS },
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { ok: true, tat: Number(out.Attributes?.tat) };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const old = (err as { Item?: Record<string, { N?: string }> }).Item;
      const num = (a: { N?: string } | undefined) => (a?.N !== undefined ? Number(a.N) : undefined);
      return { ok: false, tat: num(old?.tat), seen: num(old?.seen) };
    }
  }
}

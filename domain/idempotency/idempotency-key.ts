import { ConflictError, ValidationError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { IdempotencyStore, StoredReply } from '../ports/idempotency-store.ts';

/** The request header, as partners of Stripe-like APIs send it. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** The answer header marking a replayed answer, as Stripe names it. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key is kept: a retry within a day replays the first answer. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/**
 * How long a claimed key without an answer counts as in flight. Longer than any HTTP
 * function's timeout (29 s at most), so a live run is never taken over; past it the run
 * is dead (its function crashed or timed out) and a retry runs the request again.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 60;
export const IDEMPOTENCY_KEY_MAX = 255;

/** The header's value when sent: 1–255 printable ASCII characters; otherwise a 400 naming it. */
export function idempotencyKeyOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw new ValidationError(
      IDEMPOTENCY_HEADER,
      `${IDEMPOTENCY_HEADER} must be 1–${IDEMPOTENCY_KEY_MAX} printable ASCII characters without spaces, such as a UUID.`,
    );
  }
  return value;
}

export interface IdempotentRun {
  /** Caller and operation: the same key used by another tenant or on another operation is another key. */
  readonly scope: string;
  readonly key: string;
  /** Hash of what the request asks (path and body), compared on reuse. */
  readonly requestHash: string;
}

/**
 * Runs a creating request at most once per key. The first request with a key runs and its
 * answer is kept for IDEMPOTENCY_TTL_HOURS; the same key with the same request gets that
 * answer again (`replayed`), with another request a 409 naming the header. A key whose first
 * request is still running is a 409 too: retrying later replays its answer. A refusal (a
 * thrown error) and a 5xx answer are not kept: nothing was created, so a retry is judged
 * afresh, as Stripe does for requests that fail before they start executing.
 */
export async function runOnce(
  deps: { readonly idempotency: IdempotencyStore; readonly clock: Clock; readonly ids: IdGenerator },
  run: IdempotentRun,
  execute: () => Promise<StoredReply>,
): Promise<{ reply: StoredReply; replayed: boolean }> {
  const now = deps.clock.now();
  const claimId = deps.ids.uuid();
  const existing = await deps.idempotency.claim(run.scope, run.key, {
    requestHash: run.requestHash,
    claimId,
    now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_HOURS * 3_600_000),
    leaseUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_SECONDS * 1000),
  });
  if (existing) {
    if (existing.requestHash !== run.requestHash) {
      throw new ConflictError(
        'CONFLICT',
        `${IDEMPOTENCY_HEADER} ${JSON.stringify(run.key)} was already used with another request body; send a new key for a new request.`,
        { reasonCode: 'IDEMPOTENCY_KEY_REUSED', param: IDEMPOTENCY_HEADER },
      );
    }
    if (!existing.reply) {
      throw new ConflictError(
        'CONFLICT',
        `A request with ${IDEMPOTENCY_HEADER} ${JSON.stringify(run.key)} is still being processed; retry in a moment to get its answer.`,
        { reasonCode: 'IDEMPOTENCY_KEY_IN_USE', param: IDEMPOTENCY_HEADER },
      );
    }
    return { reply: existing.reply, replayed: true };
  }
  let reply: StoredReply;
  try {
    reply = await execute();
  } catch (err) {
    await deps.idempotency.release(run.scope, run.key, claimId);
    throw err;
  }
  if (reply.status >= 500) await deps.idempotency.release(run.scope, run.key, claimId);
  else await deps.idempotency.complete(run.scope, run.key, claimId, reply);
  return { reply, replayed: false };
}

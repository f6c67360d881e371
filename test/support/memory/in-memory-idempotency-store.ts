import type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore, StoredReply } from '../../../domain/ports/idempotency-store.ts';

interface Held extends IdempotencyRecord {
  readonly claimId: string;
  readonly expiresAt: number;
  readonly leaseUntil: number;
}

/**
 * Idempotency keys in memory, for rule tests in the unit tier, with DynamoIdempotencyStore's
 * rules: a key is free when unheld, expired, or claimed without an answer past its lease;
 * keeping and freeing need the claim's id. Each call is one synchronous step, so concurrent
 * claims are atomic as the conditional put makes them.
 */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly keys = new Map<string, Held>();

  async claim(scope: string, key: string, claim: IdempotencyClaim): Promise<IdempotencyRecord | undefined> {
    const id = `${scope}\n${key}`;
    const now = claim.now.getTime();
    const held = this.keys.get(id);
    if (held && held.expiresAt >= now && (held.reply || held.leaseUntil >= now))
      return { requestHash: held.requestHash, ...(held.reply ? { reply: held.reply } : {}) };
    this.keys.set(id, { requestHash: claim.requestHash, claimId: claim.claimId, expiresAt: claim.expiresAt.getTime(), leaseUntil: claim.leaseUntil.getTime() });
    return undefined;
  }

  async complete(scope: string, key: string, claimId: string, reply: StoredReply): Promise<void> {
    const held = this.keys.get(`${scope}\n${key}`);
    if (held?.claimId === claimId) this.keys.set(`${scope}\n${key}`, { ...held, reply: JSON.parse(JSON.stringify(reply)) as StoredReply });
  }

  async release(scope: string, key: string, claimId: string): Promise<void> {
    if (this.keys.get(`${scope}\n${key}`)?.claimId === claimId) this.keys.delete(`${scope}\n${key}`);
  }
}

/** The answer a creating request gave, kept to be replayed for its Idempotency-Key. */
export interface StoredReply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a key holds: the request it was first used with and, once answered, the answer. */
export interface IdempotencyRecord {
  readonly requestHash: string;
  readonly reply?: StoredReply;
}

export interface IdempotencyClaim {
  readonly requestHash: string;
  /** Names this claim, so only the run that made it keeps or frees it. */
  readonly claimId: string;
  readonly now: Date;
  /** When the key is forgotten, answered or not. */
  readonly expiresAt: Date;
  /** When a claim still without an answer is taken to be dead (its run crashed) and the key is claimable again. */
  readonly leaseUntil: Date;
}

/**
 * Keys of creating requests, per caller and operation. `claim` is atomic: of any number of
 * concurrent claims of one live key exactly one gets `undefined` (it runs the request); the
 * others get the record as it stands. An expired key, or one whose run's lease ran out
 * without an answer, is claimable again.
 */
export interface IdempotencyStore {
  claim(scope: string, key: string, claim: IdempotencyClaim): Promise<IdempotencyRecord | undefined>;
  /** Keeps the answer of the claim that ran; a no-op when that claim is no longer the key's. */
  complete(scope: string, key: string, claimId: string, reply: StoredReply): Promise<void>;
  /** Frees a claim whose request ended without an answer worth keeping, so a retry runs it; a no-op when that claim is no longer the key's. */
  release(scope: string, key: string, claimId: string): Promise<void>;
}

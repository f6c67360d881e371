import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IdempotencyClaim, IdempotencyStore } from '../../../domain/ports/idempotency-store.ts';

const T0 = new Date('2027-03-01T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const claimAt = (seconds: number, requestHash = 'h-1'): IdempotencyClaim => ({
  requestHash,
  claimId: randomUUID(),
  now: at(seconds),
  expiresAt: at(seconds + 86_400),
  leaseUntil: at(seconds + 60),
});

/**
 * The IdempotencyStore port's contract, run against the in-memory store (unit tier) and
 * DynamoIdempotencyStore on DynamoDB Local (integration tier), so the rule tests' store
 * behaves as the real one. Each case uses its own scope: the table is shared.
 */
export function idempotencyStoreContract(name: string, store: () => IdempotencyStore): void {
  describe(`${name}: the IdempotencyStore contract`, () => {
    const scope = () => `group:${randomUUID()}#createThing`;

    it('of 12 concurrent claims of one key exactly one wins; the others see the claim, unanswered', async () => {
      const s = scope();
      const claims = Array.from({ length: 12 }, () => claimAt(0));
      const results = await Promise.all(claims.map((c) => store().claim(s, 'k', c)));
      expect(results.filter((r) => r === undefined)).toHaveLength(1);
      expect(results.filter((r) => r !== undefined)).toEqual(Array.from({ length: 11 }, () => ({ requestHash: 'h-1' })));
    });

    it('keeps the answer of the winning claim only, and gives it back with the request hash', async () => {
      const s = scope();
      const mine = claimAt(0);
      expect(await store().claim(s, 'k', mine)).toBeUndefined();
      await store().complete(s, 'k', randomUUID(), { status: 201, body: { id: 'not mine' } });
      expect(await store().claim(s, 'k', claimAt(1))).toEqual({ requestHash: 'h-1' });
      await store().complete(s, 'k', mine.claimId, { status: 201, body: { id: 'x', n: [1, null, 'ä'] }, headers: { Location: '/x' } });
      expect(await store().claim(s, 'k', claimAt(2, 'h-2'))).toEqual({
        requestHash: 'h-1',
        reply: { status: 201, body: { id: 'x', n: [1, null, 'ä'] }, headers: { Location: '/x' } },
      });
    });

    it('release frees the key for the claim that holds it only', async () => {
      const s = scope();
      const mine = claimAt(0);
      await store().claim(s, 'k', mine);
      await store().release(s, 'k', randomUUID());
      expect(await store().claim(s, 'k', claimAt(1))).toEqual({ requestHash: 'h-1' });
      await store().release(s, 'k', mine.claimId);
      expect(await store().claim(s, 'k', claimAt(2, 'h-2'))).toBeUndefined();
    });

    it('an answered key is kept until it expires, then claimable again', async () => {
      const s = scope();
      const mine = claimAt(0);
      await store().claim(s, 'k', mine);
      await store().complete(s, 'k', mine.claimId, { status: 200, body: {} });
      expect(await store().claim(s, 'k', claimAt(86_399))).toMatchObject({ requestHash: 'h-1' });
      expect(await store().claim(s, 'k', claimAt(86_401, 'h-2'))).toBeUndefined();
    });

    it('an unanswered claim past its lease is taken over, and the old claim can no longer answer or free it', async () => {
      const s = scope();
      const dead = claimAt(0);
      await store().claim(s, 'k', dead);
      expect(await store().claim(s, 'k', claimAt(59))).toEqual({ requestHash: 'h-1' });
      const next = claimAt(61, 'h-2');
      expect(await store().claim(s, 'k', next)).toBeUndefined();
      await store().complete(s, 'k', dead.claimId, { status: 201, body: { stale: true } });
      await store().release(s, 'k', dead.claimId);
      expect(await store().claim(s, 'k', claimAt(62))).toEqual({ requestHash: 'h-2' });
    });

    it('keys are independent across scopes', async () => {
      const [a, b] = [scope(), scope()];
      expect(await store().claim(a, 'k', claimAt(0))).toBeUndefined();
      expect(await store().claim(b, 'k', claimAt(0))).toBeUndefined();
    });
  });
}

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../domain/errors.ts';
import { IDEMPOTENCY_LEASE_SECONDS, IDEMPOTENCY_TTL_HOURS, idempotencyKeyOf, runOnce, type IdempotentRun } from '../../domain/idempotency/idempotency-key.ts';
import type { StoredReply } from '../../domain/ports/idempotency-store.ts';
import { InMemoryIdempotencyStore } from '../support/memory/in-memory-idempotency-store.ts';
import { idempotencyStoreContract } from '../support/contracts/idempotency-store-contract.ts';

/** The rules of Idempotency-Key over the in-memory store, at a clock the test moves. */
function world() {
  let now = new Date('2027-03-01T10:00:00Z');
  const deps = { idempotency: new InMemoryIdempotencyStore(), clock: { now: () => now }, ids: { uuid: randomUUID } };
  let runs = 0;
  const created = async (): Promise<StoredReply> => ({ status: 201, body: { id: `thing-${++runs}` }, headers: { Location: `/things/${runs}` } });
  return {
    deps,
    runs: () => runs,
    created,
    advance: (ms: number) => (now = new Date(now.getTime() + ms)),
    once: (run: IdempotentRun, execute: () => Promise<StoredReply> = created) => runOnce(deps, run, execute),
  };
}

const run = (over: Partial<IdempotentRun> = {}): IdempotentRun => ({ scope: 'group:g1#createThing', key: 'k-1', requestHash: 'h-1', ...over });

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConflictError);
  return err as ConflictError;
};

describe('Idempotency-Key', () => {
  it('the same key and request replays the first answer, status, body and headers, and runs once', async () => {
    const w = world();
    const first = await w.once(run());
    const second = await w.once(run());
    expect(first).toEqual({ reply: { status: 201, body: { id: 'thing-1' }, headers: { Location: '/things/1' } }, replayed: false });
    expect(second).toEqual({ reply: first.reply, replayed: true });
    expect(w.runs()).toBe(1);
  });

  it('the same key with another request is a 409 naming the header, and runs nothing', async () => {
    const w = world();
    await w.once(run());
    const err = await refusal(w.once(run({ requestHash: 'h-2' })));
    expect(err.code).toBe('CONFLICT');
    expect(err.details).toEqual({ reasonCode: 'IDEMPOTENCY_KEY_REUSED', param: 'Idempotency-Key' });
    expect(err.message).toContain('Idempotency-Key "k-1"');
    expect(w.runs()).toBe(1);
  });

  it('a second request while the first still runs is a 409 IDEMPOTENCY_KEY_IN_USE; after it, the answer replays', async () => {
    const w = world();
    let finish!: () => void;
    const first = w.once(run(), async () => {
      await new Promise<void>((resolve) => (finish = resolve));
      return w.created();
    });
    const err = await refusal(w.once(run()));
    expect(err.details).toEqual({ reasonCode: 'IDEMPOTENCY_KEY_IN_USE', param: 'Idempotency-Key' });
    finish();
    expect((await first).replayed).toBe(false);
    expect(await w.once(run())).toEqual({ reply: (await first).reply, replayed: true });
    expect(w.runs()).toBe(1);
  });

  it('keys are per scope: another tenant or operation with the same key runs its own request', async () => {
    const w = world();
    await w.once(run());
    expect((await w.once(run({ scope: 'group:g2#createThing' }))).replayed).toBe(false);
    expect((await w.once(run({ scope: 'group:g1#createOther', requestHash: 'h-9' }))).replayed).toBe(false);
    expect(w.runs()).toBe(3);
  });

  it(`a key is kept ${IDEMPOTENCY_TTL_HOURS} hours: just before, it replays; after, the request runs again`, async () => {
    const w = world();
    await w.once(run());
    w.advance(IDEMPOTENCY_TTL_HOURS * 3_600_000 - 1000);
    expect((await w.once(run({ requestHash: 'h-1' }))).replayed).toBe(true);
    w.advance(2000);
    const again = await w.once(run({ requestHash: 'h-other' }));
    expect(again).toMatchObject({ replayed: false, reply: { body: { id: 'thing-2' } } });
  });

  it('a claim whose run died (no answer past the lease) is taken over by the next request', async () => {
    const w = world();
    void w.once(run(), () => new Promise<StoredReply>(() => undefined));
    await refusal(w.once(run()));
    w.advance(IDEMPOTENCY_LEASE_SECONDS * 1000 + 1000);
    expect(await w.once(run())).toMatchObject({ replayed: false, reply: { body: { id: 'thing-1' } } });
  });

  it('a refusal or a 5xx keeps nothing: the retry runs again', async () => {
    const w = world();
    await expect(w.once(run(), async () => Promise.reject(new ValidationError('name', 'name is taken.')))).rejects.toThrow('name is taken.');
    expect((await w.once(run(), async () => ({ status: 503, body: {} }))).reply.status).toBe(503);
    expect(await w.once(run())).toMatchObject({ replayed: false, reply: { status: 201 } });
    expect(w.runs()).toBe(1);
  });

  it('the header is 1–255 printable ASCII characters, else a 400 naming it', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
    expect(idempotencyKeyOf('7b4f8c1e-2f0a-4a53-9a51-0f1e6a2d9c11')).toBe('7b4f8c1e-2f0a-4a53-9a51-0f1e6a2d9c11');
    for (const bad of ['', 'has space', 'x'.repeat(256), 'ключ']) {
      expect(() => idempotencyKeyOf(bad)).toThrow(ValidationError);
      try {
        idempotencyKeyOf(bad);
      } catch (e) {
        expect((e as ValidationError).param).toBe('Idempotency-Key');
      }
    }
  });
});

const memoryStore = new InMemoryIdempotencyStore();
idempotencyStoreContract('InMemoryIdempotencyStore', () => memoryStore);

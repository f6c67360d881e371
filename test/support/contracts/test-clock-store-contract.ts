import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TestClockStore } from '../../../domain/ports/test-clock-store.ts';
import { clockOf, newTestClock } from '../../../domain/test-clocks/test-clock.ts';
import { ManualClock } from '../memory/in-memory-test-clock-store.ts';

export interface TestClockStoreSubject {
  readonly store: TestClockStore;
  /** A new agent group's id. */
  newGroup(): Promise<string>;
}

const REAL = '2027-01-10T09:00:00.000Z';

/**
 * The TestClockStore port's contract, run against every adapter (as creditLedgerContract): the
 * in-memory one in the unit tier, DynamoTestClockStore on DynamoDB Local. The group's Clock
 * that a stored clock gives (clockOf) is checked with a ManualClock as the real time.
 */
export function testClockStoreContract(adapter: string, subject: () => Promise<TestClockStoreSubject>): void {
  describe(`TestClockStore contract: ${adapter}`, () => {
    it('keeps one clock per group: a second is refused, and each group lists its own', async () => {
      const { store, newGroup } = await subject();
      const [g, h] = [await newGroup(), await newGroup()];
      const clock = newTestClock(randomUUID(), g, new Date(REAL));
      const other = newTestClock(randomUUID(), h, new Date(REAL));

      const created = [await store.create(clock), await store.create({ ...clock, id: randomUUID() }), await store.create(other)];

      expect(created).toEqual([true, false, true]);
      expect(await store.get(g)).toEqual(clock);
      expect((await store.list()).filter((c) => c.agentGroupId === g || c.agentGroupId === h).sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
        [clock, other].sort((a, b) => (a.id < b.id ? -1 : 1)),
      );
      expect(await store.get(await newGroup())).toBeUndefined();
    });

    it('replaces a clock only from the version stored and only the same clock; the replaced clock runs from its new time', async () => {
      const { store, newGroup } = await subject();
      const g = await newGroup();
      const clock = newTestClock(randomUUID(), g, new Date(REAL));
      await store.create(clock);
      const advanced = { ...clock, setTo: '2027-03-01T00:00:00.000Z', setAt: REAL, version: 2 };

      const results = [
        await store.replace(advanced, 1),
        await store.replace({ ...advanced, version: 3 }, 1),
        await store.replace({ ...advanced, id: randomUUID(), version: 3 }, 2),
      ];

      expect(results).toEqual([true, false, false]);
      const stored = (await store.get(g))!;
      expect(stored).toEqual(advanced);
      const real = new ManualClock(REAL);
      const groupClock = clockOf(stored, real);
      real.advance(90_000);
      expect(groupClock.now().toISOString()).toBe('2027-03-01T00:01:30.000Z');
    });

    it('removes a clock only by its id, at the version stored', async () => {
      const { store, newGroup } = await subject();
      const g = await newGroup();
      const clock = newTestClock(randomUUID(), g, new Date(REAL));
      await store.create(clock);

      const results = [
        await store.remove(g, randomUUID(), clock.version),
        await store.remove(g, clock.id, clock.version + 1),
        await store.remove(g, clock.id, clock.version),
        await store.remove(g, clock.id, clock.version),
      ];

      expect(results).toEqual([false, false, true, false]);
      expect(await store.get(g)).toBeUndefined();
      expect(await store.create(newTestClock(randomUUID(), g, new Date(REAL)))).toBe(true);
    });
  });
}

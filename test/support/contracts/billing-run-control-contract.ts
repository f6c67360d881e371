import { describe, expect, it } from 'vitest';
import type { BillingRunControl } from '../../../domain/ports/billing-run-control.ts';
import { at } from './invoice-store-contract.ts';

export interface BillingRunControlSubject {
  readonly control: BillingRunControl;
  /** A new agent group's id. */
  newGroup(): Promise<string>;
}

/** The BillingRunControl port's contract, run against every adapter: one owner of a group's lock at a time, and the last scheduled period kept. */
export function billingRunControlContract(adapter: string, subject: () => Promise<BillingRunControlSubject>): void {
  describe(`BillingRunControl contract: ${adapter}`, () => {
    it("holds the group's billing lock for one owner until its lease ends or it lets go, and keeps the last scheduled period", async () => {
      const { control: store, newGroup } = await subject();
      const g = await newGroup();

      const taken = await store.acquireLock(g, 'run-a', at(0), at(60));
      const refused = await store.acquireLock(g, 'run-b', at(30), at(90));
      const retried = await store.acquireLock(g, 'run-a', at(31), at(91));
      const afterLease = await store.acquireLock(g, 'run-b', at(92), at(150));
      await store.releaseLock(g, 'run-a');
      const stillB = await store.acquireLock(g, 'run-c', at(100), at(160));
      await store.releaseLock(g, 'run-b');
      const free = await store.acquireLock(g, 'run-c', at(101), at(161));
      const before = await store.lastScheduledPeriod(g);
      await store.recordScheduledPeriod(g, '2027-01-31');

      expect(taken).toEqual({ acquired: true, lock: { owner: 'run-a', leaseUntil: at(60) } });
      expect(refused).toEqual({ acquired: false, lock: { owner: 'run-a', leaseUntil: at(60) } });
      expect(retried).toEqual({ acquired: true, lock: { owner: 'run-a', leaseUntil: at(91) } });
      expect(afterLease.acquired).toBe(true);
      expect(stillB).toEqual({ acquired: false, lock: { owner: 'run-b', leaseUntil: at(150) } });
      expect(free.acquired).toBe(true);
      expect(before).toBeUndefined();
      expect(await store.lastScheduledPeriod(g)).toBe('2027-01-31');
      await store.releaseLock(g, 'run-c');
    });
  });
}

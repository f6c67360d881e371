import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditDraft } from '../../../domain/audit/audit-event.ts';
import type { GroupMailSettings } from '../../../domain/mail/finance-contacts.ts';
import type { FinanceContactStore } from '../../../domain/ports/finance-contacts.ts';
import { TEST_OPERATOR } from '../audit-origin.ts';

export interface FinanceContactStoreSubject {
  readonly store: FinanceContactStore;
  /** A new agent group's id. */
  newGroup(): Promise<string>;
}

const draft = (g: string): AuditDraft => ({
  id: randomUUID(),
  at: new Date().toISOString(),
  origin: TEST_OPERATOR,
  action: 'group.mail-paused',
  target: `group:${g}`,
  account: g,
  before: { paused: false },
  after: { paused: true },
});

const settings = (g: string, version: number, paused = false): GroupMailSettings => ({
  agentGroupId: g,
  paused,
  version,
  contacts: [
    {
      contactId: randomUUID(),
      email: `ap-${version}@finance.example.in`,
      name: 'Accounts Payable',
      documents: ['REMINDERS'],
      bouncedAt: null,
      createdAt: '2026-11-28T06:00:00.000Z',
      updatedAt: '2026-11-28T06:00:00.000Z',
    },
  ],
});

/** The FinanceContactStore port's contract, run against the in-memory adapter (unit tier) and DynamoFinanceContactStore. */
export function financeContactStoreContract(adapter: string, subject: () => Promise<FinanceContactStoreSubject>): void {
  describe(`FinanceContactStore contract: ${adapter}`, () => {
    it('has nothing for a new group, stores the first record from version 0 only, then replaces it only from the version stored', async () => {
      const { store, newGroup } = await subject();
      const g = await newGroup();
      expect(await store.get(g)).toBeUndefined();

      expect(await store.replace(settings(g, 1), 1, draft(g))).toBe(false);
      expect(await store.replace(settings(g, 1), 0, draft(g))).toBe(true);
      expect(await store.replace(settings(g, 1), 0, draft(g))).toBe(false);
      const second = settings(g, 2, true);
      expect(await store.replace(second, 1, draft(g))).toBe(true);
      expect(await store.replace(settings(g, 3), 1, draft(g))).toBe(false);

      expect(await store.get(g)).toEqual(second);
    });

    it('finds the groups with a contact at an address, across groups, and forgets a group once its contact at it is gone', async () => {
      const { store, newGroup } = await subject();
      const [g1, g2] = [await newGroup(), await newGroup()];
      const shared = `shared-${randomUUID().slice(0, 8)}@finance.example.in`;
      const withShared = (g: string, version: number): GroupMailSettings => {
        const s = settings(g, version);
        return { ...s, contacts: [...s.contacts, { ...s.contacts[0]!, contactId: randomUUID(), email: shared }] };
      };
      expect(await store.groupsWithAddress(shared)).toEqual([]);
      expect(await store.replace(withShared(g1, 1), 0, draft(g1))).toBe(true);
      expect(await store.replace(withShared(g2, 1), 0, draft(g2))).toBe(true);
      expect((await store.groupsWithAddress(shared)).sort()).toEqual([g1, g2].sort());

      expect(await store.replace(settings(g1, 2), 1, draft(g1))).toBe(true);
      expect(await store.groupsWithAddress(shared)).toEqual([g2]);
      // A refused change leaves the index as it was.
      expect(await store.replace(settings(g2, 2), 5, draft(g2))).toBe(false);
      expect(await store.groupsWithAddress(shared)).toEqual([g2]);
    });

    it('lets exactly one of two changes raced from the same version land', async () => {
      const { store, newGroup } = await subject();
      const g = await newGroup();
      await store.replace(settings(g, 1), 0, draft(g));
      const [a, b] = [settings(g, 2), settings(g, 2, true)];

      const outcomes = await Promise.all([store.replace(a, 1, draft(g)), store.replace(b, 1, draft(g))]);

      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await store.get(g)).toEqual(outcomes[0] ? a : b);
    });
  });
}

import { describe, expect, it } from 'vitest';
import { addContact, listContacts, removeContact, setMailPaused, updateContact } from '../../domain/mail/finance-contacts.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { financeContactStoreContract } from '../support/contracts/finance-contact-store-contract.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

financeContactStoreContract('DynamoFinanceContactStore', async () => ({
  store: testServices().financeContacts,
  newGroup: async () => (await newAgentGroup()).agentGroupId,
}));

describe('finance contacts on DynamoDB', () => {
  it('keeps every one of ten contacts added at once, and refuses the eleventh', async () => {
    const svc = testServices();
    const g = (await newAgentGroup()).agentGroupId;

    const added = await Promise.allSettled(Array.from({ length: 11 }, (_, i) => addContact(svc, g, { email: `ap${i}@finance.example.in` }, TEST_OPERATOR)));

    const stored = await listContacts(svc, g);
    expect(stored).toHaveLength(10);
    expect(added.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    const refused = added.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as { code: string }).code).toBe('CONFLICT');
  });

  it("records each change in the group's audit trail, without the address or the name", async () => {
    const svc = testServices();
    const g = (await newAgentGroup()).agentGroupId;

    const c = await addContact(svc, g, { email: 'Payables@Finance.Example.in', name: 'Asha Rao', documents: ['STATEMENTS'] }, TEST_OPERATOR);
    await updateContact(svc, g, c.id, { documents: ['REMINDERS', 'STATEMENTS'] }, TEST_OPERATOR);
    await setMailPaused(svc, g, true, TEST_OPERATOR);
    await removeContact(svc, g, c.id, TEST_OPERATOR);

    const events = (await svc.auditTrail.listAccount(g, { limit: 50 })).events.filter((e) => /^group\.(finance-contact|mail)/.test(e.action));
    expect(events.map((e) => e.action)).toEqual([
      'group.finance-contact-added',
      'group.finance-contact-changed',
      'group.mail-paused',
      'group.finance-contact-removed',
    ]);
    expect(events[1]!.after).toEqual({ documents: ['REMINDERS', 'STATEMENTS'] });
    expect(JSON.stringify(events)).not.toMatch(/payables|asha/i);
    expect(c.email).toBe('payables@finance.example.in');
  });
});

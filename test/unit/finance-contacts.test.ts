import { describe, expect, it } from 'vitest';
import {
  addContact,
  listContacts,
  MAX_FINANCE_CONTACTS,
  recipientsOf,
  removeContact,
  setMailPaused,
  updateContact,
  type FinanceContactDeps,
} from '../../domain/mail/finance-contacts.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { financeContactStoreContract } from '../support/contracts/finance-contact-store-contract.ts';
import { InMemoryFinanceContactStore } from '../support/memory/in-memory-finance-contacts.ts';

financeContactStoreContract('InMemoryFinanceContactStore', async () => ({
  store: new InMemoryFinanceContactStore(),
  newGroup: async () => `grp-${crypto.randomUUID().slice(0, 8)}`,
}));

const deps = (): FinanceContactDeps & { financeContacts: InMemoryFinanceContactStore } => {
  let n = 0;
  return { financeContacts: new InMemoryFinanceContactStore(), clock: { now: () => new Date('2026-11-28T06:00:00Z') }, ids: { uuid: () => `id-${++n}` } };
};
const G = 'grp-1';

/** The refusal a call makes: its code and the param it names. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { code: string; details: { param?: string } }) => ({ code: e.code, param: e.details.param }),
  );

describe('finance contacts', () => {
  it('adds a contact with every optional document unless told otherwise; statutory documents are always listed first', async () => {
    const d = deps();
    const all = await addContact(d, G, { email: ' AP@Finance.Example.in ' }, TEST_OPERATOR);
    const some = await addContact(d, G, { email: 'cfo@finance.example.in', name: 'CFO', documents: ['STATEMENTS'] }, TEST_OPERATOR);

    expect(all).toMatchObject({
      email: 'ap@finance.example.in',
      name: null,
      documents: ['INVOICES', 'CREDIT_NOTES', 'RECEIPTS', 'REMINDERS', 'STATEMENTS'],
      bounced: false,
    });
    expect(some.documents).toEqual(['INVOICES', 'CREDIT_NOTES', 'STATEMENTS']);
    expect((await listContacts(d, G)).map((c) => c.id)).toEqual([all.id, some.id]);
  });

  it('refuses bad input naming the parameter, a statutory document as a choice, a second contact with the same address, and the eleventh', async () => {
    const d = deps();
    expect(await refusal(addContact(d, G, { email: 'not-an-address' }, TEST_OPERATOR))).toEqual({ code: 'VALIDATION_FAILED', param: 'email' });
    expect(await refusal(addContact(d, G, { email: 'a@b.in\r\nBcc: x@y.in' }, TEST_OPERATOR))).toEqual({ code: 'VALIDATION_FAILED', param: 'email' });
    expect(await refusal(addContact(d, G, { email: 'a@b.in', name: 'A <x@y.in>' }, TEST_OPERATOR))).toEqual({ code: 'VALIDATION_FAILED', param: 'name' });
    expect(await refusal(addContact(d, G, { email: 'a@b.in', documents: ['INVOICES'] }, TEST_OPERATOR))).toEqual({
      code: 'VALIDATION_FAILED',
      param: 'documents',
    });
    expect(await refusal(addContact(d, G, { email: 'a@b.in', documents: ['NEWSLETTER'] }, TEST_OPERATOR))).toEqual({
      code: 'VALIDATION_FAILED',
      param: 'documents',
    });
    await addContact(d, G, { email: 'a@b.in' }, TEST_OPERATOR);
    expect(await refusal(addContact(d, G, { email: 'A@B.IN' }, TEST_OPERATOR))).toEqual({ code: 'CONFLICT', param: undefined });
    for (let i = 1; i < MAX_FINANCE_CONTACTS; i++) await addContact(d, G, { email: `ap${i}@b.in` }, TEST_OPERATOR);
    expect(await refusal(addContact(d, G, { email: 'one-more@b.in' }, TEST_OPERATOR))).toEqual({ code: 'CONFLICT', param: undefined });
    expect(d.financeContacts.events).toHaveLength(MAX_FINANCE_CONTACTS);
  });

  it("changes only what is given; a new address clears the old one's bounce; another group's contact is not found", async () => {
    const d = deps();
    const c = await addContact(d, G, { email: 'ap@b.in', name: 'AP' }, TEST_OPERATOR);
    const stored = (await d.financeContacts.get(G))!;
    await d.financeContacts.replace(
      { ...stored, contacts: [{ ...stored.contacts[0]!, bouncedAt: '2026-11-28T07:00:00Z' }], version: 2 },
      1,
      d.financeContacts.events[0]!,
    );

    const optedOut = await updateContact(d, G, c.id, { documents: ['RECEIPTS', 'STATEMENTS'] }, TEST_OPERATOR);
    expect(optedOut).toMatchObject({ email: 'ap@b.in', name: 'AP', documents: ['INVOICES', 'CREDIT_NOTES', 'RECEIPTS', 'STATEMENTS'], bounced: true });
    expect((await updateContact(d, G, c.id, { email: 'ap2@b.in' }, TEST_OPERATOR)).bounced).toBe(false);
    expect(await refusal(updateContact(d, 'grp-other', c.id, { name: null }, TEST_OPERATOR))).toEqual({ code: 'NOT_FOUND', param: undefined });
    expect(await refusal(removeContact(d, 'grp-other', c.id, TEST_OPERATOR))).toEqual({ code: 'NOT_FOUND', param: undefined });
    await removeContact(d, G, c.id, TEST_OPERATOR);
    expect(await listContacts(d, G)).toEqual([]);
  });

  it('sends statutory documents to every contact, optional ones only to those who chose them, nothing to a bounced address or a paused group', async () => {
    const d = deps();
    await addContact(d, G, { email: 'all@b.in' }, TEST_OPERATOR);
    await addContact(d, G, { email: 'statements@b.in', documents: ['STATEMENTS'] }, TEST_OPERATOR);
    const bounced = await addContact(d, G, { email: 'gone@b.in' }, TEST_OPERATOR);
    const s = (await d.financeContacts.get(G))!;
    const settings = { ...s, contacts: s.contacts.map((c) => (c.contactId === bounced.id ? { ...c, bouncedAt: '2026-11-28T07:00:00Z' } : c)) };

    const to = (doc: Parameters<typeof recipientsOf>[1]) => recipientsOf(settings, doc).map((c) => c.email);
    expect(to('INVOICES')).toEqual(['all@b.in', 'statements@b.in']);
    expect(to('CREDIT_NOTES')).toEqual(['all@b.in', 'statements@b.in']);
    expect(to('REMINDERS')).toEqual(['all@b.in']);
    expect(to('STATEMENTS')).toEqual(['all@b.in', 'statements@b.in']);
    expect(recipientsOf({ ...settings, paused: true }, 'INVOICES')).toEqual([]);
    expect(recipientsOf(undefined, 'INVOICES')).toEqual([]);

    await setMailPaused(d, G, true, TEST_OPERATOR);
    expect(recipientsOf(await d.financeContacts.get(G), 'INVOICES')).toEqual([]);
    expect(d.financeContacts.events.at(-1)).toMatchObject({ action: 'group.mail-paused', after: { paused: true } });
  });

  it('computes a change that lost a race again on the record that won, so racing adds all land', async () => {
    const d = deps();
    await Promise.all(Array.from({ length: 5 }, (_, i) => addContact(d, G, { email: `ap${i}@b.in` }, TEST_OPERATOR)));
    expect((await listContacts(d, G)).map((c) => c.email).sort()).toEqual(['ap0@b.in', 'ap1@b.in', 'ap2@b.in', 'ap3@b.in', 'ap4@b.in']);
  });
});

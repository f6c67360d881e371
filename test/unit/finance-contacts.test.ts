import { describe, expect, it } from 'vitest';
import {
  addContact,
  clearAddressFlag,
  flagAddress,
  listContacts,
  MAX_FINANCE_CONTACTS,
  recipientsOf,
  removeContact,
  setMailPaused,
  updateContact,
  type FinanceContactDeps,
} from '../../domain/mail/finance-contacts.ts';
import { readSesEvent } from '../../domain/mail/mail-events.ts';
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

describe('bounces and complaints (SES events)', () => {
  // The documented Bounce record ("Examples of event data that Amazon SES publishes to Amazon SNS").
  const bounce = (email: string, bounceType: string) => ({
    eventType: 'Bounce',
    bounce: {
      bounceType,
      bounceSubType: 'General',
      bouncedRecipients: [{ emailAddress: email, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
      timestamp: '2026-11-28T05:41:02.669Z',
      feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
      reportingMTA: 'dsn; mta.example.com',
    },
    mail: { timestamp: '2026-11-28T05:40:02.012Z', messageId: 'EXAMPLE7c191be45', destination: [email] },
  });
  const complaint = (email: string) => ({
    eventType: 'Complaint',
    complaint: { complainedRecipients: [{ emailAddress: email }], timestamp: '2026-11-28T05:45:00.000Z', feedbackId: 'f-1', complaintFeedbackType: 'abuse' },
    mail: { timestamp: '2026-11-28T05:40:02.012Z', messageId: 'EXAMPLE2', destination: [email] },
  });

  const flagFrom = async (d: ReturnType<typeof deps>, event: unknown) => {
    const report = readSesEvent(event);
    let n = 0;
    for (const r of report?.recipients ?? [])
      n += await flagAddress(d, { email: r.email, kind: report!.kind, at: report!.at, diagnostic: r.diagnostic }, TEST_OPERATOR);
    return n;
  };

  it('a permanent bounce flags the contact at the address in every group, with the date and diagnostic audited; a repeat writes nothing', async () => {
    const d = deps();
    const a = await addContact(d, 'grp-a', { email: 'ap@finance.example.in' }, TEST_OPERATOR);
    const b = await addContact(d, 'grp-b', { email: 'AP@finance.example.in' }, TEST_OPERATOR);
    const other = await addContact(d, 'grp-a', { email: 'cfo@finance.example.in' }, TEST_OPERATOR);
    const before = d.financeContacts.events.length;

    expect(await flagFrom(d, bounce('Ap@Finance.example.in', 'Permanent'))).toBe(2);
    expect((await listContacts(d, 'grp-a')).map((c) => [c.id, c.bounced])).toEqual([
      [a.id, true],
      [other.id, false],
    ]);
    expect((await listContacts(d, 'grp-b'))[0]).toMatchObject({ id: b.id, bounced: true });
    const audits = d.financeContacts.events.slice(before);
    expect(audits.map((e) => [e.action, e.target])).toEqual([
      ['group.finance-contact-bounced', `finance-contact:${a.id}`],
      ['group.finance-contact-bounced', `finance-contact:${b.id}`],
    ]);
    expect(audits[0]!.after).toMatchObject({ bounced: true, reportedAt: '2026-11-28T05:41:02.669Z', diagnostic: 'smtp; 550 5.1.1 user unknown' });
    expect(JSON.stringify(audits)).not.toContain('ap@finance');

    const settings = await d.financeContacts.get('grp-a');
    expect(recipientsOf(settings, 'INVOICES').map((c) => c.contactId)).toEqual([other.id]);
    expect(recipientsOf(settings, 'REMINDERS').map((c) => c.contactId)).toEqual([other.id]);

    const version = settings!.version;
    expect(await flagFrom(d, bounce('ap@finance.example.in', 'Permanent'))).toBe(0);
    expect(await flagFrom(d, complaint('ap@finance.example.in'))).toBe(0);
    expect(d.financeContacts.events.length).toBe(before + 2);
    expect((await d.financeContacts.get('grp-a'))!.version).toBe(version);
  });

  it('a transient or undetermined bounce and other event types flag nothing; a complaint flags like a bounce', async () => {
    const d = deps();
    const c = await addContact(d, G, { email: 'ap@finance.example.in' }, TEST_OPERATOR);
    expect(readSesEvent(bounce('ap@finance.example.in', 'Transient'))).toBeNull();
    expect(readSesEvent(bounce('ap@finance.example.in', 'Undetermined'))).toBeNull();
    expect(readSesEvent({ eventType: 'Delivery', delivery: {}, mail: {} })).toBeNull();
    expect(await flagFrom(d, bounce('ap@finance.example.in', 'Transient'))).toBe(0);
    expect((await listContacts(d, G))[0]!.bounced).toBe(false);

    expect(await flagFrom(d, complaint('ap@finance.example.in'))).toBe(1);
    expect((await listContacts(d, G))[0]).toMatchObject({ id: c.id, bounced: true });
    expect(d.financeContacts.events.at(-1)).toMatchObject({ action: 'group.finance-contact-complained', after: { diagnostic: 'complaint: abuse' } });
  });

  it('refuses an event without its documented fields, naming the field', () => {
    const field = (event: unknown) => {
      try {
        readSesEvent(event);
        return undefined;
      } catch (e) {
        return (e as { details: { param?: string } }).details.param;
      }
    };
    expect(field({})).toBe('eventType');
    expect(field({ eventType: 'Bounce' })).toBe('bounce');
    expect(field({ eventType: 'Bounce', bounce: { bounceType: 'Permanent', timestamp: '2026-11-28T05:41:02Z', bouncedRecipients: [] } })).toBe(
      'bounce.bouncedRecipients',
    );
    expect(field({ eventType: 'Bounce', bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: 'a@b.in' }] } })).toBe('bounce.timestamp');
    expect(field({ eventType: 'Complaint', complaint: { timestamp: '2026-11-28T05:41:02Z', complainedRecipients: [{}] } })).toBe(
      'complaint.complainedRecipients[0].emailAddress',
    );
  });

  it('an operator clears the flag once the address works again, audited; clearing an unflagged contact writes nothing', async () => {
    const d = deps();
    const c = await addContact(d, G, { email: 'ap@finance.example.in' }, TEST_OPERATOR);
    expect(await flagFrom(d, bounce('ap@finance.example.in', 'Permanent'))).toBe(1);
    expect((await clearAddressFlag(d, G, c.id, TEST_OPERATOR)).bounced).toBe(false);
    expect(d.financeContacts.events.at(-1)).toMatchObject({ action: 'group.finance-contact-unflagged', before: { bounced: true }, after: { bounced: false } });
    const count = d.financeContacts.events.length;
    await clearAddressFlag(d, G, c.id, TEST_OPERATOR);
    expect(d.financeContacts.events.length).toBe(count);
    expect(await refusal(clearAddressFlag(d, G, 'nobody', TEST_OPERATOR))).toMatchObject({ code: 'NOT_FOUND' });
  });
});

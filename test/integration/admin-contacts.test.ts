import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../infra/dynamo/keys.ts';
import { flagAddress } from '../../domain/mail/finance-contacts.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { runAdminTool, type AdminRun } from '../support/admin-tool.ts';
import { db, table } from '../support/billing-run-kit.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

const json = <T = any>(run: AdminRun): T => {
  expect(run.stderr, run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
};

describe('admin: contacts and mail', () => {
  it("adds, changes, lists and removes a group's finance contacts, and pauses its mail, each recorded against the operator", async () => {
    const g = (await newAgentGroup()).agentGroupId;

    const added = json(await runAdminTool(['contacts', 'add', '--group', g, '--email', 'AP@Acme.example.in', '--name', 'Accounts', '--json', '--as', 'dora']));
    expect(added).toMatchObject({
      email: 'ap@acme.example.in',
      name: 'Accounts',
      documents: ['INVOICES', 'CREDIT_NOTES', 'RECEIPTS', 'REMINDERS', 'STATEMENTS'],
    });
    const changed = json(
      await runAdminTool(['contacts', 'update', '--group', g, '--contact', added.id, '--documents', 'none', '--name', 'none', '--json', '--as', 'dora']),
    );
    expect(changed).toMatchObject({ name: null, documents: ['INVOICES', 'CREDIT_NOTES'] });
    expect(json(await runAdminTool(['mail', 'pause', '--group', g, '--json', '--as', 'dora']))).toEqual({ agentGroupId: g, paused: true });
    const listed = await runAdminTool(['contacts', 'list', '--group', g]);
    expect(listed.stdout).toContain('PAUSED');
    expect(listed.stdout).toContain('ap@acme.example.in');
    json(await runAdminTool(['contacts', 'remove', '--group', g, '--contact', added.id, '--json', '--as', 'dora']));
    expect(json(await runAdminTool(['contacts', 'list', '--group', g, '--json']))).toEqual({ agentGroupId: g, paused: true, contacts: [] });

    const events = (await testServices().auditTrail.listAccount(g, { limit: 50 })).events.filter((e) => /^group\.(finance-contact|mail)/.test(e.action));
    expect(events.map((e) => [e.action, e.actor])).toEqual([
      ['group.finance-contact-added', expect.stringContaining('dora')],
      ['group.finance-contact-changed', expect.stringContaining('dora')],
      ['group.mail-paused', expect.stringContaining('dora')],
      ['group.finance-contact-removed', expect.stringContaining('dora')],
    ]);
    expect(JSON.stringify(events)).not.toContain('acme.example.in');
  });

  it('lists a bounced contact as bounced and clears its flag with contacts unflag, recorded against the operator', async () => {
    const svc = testServices();
    const g = (await newAgentGroup()).agentGroupId;
    const email = `bounced-${g}@acme.example.in`.toLowerCase();
    const added = json(await runAdminTool(['contacts', 'add', '--group', g, '--email', email, '--json', '--as', 'dora']));
    expect(await flagAddress(svc, { email, kind: 'BOUNCED', at: '2026-11-28T05:41:02.669Z', diagnostic: 'smtp; 550 5.1.1 user unknown' }, TEST_OPERATOR)).toBe(
      1,
    );
    expect((await runAdminTool(['contacts', 'list', '--group', g])).stdout).toMatch(/bounced/);

    expect(json(await runAdminTool(['contacts', 'unflag', '--group', g, '--contact', added.id, '--json', '--as', 'dora']))).toMatchObject({
      id: added.id,
      bounced: false,
    });
    expect(json(await runAdminTool(['contacts', 'list', '--group', g, '--json'])).contacts[0]).toMatchObject({ bounced: false });
    const events = (await svc.auditTrail.listAccount(g, { limit: 50 })).events.filter((e) => e.action === 'group.finance-contact-unflagged');
    expect(events.map((e) => [e.actor, e.before, e.after])).toEqual([
      [expect.stringContaining('dora'), expect.objectContaining({ bounced: true }), expect.objectContaining({ bounced: false })],
    ]);
  });

  it('refuses an unknown group, a bad address naming the flag, and a change without an operator', async () => {
    const g = (await newAgentGroup()).agentGroupId;
    const unknown = await runAdminTool(['contacts', 'add', '--group', 'no-such-group', '--email', 'a@b.in', '--as', 'dora']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Agent group not found');
    const bad = await runAdminTool(['contacts', 'add', '--group', g, '--email', 'nope', '--as', 'dora']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--email');
    const anonymous = await runAdminTool(['mail', 'pause', '--group', g], { ADMIN_OPERATOR: '' });
    expect(anonymous.code).toBe(2);
    expect(anonymous.stderr).toContain('--as');
    expect(await testServices().financeContacts.get(g)).toBeUndefined();
  });

  it('contacts index-addresses writes the address lookup of contacts stored before it existed, once: a bounce then finds them, a rerun writes nothing, a removed address never comes back', async () => {
    const svc = testServices();
    const g = (await newAgentGroup()).agentGroupId;
    const other = (await newAgentGroup()).agentGroupId;
    const emails = ['ap', 'cfo'].map((who) => `${who}-${g}@acme.example.in`.toLowerCase());
    for (const email of emails) json(await runAdminTool(['contacts', 'add', '--group', g, '--email', email, '--json', '--as', 'dora']));
    const otherEmail = `ap-${other}@acme.example.in`.toLowerCase();
    json(await runAdminTool(['contacts', 'add', '--group', other, '--email', otherEmail, '--json', '--as', 'dora']));
    // As contacts stored before the lookup existed: the settings record alone.
    const forget = async (group: string, email: string) => db().send(new DeleteCommand({ TableName: table(), Key: keys.mailAddress(email, group) }));
    for (const email of emails) await forget(g, email);
    await forget(other, otherEmail);
    expect(await svc.financeContacts.groupsWithAddress(emails[0]!)).toEqual([]);

    expect(json(await runAdminTool(['contacts', 'index-addresses', '--group', g, '--json']))).toEqual({ groups: 1, contacts: 2, written: 2 });
    for (const email of emails) expect(await svc.financeContacts.groupsWithAddress(email)).toEqual([g]);
    expect(json(await runAdminTool(['contacts', 'index-addresses', '--group', g, '--json']))).toEqual({ groups: 1, contacts: 2, written: 0 });
    expect(await flagAddress(svc, { email: emails[1]!, kind: 'BOUNCED', at: '2026-11-28T05:41:02.669Z', diagnostic: 'smtp; 550 5.1.1' }, TEST_OPERATOR)).toBe(
      1,
    );

    // Every group: the other group's lookup is written too (its count includes whatever else the shared table lacked).
    const all = json(await runAdminTool(['contacts', 'index-addresses', '--json']));
    expect(all.written).toBeGreaterThanOrEqual(1);
    expect(all.groups).toBeGreaterThanOrEqual(2);
    expect(await svc.financeContacts.groupsWithAddress(otherEmail)).toEqual([other]);
    expect(json(await runAdminTool(['contacts', 'index-addresses', '--group', other, '--json'])).written).toBe(0);

    // A lookup computed from a record a change has since replaced writes nothing: a removed address stays gone.
    const before = (await svc.financeContacts.get(g))!;
    await forget(g, emails[0]!);
    const removed = before.contacts.find((c) => c.email === emails[0])!;
    json(await runAdminTool(['contacts', 'remove', '--group', g, '--contact', removed.contactId, '--json', '--as', 'dora']));
    expect(await svc.financeContacts.indexAddresses(before)).toBe(0);
    expect(await svc.financeContacts.groupsWithAddress(emails[0]!)).toEqual([]);

    const unknown = await runAdminTool(['contacts', 'index-addresses', '--group', 'no-such-group']);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('Agent group not found')]);
  });
});

import { describe, expect, it } from 'vitest';
import { expectContract } from '../support/contract.ts';
import { call, newAgentGroup } from '../support/stack.ts';

describe('/v1/finance-contacts', () => {
  it("adds, lists, changes and removes the group's own contacts", async () => {
    const g = await newAgentGroup();

    const created = await call('POST', '/v1/finance-contacts', {
      key: g.apiKey,
      body: { email: 'AP@Acme.example.in', name: 'Accounts', documents: ['STATEMENTS'] },
    });
    expect(created.status).toBe(201);
    expectContract(created, 'createFinanceContact');
    expect(created.body).toMatchObject({
      email: 'ap@acme.example.in',
      name: 'Accounts',
      documents: ['INVOICES', 'CREDIT_NOTES', 'STATEMENTS'],
      bounced: false,
    });
    const id = created.body.id as string;

    const changed = await call('PATCH', `/v1/finance-contacts/${id}`, { key: g.apiKey, body: { documents: ['REMINDERS', 'RECEIPTS'] } });
    expect(changed.status).toBe(200);
    expectContract(changed, 'updateFinanceContact');
    expect(changed.body.documents).toEqual(['INVOICES', 'CREDIT_NOTES', 'RECEIPTS', 'REMINDERS']);
    const listed = await call('GET', '/v1/finance-contacts', { key: g.apiKey });
    expectContract(listed, 'listFinanceContacts');
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([id]);

    expect((await call('DELETE', `/v1/finance-contacts/${id}`, { key: g.apiKey })).status).toBe(204);
    expect((await call('GET', '/v1/finance-contacts', { key: g.apiKey })).body).toEqual({ data: [] });
  });

  it('answers 400 naming the parameter, 409 for an address already there, and 404 for another group’s contact', async () => {
    const [g, other] = [await newAgentGroup(), await newAgentGroup()];
    const bad = await call('POST', '/v1/finance-contacts', { key: g.apiKey, body: { email: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(bad.body.param).toBe('email');
    const statutory = await call('POST', '/v1/finance-contacts', { key: g.apiKey, body: { email: 'a@acme.example.in', documents: ['INVOICES'] } });
    expect(statutory.status).toBe(400);
    expect(statutory.body.param).toMatch(/^documents/);

    const mine = await call('POST', '/v1/finance-contacts', { key: g.apiKey, body: { email: 'a@acme.example.in' } });
    expect((await call('POST', '/v1/finance-contacts', { key: g.apiKey, body: { email: 'A@acme.example.in' } })).status).toBe(409);

    const theirs = await call('PATCH', `/v1/finance-contacts/${mine.body.id}`, { key: other.apiKey, body: { name: 'x' } });
    const missing = await call('PATCH', '/v1/finance-contacts/00000000-0000-4000-8000-000000000000', { key: other.apiKey, body: { name: 'x' } });
    expect(theirs.status).toBe(404);
    const reading = (b: { status: number; code: string; message: string }) => [b.status, b.code, b.message];
    expect(reading(theirs.body)).toEqual(reading(missing.body));
    expect((await call('DELETE', `/v1/finance-contacts/${mine.body.id}`, { key: other.apiKey })).status).toBe(404);
    expect((await call('GET', '/v1/finance-contacts', { key: g.apiKey })).body.data).toHaveLength(1);
  });
});

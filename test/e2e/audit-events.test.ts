import { beforeAll, describe, expect, it } from 'vitest';
import { updateAgentGroup } from '../../domain/admin.ts';
import { adminDeps } from '../../infra/container.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { expectContract } from '../support/contract.ts';
import { call, newAgentGroup, newPartner, testServices, type GroupFixture } from '../support/stack.ts';

interface AuditPage {
  data: { action: string; actor: string; actorKind: string; target: string; after: Record<string, unknown> | null; seq: number }[];
  nextCursor: string | null;
}

/** GET /v1/audit-events over HTTP: paging, tenancy and the contract. Group A gets three operator changes, group B one. */
let A: GroupFixture;
let B: GroupFixture;
/** After the groups and their keys were created (also audited), before the changes this file reads. */
let since: string;
beforeAll(async () => {
  [A, B] = await Promise.all([newAgentGroup(), newAgentGroup()]);
  since = new Date().toISOString();
  const deps = adminDeps(testServices(), TEST_OPERATOR);
  for (const limit of [1_000_00, 2_000_00, 3_000_00]) await updateAgentGroup(deps, A.agentGroupId, { creditLimit: limit });
  await updateAgentGroup(deps, B.agentGroupId, { onHold: true });
}, 60_000);

describe('GET /v1/audit-events', () => {
  it("pages the caller's own events oldest first, and none of another group's", async () => {
    // act
    const first = await call<AuditPage>('GET', `/v1/audit-events?size=2&from=${since}`, { key: A.apiKey });
    const second = await call<AuditPage>('GET', `/v1/audit-events?size=2&from=${since}&cursor=${encodeURIComponent(first.body.nextCursor!)}`, {
      key: A.apiKey,
    });
    // assess
    expect(first.status).toBe(200);
    expectContract(first, 'listAuditEvents');
    const events = [...first.body.data, ...second.body.data];
    expect(events.map((e) => e.after?.creditLimit)).toEqual([1_000, 2_000, 3_000].map((r) => r * 100));
    // The group reads the role; the operator's own tool reads the person (issue 36, finding 7).
    expect(events.every((e) => e.actor === 'operator' && e.actorKind === 'operator' && e.target === `group:${A.agentGroupId}`)).toBe(true);
    expect(first.text).not.toContain(TEST_OPERATOR.actor);
    const recorded = await testServices().auditTrail.listTarget(`group:${A.agentGroupId}`);
    expect(recorded.filter((e) => e.actorKind === 'operator').every((e) => e.actor === TEST_OPERATOR.actor)).toBe(true);
    expect(events.map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(second.body.nextCursor).toBeNull();
  });

  it("refuses another group's cursor and a bad size with a 400 naming the parameter", async () => {
    // prepare
    const mine = await call<AuditPage>('GET', '/v1/audit-events?size=1', { key: A.apiKey });
    // act
    const foreign = await call('GET', `/v1/audit-events?cursor=${encodeURIComponent(mine.body.nextCursor!)}`, { key: B.apiKey });
    const badSize = await call('GET', '/v1/audit-events?size=0', { key: A.apiKey });
    // assess
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain('cursor');
    expect(badSize.status).toBe(400);
    expect(badSize.text).toContain('size');
    const theirs = await call<AuditPage>('GET', `/v1/audit-events?from=${since}`, { key: B.apiKey });
    expect(theirs.body.data.map((e) => e.after)).toEqual([{ onHold: true }]);
  });

  it('refuses an instant beyond the horizon or not in the calendar with a 400 naming it (from=9999-12-31T23:59:59Z was a 500)', async () => {
    for (const [param, value] of [
      ['from', '9999-12-31T23:59:59Z'],
      ['to', '2100-01-01T00:00:00Z'],
      ['from', '2027-02-31T00:00:00+05:30'],
      ['from', '0001-01-01T00:00:00Z'],
    ] as const) {
      const res = await call('GET', `/v1/audit-events?${param}=${encodeURIComponent(value)}`, { key: A.apiKey });
      expect(res.status, value).toBe(400);
      expect(res.body, value).toMatchObject({ code: 'VALIDATION_FAILED', param });
      expectContract(res, 'listAuditEvents');
    }
    const last = await call<AuditPage>('GET', `/v1/audit-events?from=${encodeURIComponent('2099-12-31T23:59:59Z')}`, { key: A.apiKey });
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual([]);
  });
});

describe('GET /api/audit-events', () => {
  it("pages a partner's own webhook endpoint and secret changes to its partner key; never to its groups' keys or another partner", async () => {
    // prepare
    const [mine, other] = await Promise.all([newPartner(), newPartner()]);
    const group = await newAgentGroup({ partnerId: mine.partnerId });
    const signingSecret = `whsec_${'a'.repeat(24)}`;
    const rotatedSecret = `whsec_${'b'.repeat(24)}`;
    const from = new Date().toISOString();
    const made = await call<{ id: string }>('POST', '/api/webhooks/endpoints', {
      key: mine.apiKey,
      body: { url: 'https://93.184.216.34/hooks', authType: 'HMAC', signingSecret },
    });
    expect(made.status).toBe(201);
    expect((await call('PUT', `/api/webhooks/endpoints/${made.body.id}`, { key: mine.apiKey, body: { signingSecret: rotatedSecret } })).status).toBe(200);
    expect((await call('DELETE', `/api/webhooks/endpoints/${made.body.id}`, { key: mine.apiKey })).status).toBe(204);

    // act
    const first = await call<AuditPage>('GET', `/api/audit-events?size=2&from=${from}`, { key: mine.apiKey });
    const second = await call<AuditPage>('GET', `/api/audit-events?size=2&from=${from}&cursor=${encodeURIComponent(first.body.nextCursor!)}`, {
      key: mine.apiKey,
    });
    const theirs = await call<AuditPage>('GET', `/api/audit-events?from=${from}`, { key: other.apiKey });
    const foreignCursor = await call('GET', `/api/audit-events?cursor=${encodeURIComponent(first.body.nextCursor!)}`, { key: other.apiKey });
    const groupsView = await call<AuditPage>('GET', `/v1/audit-events?from=${from}`, { key: group.apiKey });
    const wrongSurface = await call('GET', '/api/audit-events', { key: group.apiKey });

    // assess
    expect(first.status).toBe(200);
    expectContract(first, 'listPartnerAuditEvents');
    const events = [...first.body.data, ...second.body.data];
    expect(events.map((e) => [e.action, e.actor, e.actorKind, e.target])).toEqual(
      ['webhook-endpoint.created', 'webhook-endpoint.updated', 'webhook-endpoint.deleted'].map((action) => [
        action,
        mine.keyId,
        'partner-key',
        `webhook-endpoint:${made.body.id}`,
      ]),
    );
    expect(events[0]!.after).toMatchObject({ signingSecretState: 'set', authSecretState: 'none', authType: 'HMAC' });
    expect(events[1]!.after).toEqual({ signingSecretState: 'rotated' });
    expect(second.body.nextCursor).toBeNull();
    for (const res of [first, second]) for (const secret of [signingSecret, rotatedSecret]) expect(res.text).not.toContain(secret);
    expect(theirs.body.data).toEqual([]);
    expect(foreignCursor.status).toBe(400);
    expect(groupsView.body.data.filter((e) => e.target.startsWith('webhook-endpoint:'))).toEqual([]);
    expect(wrongSurface.status).toBe(401);
  });
});

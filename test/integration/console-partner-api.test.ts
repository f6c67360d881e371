import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../../domain/admin.ts';
import { authenticate } from '../../domain/authenticate.ts';
import { listAuditEvents } from '../../domain/audit/read-audit-events.ts';
import { UnauthorizedError } from '../../domain/errors.ts';
import type { PartnerRole } from '../../domain/console/people.ts';
import { consoleAppDeps, handleConsole, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { adminDeps } from '../../infra/container.ts';
import { consoleTokens } from '../../infra/crypto/console-tokens.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { ConsoleBrowser } from '../support/console-browser.ts';
import { endpointOf, signedInAs } from '../support/console-session.ts';
import { newAgentGroup, testServices, type GroupFixture } from '../support/stack.ts';

/*
 * The partner's own /api surface in the console: its /api keys (the admin tool's use cases, under the
 * person) and its partner account's audit trail (GET /api/audit-events' read), over DynamoDB Local.
 */

let deps: ConsoleAppDeps;
let mine: GroupFixture;
let theirs: GroupFixture;
/** The partners' /api keys the admin tool issued before the console was opened. */
let myKey: { keyId: string; keyPrefix: string };
let theirKey: { keyId: string; keyPrefix: string };

const svc = () => testServices();
const partnerKeyOf = async (g: GroupFixture) => (await issueKey(adminDeps(svc(), TEST_OPERATOR), { owner: { kind: 'partner', id: g.partnerId } })).record;
/** The principal an /api request with this key authenticates as, or the refusal. */
const onApi = (apiKey: string) =>
  authenticate({ tenants: svc().tenants, rateLimiter: svc().rateLimiter, defaultPolicy: svc().config.rateLimit }, sha256Hex(apiKey), 'api', Date.now());
const person = (g: GroupFixture, role: PartnerRole) => signedInAs(deps, { kind: 'partner', agentGroupId: g.agentGroupId, partnerId: g.partnerId, role });
const shownKey = (text: string) => /aria-label="New partner API key">([^<]+)</.exec(text)?.[1];

beforeAll(async () => {
  deps = consoleAppDeps(svc(), 'https://console.test/console', new PdfInvoiceRenderer());
  [mine, theirs] = await Promise.all([newAgentGroup(), newAgentGroup()]);
  [myKey, theirKey] = await Promise.all([partnerKeyOf(mine), partnerKeyOf(theirs)]);
}, 120_000);

describe('console: the partner’s /api keys', () => {
  it('lists the company’s /api keys (not the group’s /v1 keys), issues one shown once, replaces and revokes, each with CSRF and audited under the person', async () => {
    const admin = await person(mine, 'admin');
    const listed = await admin.get('/console/partner-keys');
    expect(listed.statusCode).toBe(200);
    expect(listed.text).toContain(`${myKey.keyPrefix}…`);
    expect(listed.text).toContain('ACTIVE');
    const groupKey = (await svc().tenants.listKeys({ kind: 'agent-group', id: mine.agentGroupId }))[0]!;
    expect(listed.text).not.toContain(groupKey.keyPrefix);
    const csrf = ConsoleBrowser.csrfOf(listed);

    // Without the session's token: 403 and nothing issued.
    expect((await admin.post('/console/partner-keys/issue', { csrf: consoleTokens.newToken() })).statusCode).toBe(403);
    expect(await svc().tenants.listKeys({ kind: 'partner', id: mine.partnerId })).toHaveLength(1);

    const issued = await admin.post('/console/partner-keys/issue', { csrf });
    expect(issued.statusCode).toBe(200);
    const apiKey = shownKey(issued.text)!;
    expect(apiKey).toMatch(/^pds_/);
    const opened = await onApi(apiKey);
    expect(opened.principal).toEqual(expect.objectContaining({ kind: 'partner', partnerId: mine.partnerId }));
    const newKeyId = opened.principal.keyId;
    // Shown once: the next answer has its prefix, never the key.
    const again = await admin.get('/console/partner-keys');
    expect(again.text).not.toContain(apiKey);
    expect(again.text).toContain(`${apiKey.slice(0, 12)}`);
    const issuedEvent = (await svc().auditTrail.listTarget(`key:${newKeyId}`)).at(-1)!;
    expect(issuedEvent).toEqual(
      expect.objectContaining({ action: 'key.issued', actorKind: 'person', actor: expect.stringMatching(/^person:/), account: `partner:${mine.partnerId}` }),
    );
    expect(JSON.stringify(issuedEvent)).not.toContain(apiKey);

    const replaced = await admin.post(`/console/partner-keys/${newKeyId}/replace`, { csrf });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.text).toContain('is replaced and revoked');
    const replacement = shownKey(replaced.text)!;
    expect((await onApi(replacement)).principal).toEqual(expect.objectContaining({ kind: 'partner', partnerId: mine.partnerId }));
    await expect(onApi(apiKey)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await svc().auditTrail.listTarget(`key:${newKeyId}`)).at(-1)).toEqual(
      expect.objectContaining({ action: 'key.replaced', actorKind: 'person', account: `partner:${mine.partnerId}` }),
    );

    const replacementId = (await onApi(replacement)).principal.keyId;
    expect((await admin.post(`/console/partner-keys/${replacementId}/revoke`, { csrf: consoleTokens.newToken() })).statusCode).toBe(403);
    expect((await onApi(replacement)).principal.keyId).toBe(replacementId);
    const revoked = await admin.post(`/console/partner-keys/${replacementId}/revoke`, { csrf });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.text).toContain('is revoked');
    await expect(onApi(replacement)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await svc().auditTrail.listTarget(`key:${replacementId}`)).at(-1)).toEqual(
      expect.objectContaining({ action: 'key.revoked', actorKind: 'person', account: `partner:${mine.partnerId}` }),
    );
    // A revoked key has no buttons; revoking or replacing it again is a 409, nothing recorded.
    const twice = await admin.post(`/console/partner-keys/${replacementId}/revoke`, { csrf });
    expect(twice.statusCode).toBe(409);
    expect((await admin.post(`/console/partner-keys/${replacementId}/replace`, { csrf })).statusCode).toBe(409);
    // The replacement's issue is on the old key's chain (key.replaced, replacedBy); its own holds the one revocation.
    expect((await svc().auditTrail.listTarget(`key:${replacementId}`)).map((e) => e.action)).toEqual(['key.revoked']);
  });

  it('answers another partner’s key, and the group’s own /v1 key, exactly as a missing one, and changes neither', async () => {
    const developer = await person(mine, 'developer');
    const page = await developer.get('/console/partner-keys');
    expect(page.statusCode).toBe(200);
    expect(page.text).not.toContain(theirKey.keyPrefix);
    const csrf = ConsoleBrowser.csrfOf(page);
    const groupKey = (await svc().tenants.listKeys({ kind: 'agent-group', id: mine.agentGroupId })).find((k) => k.status === 'ACTIVE')!;
    for (const action of ['revoke', 'replace']) {
      const missing = await developer.post(`/console/partner-keys/key_${randomUUID().replace(/-/g, '')}/${action}`, { csrf });
      expect(missing.statusCode).toBe(404);
      for (const keyId of [theirKey.keyId, groupKey.keyId]) {
        const foreign = await developer.post(`/console/partner-keys/${keyId}/${action}`, { csrf });
        expect(foreign.statusCode, `${action} ${keyId}`).toBe(404);
        expect(foreign.text).toBe(missing.text);
      }
    }
    expect((await svc().tenants.getKey(theirKey.keyId))?.status).toBe('ACTIVE');
    expect((await svc().tenants.getKey(groupKey.keyId))?.status).toBe('ACTIVE');
    expect(await svc().tenants.listKeys({ kind: 'partner', id: theirs.partnerId })).toHaveLength(1);
  });

  it('is for admins and developers: finance and viewers 403, operators 404, a signed-out visitor the sign-in page', async () => {
    const keysBefore = (await svc().tenants.listKeys({ kind: 'partner', id: mine.partnerId })).length;
    for (const role of ['finance', 'viewer'] as const) {
      const b = await person(mine, role);
      const home = await b.get('/console/home');
      expect(home.text).not.toContain('/console/partner-keys');
      expect((await b.get('/console/partner-keys')).statusCode, role).toBe(403);
      for (const path of ['/console/partner-keys/issue', `/console/partner-keys/${myKey.keyId}/revoke`, `/console/partner-keys/${myKey.keyId}/replace`])
        expect((await b.post(path, { csrf: ConsoleBrowser.csrfOf(home) })).statusCode, `${role} ${path}`).toBe(403);
    }
    expect((await svc().tenants.getKey(myKey.keyId))?.status).toBe('ACTIVE');
    expect(await svc().tenants.listKeys({ kind: 'partner', id: mine.partnerId })).toHaveLength(keysBefore);
    const developerHome = await (await person(mine, 'developer')).get('/console/home');
    expect(developerHome.text).toContain('href="/console/partner-keys"');

    const ops = await signedInAs(deps, { kind: 'operator', role: 'finance-operator' });
    const opsCsrf = ConsoleBrowser.csrfOf(await ops.get('/console/operator/groups'));
    expect((await ops.get('/console/partner-keys')).statusCode).toBe(404);
    expect((await ops.post(`/console/partner-keys/${myKey.keyId}/revoke`, { csrf: opsCsrf })).statusCode).toBe(404);

    const visitor = new ConsoleBrowser((event) => handleConsole(deps, event));
    for (const [method, path] of [
      ['GET', '/console/partner-keys'],
      ['POST', '/console/partner-keys/issue'],
      ['POST', `/console/partner-keys/${myKey.keyId}/revoke`],
      ['POST', `/console/partner-keys/${myKey.keyId}/replace`],
    ] as const) {
      const answer = await visitor.request(method, path, method === 'POST' ? {} : undefined);
      expect(answer.statusCode, path).toBe(303);
      expect(answer.headers?.Location, path).toBe('/console/sign-in');
    }
    expect((await svc().tenants.getKey(myKey.keyId))?.status).toBe('ACTIVE');
  });
});

describe('console: the partner account’s audit trail', () => {
  it('shows the partner’s own events oldest first, as GET /api/audit-events does, paged with its cursor, never another partner’s or the group’s', async () => {
    const [ownHook, otherHook] = await Promise.all([endpointOf(mine, 'own-trail'), endpointOf(theirs, 'other-trail')]);
    // The partner's own key, as GET /api/audit-events authenticates it (its issue is an event of the trail too).
    const { principal } = await onApi((await issueKey(adminDeps(svc(), TEST_OPERATOR), { owner: { kind: 'partner', id: mine.partnerId } })).apiKey);
    const viewer = await person(mine, 'viewer');
    const page = await viewer.get('/console/partner-audit?size=200');
    expect(page.statusCode).toBe(200);
    expect(page.text).toContain(`key:${myKey.keyId}`);
    expect(page.text).toContain(`webhook-endpoint:${ownHook.id}`);
    for (const foreign of [`key:${theirKey.keyId}`, `webhook-endpoint:${otherHook.id}`, theirs.partnerId, `group:${mine.agentGroupId}`])
      expect(page.text, foreign).not.toContain(foreign);

    // The same events, in the same order, as the partner's own key reads on GET /api/audit-events.
    const api = await listAuditEvents(svc(), principal, { size: 200 });
    const targets = [...page.text.matchAll(/<td>([^<]+)<\/td><\/tr>/g)].map((m) => m[1]);
    expect(targets).toEqual(api.data.map((e) => e.target));
    expect(api.data.length).toBeGreaterThanOrEqual(4);
    expect(targets.indexOf(`key:${myKey.keyId}`)).toBeLessThan(targets.indexOf(`webhook-endpoint:${ownHook.id}`));

    // One a page: the next link carries the API's cursor and reaches the second event.
    const first = await viewer.get('/console/partner-audit?size=1');
    const next = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    expect(next).toMatch(/^\/console\/partner-audit\?size=1&cursor=/);
    const second = await viewer.get(next);
    expect(second.statusCode).toBe(200);
    expect(second.text).toContain(`<td>${api.data[1]!.target}</td></tr>`);

    const bad = await viewer.get('/console/partner-audit?from=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.text).toContain('from');
    // A cursor of the group's trail does not page the partner's.
    const groupPage = await viewer.get('/console/audit?size=1');
    const groupCursor = /href="[^"]*cursor=([^"&]+)"/.exec(groupPage.text)![1]!;
    const crossed = await viewer.get(`/console/partner-audit?size=1&cursor=${groupCursor}`);
    expect(crossed.statusCode).toBe(400);
    expect(crossed.text).toContain('cursor');
  });

  it('is for every partner role, and 404 to operators; a signed-out visitor gets the sign-in page', async () => {
    for (const role of ['admin', 'finance', 'developer', 'viewer'] as const) {
      const b = await person(theirs, role);
      const page = await b.get('/console/partner-audit');
      expect(page.statusCode, role).toBe(200);
      expect(page.text, role).toContain(`key:${theirKey.keyId}`);
      expect(page.text, role).not.toContain(`key:${myKey.keyId}`);
      expect(page.text, role).toContain('aria-current="page">Partner audit trail');
    }
    const ops = await signedInAs(deps, { kind: 'operator', role: 'operator' });
    expect((await ops.get('/console/partner-audit')).statusCode).toBe(404);
    const visitor = new ConsoleBrowser((event) => handleConsole(deps, event));
    const answer = await visitor.get('/console/partner-audit');
    expect(answer.statusCode).toBe(303);
    expect(answer.headers?.Location).toBe('/console/sign-in');
  });
});

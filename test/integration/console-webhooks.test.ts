import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleAppDeps, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { consoleTokens } from '../../infra/crypto/console-tokens.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { ConsoleBrowser } from '../support/console-browser.ts';
import { endpointOf, signedInAs } from '../support/console-session.ts';
import { newAgentGroup, testServices, type GroupFixture } from '../support/stack.ts';

/* Editing a webhook endpoint's URL, description and events from the console: the API's updateEndpoint, under the person. */

let deps: ConsoleAppDeps;
let mine: GroupFixture;
let theirs: GroupFixture;
beforeAll(async () => {
  deps = consoleAppDeps(testServices(), 'https://console.test/console', new PdfInvoiceRenderer());
  [mine, theirs] = await Promise.all([newAgentGroup(), newAgentGroup()]);
}, 120_000);

const person = (g: GroupFixture, role: 'admin' | 'finance' | 'developer' | 'viewer') =>
  signedInAs(deps, { kind: 'partner', agentGroupId: g.agentGroupId, partnerId: g.partnerId, role });

describe('console: editing a webhook endpoint (the API’s PUT use case)', () => {
  it('changes the URL, description and events with CSRF, audited under the person; a bad URL or event is a 400 naming it', async () => {
    const endpoint = await endpointOf(mine, 'edit');
    const developer = await person(mine, 'developer');
    const form = await developer.get(`/console/webhooks/${endpoint.id}/edit`);
    expect(form.statusCode).toBe(200);
    expect(form.text).toContain(`value="${endpoint.url}"`);
    const path = `/console/webhooks/${endpoint.id}/edit`;
    const newUrl = `http://127.0.0.1:9/edited-${randomUUID().slice(0, 6)}`;
    const fields = { url: newUrl, description: 'Rates only', eventTypes: 'rate.changed' };

    expect((await developer.post(path, { ...fields, csrf: consoleTokens.newToken() })).statusCode).toBe(403);
    expect((await testServices().webhooks.get(mine.partnerId, endpoint.id))?.url).toBe(endpoint.url);

    const saved = await developer.post(path, { ...fields, csrf: ConsoleBrowser.csrfOf(form) });
    expect(saved.statusCode).toBe(200);
    expect(saved.text).toContain(`Endpoint ${newUrl} saved: rate.changed.`);
    expect(await testServices().webhooks.get(mine.partnerId, endpoint.id)).toEqual(
      expect.objectContaining({ url: newUrl, description: 'Rates only', eventTypes: ['rate.changed'] }),
    );
    const trail = await testServices().auditTrail.listTarget(`webhook-endpoint:${endpoint.id}`);
    expect(trail.at(-1)).toEqual(
      expect.objectContaining({ action: 'webhook-endpoint.updated', actorKind: 'person', actor: expect.stringMatching(/^person:/) }),
    );

    // None ticked: every event again.
    const all = await developer.post(path, { url: newUrl, csrf: ConsoleBrowser.csrfOf(form) });
    expect(all.text).toContain('saved: every event.');
    expect((await testServices().webhooks.get(mine.partnerId, endpoint.id))?.eventTypes).toBeNull();

    const badEvent = await developer.post(path, { url: newUrl, eventTypes: 'booking.created', csrf: ConsoleBrowser.csrfOf(form) });
    expect(badEvent.statusCode).toBe(400);
    expect(badEvent.text).toContain('Check Events: eventTypes[0]:');
    const badUrl = await developer.post(path, { url: 'not a url', csrf: ConsoleBrowser.csrfOf(form) });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.text).toContain('Check HTTPS URL: url:');
  });

  it('answers another partner’s endpoint as a missing one, and refuses finance and viewers', async () => {
    const [own, other] = await Promise.all([endpointOf(mine, 'own'), endpointOf(theirs, 'other')]);
    const admin = await person(mine, 'admin');
    const home = await admin.get('/console/home');
    const missing = await admin.get(`/console/webhooks/${randomUUID()}/edit`);
    const foreign = await admin.get(`/console/webhooks/${other.id}/edit`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.text).toBe(missing.text);
    const posted = await admin.post(`/console/webhooks/${other.id}/edit`, { url: 'http://127.0.0.1:9/taken', csrf: ConsoleBrowser.csrfOf(home) });
    expect(posted.statusCode).toBe(404);
    expect((await testServices().webhooks.get(theirs.partnerId, other.id))?.url).toBe(other.url);

    for (const role of ['finance', 'viewer'] as const) {
      const b = await person(mine, role);
      expect((await b.get(`/console/webhooks/${own.id}/edit`)).statusCode, role).toBe(403);
      const page = await b.get('/console/home');
      expect((await b.post(`/console/webhooks/${own.id}/edit`, { url: 'http://127.0.0.1:9/x', csrf: ConsoleBrowser.csrfOf(page) })).statusCode, role).toBe(403);
    }
  });

  it('takes the auth scheme, custom headers and retry settings as the API does; the secret is write-only; a refusal sits on its field', async () => {
    const developer = await person(mine, 'developer');
    const list = await developer.get('/console/webhooks');
    const csrf = ConsoleBrowser.csrfOf(list);
    const url = `http://127.0.0.1:9/full-${randomUUID().slice(0, 6)}`;
    const created = await developer.post('/console/webhooks/create', {
      url,
      authType: 'Bearer',
      authSecret: 'tok_console_secret_1',
      headers: 'X-Env: staging',
      maxAttempts: '3',
      timeoutSeconds: '5',
      csrf,
    });
    expect(created.statusCode).toBe(200);
    expect(created.text).not.toContain('tok_console_secret_1');
    expect(created.text).toContain('Bearer (secret set)');
    const stored = (await testServices().webhooks.list(mine.partnerId)).find((e) => e.url === url)!;
    expect(stored).toEqual(expect.objectContaining({ authType: 'Bearer', headers: { 'X-Env': 'staging' }, maxAttempts: 3, timeoutSeconds: 5 }));
    expect(stored.authSecretSealed).not.toBeNull();
    expect(stored.authSecretSealed).not.toContain('tok_console_secret_1');
    const trail = await testServices().auditTrail.listTarget(`webhook-endpoint:${stored.id}`);
    expect(trail[0]).toEqual(expect.objectContaining({ action: 'webhook-endpoint.created', actorKind: 'person' }));
    expect(JSON.stringify(trail)).not.toContain('tok_console_secret_1');

    const path = `/console/webhooks/${stored.id}/edit`;
    const edit = await developer.get(path);
    expect(edit.text).not.toContain('tok_console_secret_1');
    expect(edit.text).toContain('X-Env: staging');
    expect(edit.text).toContain('A secret is set; it is never shown.');

    // An empty secret box keeps the secret; the rest changes.
    const kept = await developer.post(path, {
      url,
      authType: 'Bearer',
      authSecret: '',
      headers: 'X-Env: prod\nX-Team: rates',
      maxAttempts: '10',
      timeoutSeconds: '30',
      status: 'DISABLED',
      csrf,
    });
    expect(kept.statusCode).toBe(200);
    const after = await testServices().webhooks.get(mine.partnerId, stored.id);
    expect(after).toEqual(
      expect.objectContaining({
        authSecretSealed: stored.authSecretSealed,
        headers: { 'X-Env': 'prod', 'X-Team': 'rates' },
        maxAttempts: 10,
        timeoutSeconds: 30,
        status: 'DISABLED',
      }),
    );

    const reserved = await developer.post(path, { url, headers: 'Authorization: Bearer x', csrf });
    expect(reserved.statusCode).toBe(400);
    expect(reserved.text).toContain('Check Custom headers: headers.Authorization');
    expect(reserved.text).toMatch(/id="edit-headers"[^>]*aria-invalid="true"/);
    const basic = await developer.post(path, { url, authType: 'Basic', authSecret: '', csrf });
    expect(basic.statusCode).toBe(400);
    expect(basic.text).toMatch(/id="edit-authSecret"[^>]*aria-invalid="true"/);
    expect(basic.text).toContain('authSecret is required when changing authType to Basic.');
    const retries = await developer.post(path, { url, maxAttempts: '16', csrf });
    expect(retries.statusCode).toBe(400);
    expect(retries.text).toContain('Check Attempts per delivery: maxAttempts');
    expect((await testServices().webhooks.get(mine.partnerId, stored.id))?.maxAttempts).toBe(10);
  });
});

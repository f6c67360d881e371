import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Access, PartnerRole } from '../../domain/console/people.ts';
import { consoleAppDeps, handleConsole, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { SCENARIO_FAMILIES } from '../../functions/openapi/scenario-descriptions.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { ConsoleBrowser } from '../support/console-browser.ts';
import { offSandbox, signedInAs } from '../support/console-session.ts';
import { newAgentGroup, testServices, type GroupFixture } from '../support/stack.ts';

/*
 * The test scenarios page (docs/console.md): a sandbox stage's reference of the X-Test-Scenario
 * values, in the OpenAPI document's words, for the roles of the test clock page; absent elsewhere.
 */

let deps: ConsoleAppDeps;
let group: GroupFixture;
beforeAll(async () => {
  deps = consoleAppDeps(testServices(), 'https://console.test/console', new PdfInvoiceRenderer());
  group = await newAgentGroup();
}, 120_000);

const partner = (role: PartnerRole): Access => ({ kind: 'partner', agentGroupId: group.agentGroupId, partnerId: group.partnerId, role });
/** The page's text as a person reads it: tags dropped, entities decoded. */
const readable = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, '')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

describe('console: test scenarios on sandbox stages', () => {
  it('lists every request that takes the header with each value, the OpenAPI document’s words and a request to paste', async () => {
    const developer = await signedInAs(deps, partner('developer'));
    const page = await developer.get('/console/test-scenarios');
    expect(page.statusCode).toBe(200);
    expect(page.text).toContain('<h1>Test scenarios</h1>');
    expect(page.text).toContain('<a href="/console/test-scenarios" aria-current="page">Test scenarios</a>');
    const text = readable(page.text);
    const reference = (JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as { info: { description: string } }).info.description;
    const requests = SCENARIO_FAMILIES.flatMap((f) => f.requests);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/orders/preview',
      'POST /v1/orders',
      'POST /v1/orders/{orderId}/reprice',
      'POST /v1/bookings',
      'POST /v1/bookings/{bookingId}/amendments',
      'POST /v1/invoices',
    ]);
    for (const family of SCENARIO_FAMILIES) {
      for (const { value, effect } of family.values) {
        // One source: the words the page prints are those of the reference's table.
        expect(reference).toContain(`| \`${value}\` | ${effect} |`);
        expect(text).toContain(effect.replaceAll('`', ''));
        for (const r of family.requests) {
          expect(page.text).toContain(`<h2 id="request-${r.operationId}"><code>${r.method} ${r.path}</code></h2>`);
          expect(text).toContain(
            `-X ${r.method} "https://console.test${r.path.replace(/\{(\w+)\}/, (_, p: string) => `$${p.replace('Id', '_ID').toUpperCase()}`)}"`,
          );
          expect(text).toContain(`-H 'X-Test-Scenario: ${value}'`);
        }
      }
    }
    // The reference's examples come from a test world: its ids never reach the page, the stage's come from shell variables.
    expect(text).not.toMatch(/onlya-|127\.0\.0\.1|ext-created/);
    expect(text).toContain('"listingId": "$LISTING_ID"');
    expect(text).toContain('"acceptedTotal": $ACCEPTED_TOTAL,');
    expect(text).toContain('"externalBookingId": "scenario-$(date +%s)"');
    expect(page.text).not.toContain('<form method="post" action="/console/test-scenarios');

    const admin = await signedInAs(deps, partner('admin'));
    expect((await admin.get('/console/test-scenarios')).statusCode).toBe(200);
  });

  it('is the test clock page’s roles: finance and viewers 403 (not in their navigation), operators 404, signed-out visitors the sign-in page', async () => {
    for (const role of ['finance', 'viewer'] as const) {
      const person = await signedInAs(deps, partner(role));
      expect((await person.get('/console/test-scenarios')).statusCode, role).toBe(403);
      expect((await person.get('/console/home')).text, role).not.toContain('Test scenarios');
    }
    const ops = await signedInAs(deps, { kind: 'operator', role: 'finance-operator' });
    expect((await ops.get('/console/test-scenarios')).statusCode).toBe(404);
    const visitor = new ConsoleBrowser((event) => handleConsole(deps, event));
    expect((await visitor.get('/console/test-scenarios')).headers.Location).toBe('/console/sign-in');
    const developer = await signedInAs(deps, partner('developer'));
    expect((await developer.post('/console/test-scenarios', { csrf: ConsoleBrowser.csrfOf(await developer.get('/console/home')) })).statusCode).toBe(405);
  });

  it('is not there off sandbox stages: the page answers as a missing one and the navigation does not offer it', async () => {
    const developer = await signedInAs(deps, partner('developer'));
    const offStage = offSandbox(developer);
    const home = await offStage.get('/console/home');
    expect(home.statusCode).toBe(200);
    expect(home.text).not.toContain('Test scenarios');
    const missing = await offStage.get('/console/test-scenarios');
    expect(missing.statusCode).toBe(404);
    expect(missing.text).not.toContain('X-Test-Scenario');
  });
});

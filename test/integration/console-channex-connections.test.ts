import { randomBytes, randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleAppDeps, type ConsoleAppDeps } from '../../functions/console/app.ts';
import { parseConfig } from '../../infra/config.ts';
import { buildServices } from '../../infra/container.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { provisionTable } from '../../scripts/local-stack.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { emptyStoredCatalogue, NO_REFS } from '../../domain/catalogue/catalogue-diff.ts';
import { seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { signedInAs } from '../support/console-session.ts';
import { newAgentGroup, stack, testServices } from '../support/stack.ts';

/*
 * The list of every listing connected to Channex (the sparse CHANNEX_CONNECTIONS index on GSI2), its backfill, and
 * the operators' page over it, on DynamoDB Local.
 */
let catalogue: CatalogueFixture;
let deps: ConsoleAppDeps;
beforeAll(async () => {
  catalogue = await seedCatalogue({ channex: ['onlyA', 'both'] });
  deps = consoleAppDeps(testServices(), 'https://console.test/console', new PdfInvoiceRenderer());
}, 120_000);

/** Every connection, page by page: each page at most `limit`, ids ascending and never repeated. */
async function allConnections(limit: number): Promise<string[]> {
  const seen: string[] = [];
  let after: string | undefined;
  do {
    const page = await testServices().channexInbox.connections({ limit, ...(after ? { after } : {}) });
    expect(page.listingIds.length).toBeLessThanOrEqual(limit);
    seen.push(...page.listingIds);
    after = page.next;
  } while (after);
  expect(new Set(seen).size).toBe(seen.length);
  expect([...seen].sort()).toEqual(seen);
  return seen;
}

describe('listings connected to Channex', () => {
  it('are listed, paged, from the connection itself: a listing not connected is not', async () => {
    const all = await allConnections(3);
    expect(all).toEqual(expect.arrayContaining([catalogue.onlyA, catalogue.both]));
    expect(all).not.toContain(catalogue.onlyB);
  }, 60_000);

  it('a listing disconnected leaves the list in the same write, and comes back when connected again', async () => {
    const svc = testServices();
    const [sim] = (await svc.catalogue.load({ ...NO_REFS, simulators: [catalogue.both] })).simulators;
    expect(sim?.channelManager).toBe('channex');
    const { channelManager: _cm, ...disconnected } = sim!;
    await svc.catalogue.save({ ...emptyStoredCatalogue(), simulators: [disconnected] });
    expect(await allConnections(50)).not.toContain(catalogue.both);
    await svc.catalogue.save({ ...emptyStoredCatalogue(), simulators: [sim!] });
    expect(await allConnections(50)).toContain(catalogue.both);
  }, 60_000);

  it('a connection written before the index is indexed by the backfill, once', async () => {
    // The backfill scans the whole table: on a table of its own, so it costs the same however much the run has written.
    const table = `pds-backfill-${randomBytes(4).toString('hex')}`;
    await provisionTable(stack().env.DYNAMODB_ENDPOINT!, table);
    const svc = buildServices(parseConfig({ ...stack().env, TABLE_NAME: table }));
    const listingId = `legacy-${randomUUID().slice(0, 8)}`;
    // As a connection was written before the key existed: the simulator item without it.
    await createDocumentClient(svc.config).send(
      new PutCommand({
        TableName: table,
        Item: { ...keys.simulator(listingId), entity: 'SimulatorBehaviour', listingId, mode: 'CONFIRM_IMMEDIATELY', channelManager: 'channex' },
      }),
    );
    expect((await svc.channexInbox.connections({ limit: 50 })).listingIds).not.toContain(listingId);
    // The admin tool's one-off backfill: write-ahead on the trail, then the connection is listed.
    const run = await runAdminTool(['channex', 'index-connections', '--json'], { TABLE_NAME: table });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).indexed).toBe(1);
    expect((await svc.channexInbox.connections({ limit: 50 })).listingIds).toEqual([listingId]);
    const audited = (await svc.auditTrail.listTarget('channex:stage')).filter((e) => e.action === 'admin.channex.index-connections');
    expect(audited.map((e) => e.after?.status)).toEqual(['started', 'completed']);
    expect(await svc.channexInbox.indexConnections()).toBe(0);
  }, 60_000);

  it('the operators’ Channex page lists them with a link to each; a bad cursor is a 400 naming it; partners’ people get 404', async () => {
    const ops = await signedInAs(deps, { kind: 'operator', role: 'operator' });
    let text = '';
    let path: string | undefined = '/console/operator/channex';
    while (path && !text.includes(`listing=${catalogue.onlyA}`)) {
      const page = await ops.get(path);
      expect(page.statusCode).toBe(200);
      text = page.text;
      path = /href="(\/console\/operator\/channex\?after=[^"]+)"/.exec(text)?.[1]?.replace(/&amp;/g, '&');
    }
    expect(text).toContain('<h2>Listings connected to Channex</h2>');
    expect(text).toContain(`href="/console/operator/channex?listing=${catalogue.onlyA}"`);
    expect(text).not.toContain(`listing=${catalogue.onlyB}"`);
    const bad = await ops.get(`/console/operator/channex?after=${'x'.repeat(101)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.text).toContain('after:');
    const g = await newAgentGroup();
    const admin = await signedInAs(deps, { kind: 'partner', agentGroupId: g.agentGroupId, partnerId: g.partnerId, role: 'admin' });
    const refused = await admin.get('/console/operator/channex');
    expect(refused.statusCode).toBe(404);
    expect(refused.text).not.toContain(catalogue.onlyA);
  }, 180_000);
});

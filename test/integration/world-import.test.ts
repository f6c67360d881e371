import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { newTestClock } from '../../domain/test-clocks/test-clock.ts';
import { importWorld, type ImportSummary, type ImportWorldDeps } from '../../domain/world/import-world.ts';
import { WorldValidationError } from '../../domain/world/world-validation-error.ts';
import { parseConfig } from '../../infra/config.ts';
import { adminDeps } from '../../infra/container.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { buildDemoWorld } from '../../scripts/demo-world.ts';
import { stack, testServices, uniqueId } from '../support/stack.ts';
import { clone, smallWorld } from '../support/world-fixture.ts';

const SANDBOX = { allowPlaintextKeys: true };

function depsAt(iso: string): ImportWorldDeps {
  const svc = testServices();
  return { ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue, clock: { now: () => new Date(iso) } };
}

const db = () => createDocumentClient(parseConfig(stack().env));
const table = () => stack().env.TABLE_NAME!;

/** Every raw item of the partitions a small world touches, for byte-level comparison. */
async function rawItems(tag: string): Promise<Record<string, unknown>[]> {
  const partitions = [
    keys.listing(`l1-${tag}`).PK,
    keys.listing(`l2-${tag}`).PK,
    keys.propertyMonth(`l1p1-${tag}`, '').PK,
    keys.propertyMonth(`l1p2-${tag}`, '').PK,
    keys.propertyMonth(`l2p1-${tag}`, '').PK,
    keys.channel(`web-${tag}`).PK,
    keys.channel(`b2b-${tag}`).PK,
    keys.cancellationPlan(`flex-${tag}`).PK,
    keys.gstRegistration(`Teststate ${tag}`).PK,
    keys.partner(`p-${tag}`).PK,
    keys.agentGroup(`g-${tag}`).PK,
    keys.apiKey(sha256Hex(`pds_test_partner_${tag}_key`)).PK,
    keys.apiKey(sha256Hex(`pds_test_group_${tag}_key`)).PK,
  ];
  const out: Record<string, unknown>[] = [];
  for (const pk of partitions) {
    const res = await db().send(new QueryCommand({ TableName: table(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk } }));
    out.push(...(res.Items ?? []));
  }
  return out;
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe('Use case: importWorld against DynamoDB Local', () => {
  it('writes a new world: catalogue, tenants, keys and the sealed signing secret', async () => {
    // Prepare
    const tag = uniqueId('w').slice(2);
    const svc = testServices();

    // Act
    const summary = await importWorld(depsAt('2027-01-10T08:00:00.000Z'), smallWorld(tag), SANDBOX);

    // Assess
    expect(summary.written).toMatchObject({
      channel: 2,
      cancellationPlan: 2,
      gstRegistration: 1,
      listing: 2,
      property: 3,
      meal: 1,
      vas: 1,
      simulator: 2,
      distribution: 3,
      offer: 2,
      propertyMonth: 3,
      partner: 1,
      agentGroup: 1,
      apiKey: 2,
      signingSecret: 1,
    });
    const bundle = await svc.catalogue.getListing(`l1-${tag}`);
    expect(bundle!.listing).toMatchObject({ id: `l1-${tag}`, basePrice: 900_000, createdAt: '2027-01-10T08:00:00.000Z' });
    expect(bundle!.properties.map((p) => p.id).sort()).toEqual([`l1p1-${tag}`, `l1p2-${tag}`]);
    expect(bundle!.simulator).toMatchObject({ mode: 'CONFIRM_AFTER', confirmAfterSeconds: 30 });
    expect(await svc.catalogue.listingIdOfProperty(`l1p2-${tag}`)).toBe(`l1-${tag}`);
    const [march] = await svc.catalogue.getPropertyMonths(`l1p2-${tag}`, '2027-02', '2027-04');
    expect(march!.days['03']).toMatchObject({
      inventory: { quantity: 0, minimumStay: 1, maximumStay: 30, stopSell: false },
      rates: { CP: { '1': 350_000, '2': 400_000 } },
    });
    expect((await svc.catalogue.listOffers(`b2b-${tag}`)).map((o) => o.code)).toEqual(['FLAT500']);
    expect(await svc.catalogue.getGstRegistration(`Teststate ${tag}`)).toMatchObject({ gstin: '30AAKCP4821M1ZC' });
    const key = await svc.tenants.findKeyByHash(sha256Hex(`pds_test_group_${tag}_key`));
    expect(key).toMatchObject({
      owner: { kind: 'agent-group', id: `g-${tag}` },
      status: 'ACTIVE',
      rateLimit: { perMinute: 120, burst: 20 },
      keyPrefix: `pds_test_gro`,
    });
    const secret = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'PK = :pk AND SK = :sk',
        ExpressionAttributeValues: { ':pk': `GROUP#g-${tag}`, ':sk': 'CALLBACK_SECRET' },
      }),
    );
    expect(svc.secrets.open(secret.Items![0]!.encrypted as string, `callback:g-${tag}`)).toBe(`whsec_test_${tag}_secret`);
  });

  it('writes nothing on a second import of the same file and leaves every item identical', async () => {
    const tag = uniqueId('w').slice(2);
    await importWorld(depsAt('2027-01-10T08:00:00.000Z'), smallWorld(tag), SANDBOX);
    const before = await rawItems(tag);

    const again = await importWorld(depsAt('2027-01-11T09:30:00.000Z'), smallWorld(tag), SANDBOX);

    expect(total(again.written)).toBe(0);
    expect(again.unchanged).toMatchObject({ listing: 2, property: 3, propertyMonth: 3, apiKey: 2, signingSecret: 1, partner: 1, agentGroup: 1 });
    expect(again.changes.inventory).toEqual([]);
    expect(again.changes.rates).toEqual([]);
    expect(await rawItems(tag)).toEqual(before);
  });

  it("keeps a group's sandbox test clock on its record through a second import, unchanged or changed", async () => {
    const tag = uniqueId('w').slice(2);
    await importWorld(depsAt('2027-01-10T08:00:00.000Z'), smallWorld(tag), SANDBOX);
    const svc = testServices();
    const clock = newTestClock(randomUUID(), `g-${tag}`, new Date('2027-01-10T09:00:00Z'));
    expect(await svc.testClocks.create(clock)).toBe(true);

    const same = await importWorld(depsAt('2027-01-11T09:30:00.000Z'), smallWorld(tag), SANDBOX);
    const renamed = clone(smallWorld(tag));
    const groups = renamed.tenants!.agentGroups!;
    groups[0] = { ...groups[0]!, name: 'Renamed' };
    const changed = await importWorld(depsAt('2027-01-12T09:30:00.000Z'), renamed, SANDBOX);

    expect(same.unchanged).toMatchObject({ agentGroup: 1 });
    expect(changed.written).toMatchObject({ agentGroup: 1 });
    expect(await svc.tenants.getAgentGroup(`g-${tag}`)).toMatchObject({ name: 'Renamed', testClockId: clock.id });
  });

  it('writes nothing at all when the document is broken, whether in shape or against stored data', async () => {
    const tag = uniqueId('w').slice(2);
    const broken = clone(smallWorld(tag));
    broken.catalogue.rates![3]!.adults = { '5': 9_000 };

    await expect(importWorld(depsAt('2027-01-10T08:00:00.000Z'), broken, SANDBOX)).rejects.toMatchObject({ param: 'catalogue.rates[3].adults["5"]' });
    expect(await rawItems(tag)).toEqual([]);

    // Valid on its own, but its second key is already registered to another owner.
    const other = uniqueId('w').slice(2);
    await importWorld(depsAt('2027-01-10T08:00:00.000Z'), smallWorld(other), SANDBOX);
    const stealing = clone(smallWorld(tag));
    stealing.keys![1]!.key = `pds_test_group_${other}_key`;
    const err = await importWorld(depsAt('2027-01-10T08:00:00.000Z'), stealing, SANDBOX).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorldValidationError);
    expect((err as WorldValidationError).param).toBe('keys[1].owner');
    expect(await rawItems(tag)).toEqual([]);
  });

  it("takes a group's credit-control terms (overdueHoldDays) from the file, and refuses a negative one naming it", async () => {
    const tag = uniqueId('w').slice(2);
    const world = clone(smallWorld(tag));
    world.tenants!.agentGroups![0]!.overdueHoldDays = -1;
    await expect(importWorld(depsAt('2027-01-10T08:00:00.000Z'), world, SANDBOX)).rejects.toMatchObject({ param: 'tenants.agentGroups[0].overdueHoldDays' });
    expect(await rawItems(tag)).toEqual([]);

    world.tenants!.agentGroups![0]!.overdueHoldDays = 15;
    await importWorld(depsAt('2027-01-10T08:00:00.000Z'), world, SANDBOX);
    expect(await testServices().tenants.getAgentGroup(`g-${tag}`)).toMatchObject({ overdueHoldDays: 15 });
    // The credit control reads it from the stored group (domain/receivables/credit-control.ts); a re-import without it turns it off.
    world.tenants!.agentGroups![0]!.overdueHoldDays = null;
    await importWorld(depsAt('2027-01-11T08:00:00.000Z'), world, SANDBOX);
    expect((await testServices().tenants.getAgentGroup(`g-${tag}`))?.overdueHoldDays ?? null).toBeNull();
  });

  it('detects a change to one day of rates and reports its date, touching nothing else', async () => {
    const tag = uniqueId('w').slice(2);
    await importWorld(depsAt('2027-01-10T08:00:00.000Z'), smallWorld(tag), SANDBOX);
    const changed = clone(smallWorld(tag));
    changed.catalogue.rates!.push({ propertyId: `l2p1-${tag}`, from: '2027-03-04', to: '2027-03-04', mealPlan: 'EP', adults: { '2': 6_500 } });

    const summary: ImportSummary = await importWorld(depsAt('2027-01-12T10:00:00.000Z'), changed, SANDBOX);

    expect(summary.changes.rates).toEqual([{ propertyId: `l2p1-${tag}`, dates: ['2027-03-04'] }]);
    expect(summary.changes.inventory).toEqual([]);
    expect(summary.written.propertyMonth).toBe(1);
    expect(total(summary.written)).toBe(1);
    const [march] = await testServices().catalogue.getPropertyMonths(`l2p1-${tag}`, '2027-03', '2027-03');
    expect(march!.days['04']).toMatchObject({
      rates: { EP: { '2': 650_000, '4': 700_000 } },
      createdAt: '2027-01-10T08:00:00.000Z',
      updatedAt: '2027-01-12T10:00:00.000Z',
    });
    expect(march!.days['05']!.updatedAt).toBe('2027-01-10T08:00:00.000Z');
  });

  it('moves a listing in its channel feed when one of its properties changes', async () => {
    const tag = uniqueId('w').slice(2);
    await importWorld(depsAt('2027-01-10T08:00:00.000Z'), smallWorld(tag), SANDBOX);
    const changed = clone(smallWorld(tag));
    changed.catalogue.listings![0]!.properties[0]!.bedrooms = 4;

    const summary = await importWorld(depsAt('2027-01-13T00:00:00.000Z'), changed, SANDBOX);

    expect(summary.changes.changed.property).toEqual([`l1p1-${tag}`]);
    expect(summary.changes.changed.listing).toEqual([]);
    expect(summary.changes.changed.distribution.sort()).toEqual([`b2b-${tag}/l1-${tag}`, `web-${tag}/l1-${tag}`]);
    const feed = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.channelFeed(`web-${tag}`).GSI1PK },
      }),
    );
    expect(feed.Items!.map((i) => i.GSI1SK)).toEqual([`2027-01-10T08:00:00.000Z#l2-${tag}`, `2027-01-13T00:00:00.000Z#l1-${tag}`]);
  });

  it('imports the demo world, then re-imports it writing nothing', async () => {
    const world = buildDemoWorld('2026-11-22');
    const deps = depsAt('2026-11-22T06:00:00.000Z');

    const t0 = performance.now();
    const first = await importWorld(deps, world, SANDBOX);
    const firstMs = performance.now() - t0;
    const t1 = performance.now();
    const second = await importWorld(deps, world, SANDBOX);
    const secondMs = performance.now() - t1;

    console.info(
      `demo world import: first ${Math.round(firstMs)} ms (${total(first.written)} items written), second ${Math.round(secondMs)} ms (${total(second.written)} written)`,
    );
    expect(first.written.listing + first.unchanged.listing).toBeGreaterThanOrEqual(40);
    expect(total(second.written)).toBe(0);
  }, 120_000);
});

import { TEST_OPERATOR, testOrigin } from '../support/audit-origin.ts';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../bin/admin/run-admin.ts';
import { createAgentGroup, createPartner, issueKey, replaceKey } from '../../domain/admin.ts';
import { createEndpoint } from '../../domain/webhooks/manage-endpoints.ts';
import { parseConfig } from '../../infra/config.ts';
import { adminDeps, buildServices, type Services } from '../../infra/container.ts';
import { SecretBox } from '../../infra/crypto/secret-box.ts';
import { DynamoSealedSecretStore } from '../../infra/dynamo/dynamo-sealed-secrets.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { provisionTable } from '../../scripts/local-stack.ts';
import { stack, uniqueId } from '../support/stack.ts';

/*
 * `secrets reseal` scans the whole table, so it runs on a table of its own here: on the shared
 * test table it would move every other test's secrets to a key the test stack does not have.
 */
const key = (): string => randomBytes(32).toString('base64');
const OLD = key();
const NEW = key();
let table: string;
let before: Services;

const envWith = (secretsKey: string) => ({ ...stack().env, TABLE_NAME: table, SECRETS_KEY: secretsKey });
const servicesWith = (secretsKey: string) => buildServices(parseConfig(envWith(secretsKey)));

async function reseal(secretsKey: string): Promise<{ code: number; summary: any }> {
  let out = '';
  const code = await runAdmin(['secrets', 'reseal', '--json'], {
    stdout: { write: (t) => void (out += t) },
    stderr: { write: () => undefined },
    env: { ...envWith(secretsKey), ADMIN_OPERATOR: 'test-operator' },
    root: '/nonexistent',
    cwd: process.cwd(),
  });
  return { code, summary: code === 0 ? JSON.parse(out) : undefined };
}

/** Every sealed value in the table, opened with the new key alone. */
async function openAllWithNewKeyOnly(): Promise<string[]> {
  const svc = servicesWith(NEW);
  const store = new DynamoSealedSecretStore(createDocumentClient(svc.config), table);
  const opened: string[] = [];
  for await (const field of store.list()) opened.push(new SecretBox(Buffer.from(NEW, 'base64')).open(field.sealed, field.context));
  return opened.sort();
}

async function seedTenants(svc: Services) {
  const deps = adminDeps(svc, TEST_OPERATOR);
  const partner = await createPartner(deps, { partnerId: uniqueId('partner'), name: 'Reseal Partner', channelId: 'reseal' });
  const group = await createAgentGroup(deps, {
    agentGroupId: uniqueId('group'),
    partnerId: partner.partnerId,
    name: 'Reseal Agents',
    channelId: 'reseal',
    creditLimit: 0,
    onHold: false,
    distributionEnabled: true,
    billingCycle: 'MONTHLY',
    billingAnchorDay: 1,
    gstin: null,
    legalName: 'Reseal Agents',
    address: { line1: '1 Road', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'IN' },
  });
  const issued = await issueKey(deps, { owner: { kind: 'agent-group', id: group.agentGroupId } });
  const principal = { kind: 'partner' as const, partnerId: partner.partnerId, channelId: partner.channelId, keyId: 'k', keyPrefix: 'p' };
  await createEndpoint(
    { webhooks: svc.webhooks, clock: svc.clock, ids: svc.ids, sealer: svc.secrets, urlGuard: svc.urlGuard },
    principal,
    {
      url: 'http://127.0.0.1:9/in',
      authType: 'Bearer',
      authSecret: 'bearer-before-the-rotation',
      signingSecret: 'whsec_before_the_rotation',
    },
    testOrigin(),
  );
  return { keyId: issued.record.keyId, signingSecret: issued.signingSecret! };
}

describe('secrets reseal (the admin command) during a rotation', () => {
  let first: { keyId: string; signingSecret: string };
  beforeAll(async () => {
    table = `pds-reseal-${randomBytes(4).toString('hex')}`;
    await provisionTable(stack().env.DYNAMODB_ENDPOINT!, table);
    before = servicesWith(OLD);
    first = await seedTenants(before);
  });

  it('moves every secret sealed under the old key to the new one; after it the old key is not needed', async () => {
    const { code, summary } = await reseal(`${NEW},${OLD}`);

    expect(code).toBe(0);
    expect(summary).toEqual({ examined: 3, resealed: 3, current: 0, changedMeanwhile: 0, unreadable: [] });
    expect(await openAllWithNewKeyOnly()).toEqual(['bearer-before-the-rotation', first.signingSecret, 'whsec_before_the_rotation'].sort());
  });

  it('is harmless to run again: nothing left to move', async () => {
    const { summary } = await reseal(`${NEW},${OLD}`);

    expect(summary).toMatchObject({ examined: 3, resealed: 0, current: 3 });
  });

  it('racing the service replacing a key, ends with the secret the service issued, under the new key', async () => {
    const during = servicesWith(`${NEW},${OLD}`);
    const other = await seedTenants(before);

    const [{ summary }, replaced] = await Promise.all([reseal(`${NEW},${OLD}`), replaceKey(adminDeps(during, TEST_OPERATOR), other.keyId)]);

    expect(summary.unreadable).toEqual([]);
    expect(summary.resealed + summary.changedMeanwhile + summary.current).toBe(summary.examined);
    const opened = await openAllWithNewKeyOnly();
    expect(opened).toContain(replaced.signingSecret);
    expect(opened).not.toContain(other.signingSecret);
  });

  it('reports a value no configured key opens and leaves it alone', async () => {
    const stranger = servicesWith(key());
    await seedTenants(stranger);

    const { summary } = await reseal(`${NEW},${OLD}`);

    expect(summary.unreadable).toHaveLength(3);
    expect(summary.unreadable.map((u: { kind: string }) => u.kind).sort()).toEqual(['callback-secret', 'webhook-auth', 'webhook-signing']);
    expect(JSON.stringify(summary)).not.toMatch(/whsec_|bearer-before/);
  });
});

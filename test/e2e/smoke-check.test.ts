import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../domain/admin.ts';
import { adminDeps } from '../../infra/container.ts';
import { smokeCheck } from '../../scripts/smoke-check.ts';
import { provisionSmokeTenants } from '../../domain/smoke-tenants.ts';
import { newAgentGroup, newPartner, stack, testServices, uniqueId, type GroupFixture, type PartnerFixture } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

const run = promisify(execFile);
const noWait = { sleep: async () => undefined, retryDelayMs: 0 };

/** The pipeline's smoke check (scripts/smoke-check.ts) against the test stack's serverless offline. */
describe('smoke check', () => {
  let partner: PartnerFixture;
  let group: GroupFixture;
  beforeAll(async () => {
    [partner, group] = await Promise.all([newPartner(), newAgentGroup()]);
  });

  it('passes every check against a healthy stage', async () => {
    const results = await smokeCheck(stack().baseUrl, { partnerKey: partner.apiKey, groupKey: group.apiKey }, noWait);

    expect(results.map((r) => [r.name, r.ok, r.detail])).toEqual([
      ['GET /openapi.json', true, 'ok'],
      ['GET /api/ping (smoke partner key)', true, 'ok'],
      ['GET /v1/ping (smoke group key)', true, 'ok'],
      ['GET /v1/ping without a key is refused', true, 'ok'],
    ]);
  });

  it('as the pipeline runs it: exit 0, the closing count, and no key in its output', async () => {
    const { stdout } = await run('npx', ['tsx', 'scripts/smoke-check.ts', stack().baseUrl], {
      env: { ...process.env, SMOKE_PARTNER_KEY: partner.apiKey, SMOKE_GROUP_KEY: group.apiKey },
    });

    expect(stdout).toContain('4 passed, 0 failed');
    expect(stdout).not.toContain(partner.apiKey);
    expect(stdout).not.toContain(group.apiKey);
  });

  it('fails, naming the check, when the smoke key no longer works (exit 1 for the pipeline to roll back)', async () => {
    const revoked = await newAgentGroup();
    await revokeKey(adminDeps(testServices(), TEST_OPERATOR), revoked.keyId);

    const results = await smokeCheck(stack().baseUrl, { partnerKey: partner.apiKey, groupKey: revoked.apiKey }, { ...noWait, attempts: 2 });
    expect(results.filter((r) => !r.ok)).toEqual([{ name: 'GET /v1/ping (smoke group key)', ok: false, detail: 'status 401, expected 200' }]);

    const failed = await run('npx', ['tsx', 'scripts/smoke-check.ts', stack().baseUrl, '--attempts', '1'], {
      env: { ...process.env, SMOKE_PARTNER_KEY: partner.apiKey, SMOKE_GROUP_KEY: revoked.apiKey },
    }).catch((err: { code: number; stdout: string }) => err);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stdout: string }).stdout).toContain('3 passed, 1 failed');
  });

  describe('against a stage that is not this service', () => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
      receiver.respond('/openapi.json', (_req, nth) =>
        nth < 2
          ? { status: 503, body: 'warming up' }
          : { status: 200, headers: { 'content-type': 'application/json' }, body: '{"openapi":"3.1.0","paths":{}}' },
      );
      receiver.respond('/api/ping', () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' }));
    });
    afterAll(() => receiver.close());

    it('retries a 503 a bounded number of times, and judges the bodies, not only the statuses', async () => {
      const slept: number[] = [];
      const results = await smokeCheck(
        receiver.url,
        { partnerKey: 'pds_x', groupKey: 'pds_y' },
        { attempts: 3, retryDelayMs: 100, sleep: async (ms) => void slept.push(ms) },
      );

      expect(receiver.to('/openapi.json')).toHaveLength(3);
      expect(results[0]).toEqual({ name: 'GET /openapi.json', ok: false, detail: 'not the OpenAPI document of this service' });
      expect(results[1]).toEqual({ name: 'GET /api/ping (smoke partner key)', ok: false, detail: 'no partnerId in the reply' });
      // /v1/ping answers 204 here: three attempts each, growing gaps between them.
      expect(results[2]!.detail).toBe('status 204, expected 200');
      expect(slept.slice(0, 2)).toEqual([100, 200]);
    });
  });
});

describe('the smoke tenants (stage smoke-keys)', () => {
  it('can pass the smoke check but never book, and a rerun revokes the previous keys', async () => {
    const deps = adminDeps(testServices(), TEST_OPERATOR);
    const id = uniqueId('smoke');

    const first = await provisionSmokeTenants(deps, {}, id);
    const firstRun = await smokeCheck(stack().baseUrl, { partnerKey: first.smokePartnerKey, groupKey: first.smokeGroupKey }, noWait);
    expect(firstRun.every((r) => r.ok)).toBe(true);
    const group = await deps.tenants.getAgentGroup(id);
    expect(group).toMatchObject({ creditLimit: 0, onHold: true, distributionEnabled: true });

    const second = await provisionSmokeTenants(deps, { partnerKeyId: first.smokePartnerKeyId, groupKeyId: first.smokeGroupKeyId }, id);

    expect(second.smokeGroupKeyId).not.toBe(first.smokeGroupKeyId);
    expect((await smokeCheck(stack().baseUrl, { partnerKey: second.smokePartnerKey, groupKey: second.smokeGroupKey }, noWait)).every((r) => r.ok)).toBe(true);
    const stale = await smokeCheck(stack().baseUrl, { partnerKey: first.smokePartnerKey, groupKey: first.smokeGroupKey }, { ...noWait, attempts: 1 });
    expect(stale.filter((r) => !r.ok).map((r) => r.detail)).toEqual(['status 401, expected 200', 'status 401, expected 200']);
  });
});

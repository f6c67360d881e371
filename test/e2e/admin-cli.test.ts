import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, runAdmin } from '../../bin/admin/run-admin.ts';
import { issueKey } from '../../domain/admin.ts';
import { adminDeps } from '../../infra/container.ts';
import { randomBase62, sha256Hex } from '../../infra/crypto/api-keys.ts';
import { runAdminTool, spawnAdminTool, type AdminRun } from '../support/admin-tool.ts';
import { call, stack, testServices, uniqueId } from '../support/stack.ts';

/** The tool in-process, against the test stack's DynamoDB Local. */
const admin = (...args: string[]): Promise<AdminRun> => runAdminTool(args);

/** The real tool as an operator runs it, for the tests of its exit codes. A cold tsx start on a loaded machine: generous, and a stuck one still ends. */
const adminProcess = (...args: string[]): Promise<AdminRun> => spawnAdminTool(args, {}, 150_000);

const json = <T = any>(run: AdminRun): T => {
  expect(run.stderr, run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
};

const ping = (surface: 'api' | 'v1', key: string) => call('GET', `/${surface}/ping`, { key }).then((r) => r.status);

const groupArgs = (id: string, partnerId: string, overrides: Record<string, string | null> = {}): string[] => {
  const options: Record<string, string | null> = {
    id,
    partner: partnerId,
    name: 'Coastal Agents',
    channel: 'test-channel',
    'credit-limit': '250000.50',
    'billing-cycle': 'MONTHLY',
    'anchor-day': '5',
    gstin: '27AAPFU0939F1ZV',
    'legal-name': 'Coastal Agents Pvt Ltd',
    'address-line1': '4 Beach Road',
    city: 'Panaji',
    state: 'Goa',
    'postal-code': '403001',
    ...overrides,
  };
  return ['groups', 'create', ...Object.entries(options).flatMap(([k, v]) => (v === null ? [] : [`--${k}`, v]))];
};

// The exit-code tests start the real tool several times, a cold tsx start of seconds apiece on a loaded
// machine: the budget is per process (its own timeout), not the 30 s default for a whole test.
describe('Command: admin (CLI)', { timeout: 240_000 }, () => {
  const partnerId = uniqueId('cli-partner');
  const groupId = uniqueId('cli-group');

  beforeAll(async () => {
    json(await admin('partners', 'create', '--id', partnerId, '--name', 'Coastal Holidays', '--channel', 'test-channel', '--json'));
    json(await admin(...groupArgs(groupId, partnerId), '--json'));
  });

  it('creates a partner and an agent group and lists them, amounts in rupees', async () => {
    // act
    const [partners, groups] = await Promise.all([admin('partners', 'list', '--json'), admin('groups', 'list', '--partner', partnerId, '--json')]);

    // assess
    expect(json<any[]>(partners)).toContainEqual({
      partnerId,
      name: 'Coastal Holidays',
      channelId: 'test-channel',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(json(groups)).toEqual([
      expect.objectContaining({
        agentGroupId: groupId,
        partnerId,
        creditLimit: 250000.5,
        onHold: false,
        distributionEnabled: true,
        billingCycle: 'MONTHLY',
        billingAnchorDay: 5,
        gstin: '27AAPFU0939F1ZV',
        address: { line1: '4 Beach Road', city: 'Panaji', state: 'Goa', postalCode: '403001', country: 'IN' },
      }),
    ]);
    expect((await testServices().tenants.getAgentGroup(groupId))?.creditLimit).toBe(25_000_050);
  });

  it('says an unknown group or partner is unknown (exit 1) instead of listing nothing', async () => {
    const [group, partner] = [uniqueId('no-group'), uniqueId('no-partner')];

    const runs = await Promise.all([
      admin('invoices', 'list', '--group', group),
      admin('payments', 'list', '--group', group),
      admin('billing', 'runs', '--group', group),
      admin('keys', 'list', '--group', group),
      admin('groups', 'list', '--partner', partner),
      admin('deliveries', 'failed', '--partner', partner),
    ]);

    expect(runs.map((r) => r.code)).toEqual([1, 1, 1, 1, 1, 1]);
    for (const r of runs.slice(0, 4)) expect(r.stderr).toContain(`No such agent group '${group}'`);
    for (const r of runs.slice(4)) expect(r.stderr).toContain(`No such partner '${partner}'`);
    expect(runs.every((r) => r.stdout === '')).toBe(true);
  });

  it('issues a key shown once, lists it without secrets, and a revoked key gets 401 at once', async () => {
    // act
    const issued = json(await admin('keys', 'issue', '--group', groupId, '--label', 'ops laptop', '--rate-per-minute', '1200', '--burst', '50', '--json'));

    // assess
    expect(issued.apiKey).toMatch(/^pds_[A-Za-z0-9]{40}$/);
    expect(issued.signingSecret).toMatch(/^whsec_/);
    expect(issued.notice).toMatch(/cannot be shown again/);
    expect(await ping('v1', issued.apiKey)).toBe(200);

    const listed = await admin('keys', 'list', '--group', groupId, '--json');
    expect(json(listed)).toContainEqual({
      keyId: issued.key.keyId,
      keyPrefix: issued.apiKey.slice(0, 12),
      owner: { kind: 'agent-group', id: groupId },
      status: 'ACTIVE',
      label: 'ops laptop',
      rateLimit: { perMinute: 1200, burst: 50 },
      createdAt: expect.any(String),
      revokedAt: null,
    });
    for (const secret of [issued.apiKey, sha256Hex(issued.apiKey), issued.signingSecret]) expect(listed.stdout).not.toContain(secret);

    const revoked = json(await admin('keys', 'revoke', issued.key.keyId, '--json'));
    expect(revoked).toMatchObject({ keyId: issued.key.keyId, status: 'REVOKED', revokedAt: expect.any(String) });
    expect(await ping('v1', issued.apiKey)).toBe(401);
    const again = json(await admin('keys', 'revoke', issued.key.keyId, '--json'));
    expect(again).toMatchObject({ status: 'REVOKED', revokedAt: revoked.revokedAt });
  });

  it('revokes a key named by the key itself or by its prefix, and refuses a prefix two keys share', async () => {
    // prepare: two keys of our own, and two sharing a prefix no other key has
    const byKey = json(await admin('keys', 'issue', '--partner', partnerId, '--json'));
    const byPrefix = json(await admin('keys', 'issue', '--partner', partnerId, '--json'));
    const shared = `pds_${randomBase62(8)}`;
    const twins = await Promise.all(
      [1, 2].map(() =>
        issueKey(adminDeps(testServices(), TEST_OPERATOR), { owner: { kind: 'partner', id: partnerId }, presetKey: `${shared}${randomBase62(32)}` }),
      ),
    );

    // act
    const revokedByKey = await admin('keys', 'revoke', byKey.apiKey, '--json');
    const revokedByPrefix = await admin('keys', 'revoke', byPrefix.apiKey.slice(0, 12), '--json');
    const ambiguous = await admin('keys', 'revoke', shared);
    const unknown = await admin('keys', 'revoke', `pds_${randomBase62(40)}`);

    // assess
    expect(json(revokedByKey)).toMatchObject({ keyId: byKey.key.keyId, status: 'REVOKED' });
    expect(revokedByKey.stdout).not.toContain(byKey.apiKey);
    expect(json(revokedByPrefix)).toMatchObject({ keyId: byPrefix.key.keyId, status: 'REVOKED' });
    expect([await ping('api', byKey.apiKey), await ping('api', byPrefix.apiKey)]).toEqual([401, 401]);
    expect(ambiguous.code).not.toBe(0);
    for (const t of twins) expect(ambiguous.stderr).toContain(t.record.keyId);
    expect(ambiguous.stderr).not.toContain(twins[0]!.apiKey);
    expect(twins.map((t) => t.record.status)).toEqual(['ACTIVE', 'ACTIVE']);
    expect((await Promise.all(twins.map((t) => testServices().tenants.getKey(t.record.keyId)))).map((k) => k?.status)).toEqual(['ACTIVE', 'ACTIVE']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/Key not found/);
  });

  it('replaces a partner key: the new one works, the old one gets 401', async () => {
    // prepare: human output, as an operator reads it
    const first = await admin('keys', 'issue', '--partner', partnerId);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/cannot be shown again/);
    const oldKey = /pds_[A-Za-z0-9]{40}/.exec(first.stdout)![0];
    const oldKeyId = /key_[a-z0-9]+/.exec(first.stdout)![0];
    expect(await ping('api', oldKey)).toBe(200);

    // act
    const replaced = json(await admin('keys', 'replace', oldKeyId, '--json'));

    // assess
    expect(replaced.replacedKeyId).toBe(oldKeyId);
    expect(replaced.signingSecret).toBeNull();
    expect(await ping('api', replaced.apiKey)).toBe(200);
    expect(await ping('api', oldKey)).toBe(401);
  });

  it('updates a group: disabling distribution locks its keys out, the new credit limit shows in the list', async () => {
    // prepare
    const issued = json(await admin('keys', 'issue', '--group', groupId, '--json'));
    expect(await ping('v1', issued.apiKey)).toBe(200);

    // act
    const updated = json(await admin('groups', 'update', groupId, '--distribution', 'disabled', '--credit-limit', '125000.75', '--on-hold', 'true', '--json'));

    // assess
    expect(updated).toMatchObject({ agentGroupId: groupId, distributionEnabled: false, creditLimit: 125000.75, onHold: true, gstin: '27AAPFU0939F1ZV' });
    expect(await ping('v1', issued.apiKey)).toBe(401);
    const listed = json<any[]>(await admin('groups', 'list', '--partner', partnerId, '--json'));
    expect(listed.find((g) => g.agentGroupId === groupId)).toMatchObject({ creditLimit: 125000.75, distributionEnabled: false, onHold: true });

    json(await admin('groups', 'update', groupId, '--distribution', 'enabled', '--json'));
    expect(await ping('v1', issued.apiKey)).toBe(200);
  });

  it('refuses bad input with a message naming the option and writes nothing', async () => {
    // prepare
    const ids = Array.from({ length: 7 }, () => uniqueId('cli-bad'));
    const cases: { args: string[]; code: number; says: RegExp }[] = [
      { args: groupArgs(ids[0]!, partnerId, { 'legal-name': null }), code: 2, says: /Missing required option --legal-name/ },
      { args: groupArgs(ids[1]!, partnerId, { gstin: '27AAPFU0939F1Z' }), code: 2, says: /--gstin must be a 15-character GSTIN/ },
      { args: groupArgs(ids[2]!, partnerId, { 'billing-cycle': 'WEEKLY', 'anchor-day': '8' }), code: 2, says: /--anchor-day must be 1–7 for a WEEKLY cycle/ },
      { args: groupArgs(ids[3]!, partnerId, { 'credit-limit': '-5' }), code: 2, says: /--credit-limit must be zero or a positive amount/ },
      {
        args: groupArgs(ids[4]!, partnerId, { 'credit-limit': '10.005' }),
        code: 2,
        says: /--credit-limit must be an amount in rupees with at most two decimals/,
      },
      { args: [...groupArgs(ids[5]!, partnerId), '--colour', 'blue'], code: 2, says: /Unknown option --colour/ },
      { args: groupArgs(ids[6]!, uniqueId('no-such-partner')), code: 2, says: /--partner: Partner .* does not exist/ },
    ];

    // act
    const runs = await Promise.all(cases.map((c) => admin(...c.args)));

    // assess
    runs.forEach((run, i) => {
      expect(run.code, run.stderr).toBe(cases[i]!.code);
      expect(run.stderr).toMatch(cases[i]!.says);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stdout).toBe('');
    });
    const stored = await Promise.all(ids.map((id) => testServices().tenants.getAgentGroup(id)));
    expect(stored.every((g) => g === undefined)).toBe(true);
  });

  it('refuses duplicates and unknown targets with exit code 1 and leaves the existing records as they were', async () => {
    // prepare
    const missingGroup = uniqueId('cli-missing');

    // act
    const [dupPartner, dupGroup, updateMissing, keyForMissing, jsonError] = await Promise.all([
      adminProcess('partners', 'create', '--id', partnerId, '--name', 'Impostor', '--channel', 'other-channel'),
      adminProcess(...groupArgs(groupId, partnerId, { name: 'Impostor', 'credit-limit': '1' })),
      adminProcess('groups', 'update', missingGroup, '--credit-limit', '1000'),
      adminProcess('keys', 'issue', '--group', missingGroup),
      adminProcess('groups', 'update', groupId, '--anchor-day', '3', '--json'),
    ]);

    // assess
    expect([dupPartner.code, dupGroup.code, updateMissing.code, keyForMissing.code]).toEqual([1, 1, 1, 1]);
    expect(dupPartner.stderr).toMatch(/Partner .* already exists/);
    expect(dupGroup.stderr).toMatch(/Agent group .* already exists/);
    expect(updateMissing.stderr).toMatch(/Agent group not found/);
    expect(keyForMissing.stderr).toMatch(/Agent group not found/);
    expect(await testServices().tenants.getPartner(partnerId)).toMatchObject({ name: 'Coastal Holidays', channelId: 'test-channel' });
    expect(await testServices().tenants.getAgentGroup(groupId)).toMatchObject({ name: 'Coastal Agents' });
    expect(await testServices().tenants.getAgentGroup(missingGroup)).toBeUndefined();
    expect(jsonError.code).toBe(2);
    expect(JSON.parse(jsonError.stderr)).toEqual({
      error: { code: 'USAGE', message: expect.stringMatching(/^Unknown option --anchor-day/), option: '--anchor-day' },
    });
  });

  it('answers --help at every level with exit code 0', async () => {
    // act
    const [top, update] = await Promise.all([adminProcess('--help'), adminProcess('groups', 'update', '--help')]);

    // assess
    expect(top.code).toBe(0);
    for (const c of COMMANDS) expect(top.stdout).toContain(c.path.join(' '));
    expect(update.code).toBe(0);
    expect(update.stdout).toMatch(/--credit-limit <rupees>[\s\S]*--on-hold true\|false[\s\S]*--distribution enabled\|disabled[\s\S]*Example/);
  });
});

describe('Command: admin import (CLI)', { timeout: 240_000 }, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'admin-import-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const world = (
    partnerId: string,
    groupId: string,
    keys: { partner: string; group: string; secret: string },
    groupOverrides: Record<string, unknown> = {},
  ) => ({
    version: 1,
    channels: [{ channelId: 'cli-import-channel', name: 'CLI import channel' }],
    tenants: {
      partners: [{ partnerId, name: 'Imported Partner', channelId: 'cli-import-channel' }],
      agentGroups: [
        {
          agentGroupId: groupId,
          partnerId,
          name: 'Imported Agents',
          channelId: 'cli-import-channel',
          creditLimit: 100000.25,
          billingCycle: 'WEEKLY',
          billingAnchorDay: 1,
          gstin: '29AAPFU0939F1ZV',
          legalName: 'Imported Agents LLP',
          address: { line1: '1 MG Road', city: 'Bengaluru', state: 'Karnataka', postalCode: '560001', country: 'IN' },
          ...groupOverrides,
        },
      ],
    },
    keys: [
      { owner: { kind: 'partner', id: partnerId }, key: keys.partner, label: 'imported' },
      { owner: { kind: 'agent-group', id: groupId }, key: keys.group, signingSecret: keys.secret },
    ],
  });

  const writeWorld = (doc: unknown): string => {
    const file = join(dir, `${randomUUID()}.json`);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };

  it('imports a world file with plaintext keys on a sandbox stage, and importing it again writes nothing', async () => {
    // prepare
    const partnerId = uniqueId('cli-import-p');
    const groupId = uniqueId('cli-import-g');
    const keys = { partner: `partner-key-${randomUUID()}`, group: `group-key-${randomUUID()}`, secret: `secret-${randomUUID()}` };
    const file = writeWorld(world(partnerId, groupId, keys));

    // act
    const summary = json(await admin('import', file, '--json'));
    const again = await admin('import', file);

    // assess
    expect(summary.written).toMatchObject({ partner: 1, agentGroup: 1, apiKey: 2, signingSecret: 1 });
    expect(JSON.stringify(summary)).not.toContain(keys.group);
    expect(await ping('api', keys.partner)).toBe(200);
    expect(await ping('v1', keys.group)).toBe(200);
    expect(await testServices().tenants.getAgentGroup(groupId)).toMatchObject({ creditLimit: 10_000_025, billingCycle: 'WEEKLY' });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/nothing written/);
  });

  it('refuses a world file with problems, listing each by its path, and writes nothing', async () => {
    // prepare
    const partnerId = uniqueId('cli-import-p');
    const groupId = uniqueId('cli-import-g');
    const keys = { partner: `partner-key-${randomUUID()}`, group: `group-key-${randomUUID()}`, secret: `secret-${randomUUID()}` };
    const file = writeWorld(world(partnerId, groupId, keys, { gstin: 'NOT-A-GSTIN', colour: 'blue' }));

    // act
    const run = await admin('import', file);

    // assess
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/nothing was imported/);
    expect(run.stderr).toMatch(/tenants\.agentGroups\[0\]\.colour/);
    expect(await testServices().tenants.getPartner(partnerId)).toBeUndefined();
    expect(await testServices().tenants.getAgentGroup(groupId)).toBeUndefined();
  });
});

describe('Function: runAdmin', () => {
  let emptyRoot: string;
  beforeAll(() => {
    emptyRoot = mkdtempSync(join(tmpdir(), 'admin-cli-'));
  });
  afterAll(() => rmSync(emptyRoot, { recursive: true, force: true }));

  const runIn = async (argv: string[], env: Record<string, string> = {}) => {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(argv, {
      stdout: { write: (t) => void (stdout += t) },
      stderr: { write: (t) => void (stderr += t) },
      env: { ADMIN_OPERATOR: 'test-operator', ...env },
      root: emptyRoot,
      cwd: emptyRoot,
    });
    return { code, stdout, stderr };
  };

  it.each(COMMANDS.map((c) => [c.path.join(' '), c] as const))('answers `%s --help` with every option and an example', async (_name, spec) => {
    // act
    const run = await runIn([...spec.path, '--help']);

    // assess
    expect(run.code).toBe(0);
    for (const option of spec.options) expect(run.stdout).toContain(`--${option.name}`);
    if (spec.positional) expect(run.stdout).toContain(`<${spec.positional.name}>`);
    expect(run.stdout).toMatch(/Examples?:\n {2}npm run admin -- /);
  });

  it('says how to start the local stack when no stack is configured, with exit code 2', async () => {
    // act
    const run = await runIn(['partners', 'list']);

    // assess
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/npm start/);
    expect(run.stderr).toMatch(/STAGE/);
  });

  it('refuses an import file that is missing or not JSON before reading any configuration', async () => {
    // prepare
    writeFileSync(join(emptyRoot, 'broken.json'), '{ "version": 1,');

    // act
    const [missing, broken] = await Promise.all([runIn(['import', 'nowhere.json']), runIn(['import', 'broken.json'])]);

    // assess
    expect([missing.code, broken.code]).toEqual([2, 2]);
    expect(missing.stderr).toMatch(/nowhere\.json does not exist/);
    expect(broken.stderr).toMatch(/broken\.json is not valid JSON/);
  });

  it('reads .local/stack.env when STAGE is not set', async () => {
    // prepare
    const root = mkdtempSync(join(tmpdir(), 'admin-stack-env-'));
    mkdirSync(join(root, '.local'));
    writeFileSync(
      join(root, '.local', 'stack.env'),
      `# written by npm start\n${Object.entries(stack().env)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')}\n`,
    );
    let stdout = '';

    // act
    const code = await runAdmin(['partners', 'list', '--json'], {
      stdout: { write: (t) => void (stdout += t) },
      stderr: { write: () => undefined },
      env: { TABLE_NAME: 'elsewhere' },
      root,
      cwd: root,
    });
    rmSync(root, { recursive: true, force: true });

    // assess
    expect(code).toBe(0);
    expect(Array.isArray(JSON.parse(stdout))).toBe(true);
  });

  it('rejects an unknown command with exit code 2 and the command list', async () => {
    // act
    const run = await runIn(['partner', 'create']);

    // assess
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Unknown command 'partner'/);
    expect(run.stderr).toMatch(/partners create/);
  });
});

import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminTool } from '../support/admin-tool.ts';

/**
 * An admin command that fails for a reason outside the command line says what failed, so
 * the operator knows whether running it again can help: the file system (path and errno),
 * the network (which store, at which host), a store that is out of breath or refusing, or
 * a bug (unit-tested in test/unit/admin-failures.test.ts, as no command of the real tool
 * has one to show).
 */
const GSTIN = '30AAKCP4821M1ZC';
/**
 * For the unreachable stores, the tool waits out the operator's 8 attempts with their backoff:
 * time spent waiting, so those two cases wait at once (`runAdmin` takes its environment, never process.env).
 */
const TOOL_TIMEOUT = 240_000;
const errorOf = (stderr: string) => JSON.parse(stderr).error as { code: string; kind: string; retryable: boolean; message: string };

/** A DynamoDB endpoint that answers every call 503, as a store that is up but not coping does. */
let busy: Server;
beforeAll(async () => {
  busy = createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/x-amz-json-1.0' });
    res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ServiceUnavailable', message: 'busy' }));
  });
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

describe('admin: what failed, and whether retrying helps', () => {
  it(
    'filing gstr1 makes an --out folder that does not exist yet',
    async () => {
      const out = join(mkdtempSync(join(tmpdir(), 'gstr1-out-')), 'does', 'not', 'exist');

      const run = await runAdminTool(['filing', 'gstr1', '--gstin', GSTIN, '--month', '2026-11', '--out', out, '--json']);

      expect(run.code, run.stderr).toBe(0);
      expect(readdirSync(out).sort()).toEqual([
        `${GSTIN}-112026-gstr1-b2cl.csv`,
        `${GSTIN}-112026-gstr1-b2cs.csv`,
        `${GSTIN}-112026-gstr1-cdnr.csv`,
        `${GSTIN}-112026-gstr1.csv`,
        `${GSTIN}-112026-gstr1.json`,
      ]);
    },
    TOOL_TIMEOUT,
  );

  it(
    'file system: an --out that cannot be a folder is named with its errno, not retryable',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gstr1-file-'));
      writeFileSync(join(dir, 'returns'), 'a file, not a folder');
      const out = join(dir, 'returns', '2026-11');

      const run = await runAdminTool(['filing', 'gstr1', '--gstin', GSTIN, '--month', '2026-11', '--out', out, '--json']);
      const human = await runAdminTool(['filing', 'gstr1', '--gstin', GSTIN, '--month', '2026-11', '--out', out]);

      expect(run.code).toBe(1);
      expect(errorOf(run.stderr)).toMatchObject({ code: 'FILE_SYSTEM', kind: 'file-system', retryable: false });
      expect(errorOf(run.stderr).message).toContain(`mkdir ${out} (ENOTDIR)`);
      expect(human.stderr).toMatch(/^Error: File system: cannot mkdir .*returns\/2026-11 \(ENOTDIR\)\. The stack was not the problem/);
      expect(existsSync(out)).toBe(false);
    },
    TOOL_TIMEOUT,
  );

  it.concurrent(
    'network: a store nobody listens at is named with its host, retryable',
    async () => {
      const run = await runAdminTool(['partners', 'list', '--json'], { DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' });

      expect(run.code).toBe(1);
      expect(errorOf(run.stderr)).toMatchObject({ code: 'UNREACHABLE', kind: 'network', retryable: true });
      expect(errorOf(run.stderr).message).toContain('could not reach DynamoDB at 127.0.0.1:1 (ECONNREFUSED)');
    },
    TOOL_TIMEOUT,
  );

  it.concurrent(
    'storage: a store answering 503 after every retry is named, retryable',
    async () => {
      const run = await runAdminTool(['partners', 'list', '--json'], { DYNAMODB_ENDPOINT: `http://127.0.0.1:${(busy.address() as AddressInfo).port}` });

      expect(run.code).toBe(1);
      expect(errorOf(run.stderr)).toMatchObject({ code: 'STORAGE_UNAVAILABLE', kind: 'storage', retryable: true });
      expect(errorOf(run.stderr).message).toMatch(/^Storage: DynamoDB did not cope \(ServiceUnavailable/);
    },
    TOOL_TIMEOUT,
  );

  it(
    'storage: a store refusing the call (no such table) is named, not retryable',
    async () => {
      const run = await runAdminTool(['partners', 'list', '--json'], { TABLE_NAME: 'pds-no-such-table' });

      expect(run.code).toBe(1);
      expect(errorOf(run.stderr)).toMatchObject({ code: 'STORAGE_REFUSED', kind: 'storage', retryable: false });
      expect(errorOf(run.stderr).message).toContain('DynamoDB refused the call (ResourceNotFoundException)');
    },
    TOOL_TIMEOUT,
  );
});

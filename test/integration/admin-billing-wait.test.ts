import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Following } from '../../bin/admin/command.ts';
import { buildServices } from '../../infra/container.ts';
import { parseConfig } from '../../infra/config.ts';
import { provisionTable } from '../../scripts/local-stack.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { fanOutKit, type FanOutKit } from '../support/fan-out-kit.ts';
import { seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { stack, testServices } from '../support/stack.ts';

/** Real time, looking again every 100 ms: the workers bill on their own, the follower only reads. */
const brisk: Following = { waiting: { now: () => performance.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) }, everyMs: 100 };

/** Time that passes only when the follower sleeps: a timeout reached after a known number of reads, at any machine speed. */
function virtualTime(): Following & { reads: () => number } {
  let now = 0;
  let sleeps = 0;
  return {
    waiting: { now: () => now, sleep: async (ms) => void ((now += ms), sleeps++) },
    everyMs: 5_000,
    reads: () => sleeps + 1,
  };
}

let world: InvoiceWorld;
let kit: FanOutKit;
const kits: FanOutKit[] = [];

beforeAll(async () => {
  world = await seedInvoiceWorld();
  kit = await fanOutKit({ env: stack().env, channelId: world.channelId, svc: testServices() });
  kits.push(kit);
}, 120_000);

afterAll(() => kits.forEach((k) => k.stop()));

describe('admin: following a billing run over every group (--wait)', () => {
  it('prints progress as the workers bill, then exits 0 with the invoices issued; a group that fails makes it exit 1 naming the group', async () => {
    // prepare: two groups with a booking each, a run over them queued as the schedule queues one, workers on the queue
    const groups = [await kit.newGroup(), await kit.newGroup()];
    for (const [i, g] of groups.entries()) await kit.bookOne(g, world.registered, `2027-03-0${i + 1}`);
    const run = await kit.queueRun('ADMIN');
    const workers = kit.startWorkers(2);
    try {
      // act
      const followed = await runAdminTool(['billing', 'runs', '--run', run.runId, '--wait', '--timeout', '10m'], {}, brisk);

      // assess: a line per change, the last one with every group done, and the verdict
      expect(followed.code, followed.stderr).toBe(0);
      const lines = followed.stdout.trim().split('\n');
      expect(lines.at(-2)).toMatch(/^\[\d+(m\d\d)?s\] 2\/2 groups done: 2 billed, 0 up to date, 0 failed; 2 invoices issued; 0 pending\.$/);
      expect(lines.at(-1)).toBe(`Run ${run.runId} completed: 2 groups, 2 billed, 0 up to date, 2 invoices issued.`);

      // prepare: a third group whose billing lock a run elsewhere holds (past the workers' clock, eight days ahead), so its worker's run throws
      const blocked = await kit.newGroup();
      await kit.bookOne(blocked, world.registered, '2027-03-03');
      await testServices().billingControl.acquireLock(
        blocked.agentGroupId,
        'elsewhere',
        new Date().toISOString(),
        new Date(Date.now() + 30 * 86_400_000).toISOString(),
      );
      const second = await kit.queueRun('ADMIN');

      // act
      const failed = await runAdminTool(['billing', 'runs', '--run', second.runId, '--wait', '--json'], {}, brisk);

      // assess: exit 1; the document says FAILED and names the group; the first two are up to date
      expect(failed.code, failed.stdout + failed.stderr).toBe(1);
      const doc = JSON.parse(failed.stdout);
      expect(doc).toMatchObject({ runId: second.runId, outcome: 'FAILED', enqueued: 3, upToDate: 2, failed: 1, pending: 0, invoicesIssued: 0 });
      expect(doc.failures).toEqual([expect.objectContaining({ agentGroupId: blocked.agentGroupId })]);
      await testServices().billingControl.releaseLock(blocked.agentGroupId, 'elsewhere');
    } finally {
      await workers.stop();
    }
  }, 180_000);

  it('billing run --all --wait queues the run and follows it; with no worker it stops at --timeout (exit 1, the run left queued), and a later --wait sees it through', async () => {
    // prepare: a table of its own, so --all bills only this test's group
    const table = `admin-wait-${randomUUID().slice(0, 8)}`;
    await provisionTable(stack().env.DYNAMODB_ENDPOINT!, table);
    const env = { ...stack().env, TABLE_NAME: table };
    const own = await fanOutKit({ env, channelId: world.channelId, svc: buildServices(parseConfig(env)) });
    kits.push(own);
    await own.newGroup();
    const toolEnv = { TABLE_NAME: table, BILLING_QUEUE_URL: own.queueUrl };
    const time = virtualTime();

    // act: nothing drains the queue
    const stopped = await runAdminTool(['billing', 'run', '--all', '--wait', '--timeout', '1m', '--as', 'olga'], toolEnv, time);

    // assess: 60 s of 5 s sleeps is 13 reads, one line (nothing moved), then the timeout's verdict
    expect(stopped.code).toBe(1);
    expect(time.reads()).toBe(13);
    const lines = stopped.stdout.trim().split('\n');
    const runId = /as run (\S+);/.exec(lines[0]!)?.[1];
    expect(lines).toEqual([
      `Queued 1 groups on the billing queue as run ${runId}; following it (at most 1m00s).`,
      '[0s] 0/1 groups done: 0 billed, 0 up to date, 0 failed; 0 invoices issued; 1 pending.',
      `Run ${runId} still running after 1m00s: 1 of 1 groups pending. The run carries on; follow it with billing runs --run ${runId} --wait.`,
    ]);

    // act: a worker takes the message; following the run again
    const workers = own.startWorkers(1);
    try {
      const finished = await runAdminTool(['billing', 'runs', '--run', runId!, '--wait'], toolEnv, brisk);
      expect(finished.code, finished.stdout + finished.stderr).toBe(0);
      expect(finished.stdout).toMatch(new RegExp(`Run ${runId} completed: 1 groups, [01] billed, [01] up to date, 0 invoices issued\\.`));
    } finally {
      await workers.stop();
    }
  }, 180_000);

  it('refuses --timeout without --wait, a duration without its unit, and --wait without a run to follow', async () => {
    const noWait = await runAdminTool(['billing', 'runs', '--run', 'daily-2026-11-26', '--timeout', '5m']);
    const noUnit = await runAdminTool(['billing', 'runs', '--run', 'daily-2026-11-26', '--wait', '--timeout', '30']);
    const noRun = await runAdminTool(['billing', 'runs', '--wait']);
    const unknown = await runAdminTool(['billing', 'runs', '--run', `no-such-${randomUUID()}`, '--wait'], {}, virtualTime());

    expect([noWait.code, noUnit.code, noRun.code, unknown.code]).toEqual([2, 2, 2, 1]);
    expect(noWait.stderr).toContain('--timeout bounds --wait');
    expect(noUnit.stderr).toContain('--timeout must be a duration from 1s to 24h with its unit');
    expect(noRun.stderr).toContain('--wait follows one run: give --run <runId>.');
    expect(unknown.stderr).toMatch(/billing run/i);
  }, 60_000);
});

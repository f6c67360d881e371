import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBillingJob } from '../../events/billing-job-message.ts';
import { pollUntil } from '../support/poll.ts';
import { fanOutKit, type FanOutKit } from '../support/fan-out-kit.ts';
import { seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { stack, testServices } from '../support/stack.ts';
import { concurrentRecords } from '../../functions/workers/sqs-batch.ts';
import { handleBillingRecord } from '../../functions/workers/bill-group.ts';

let world: InvoiceWorld;
let kit: FanOutKit;

beforeAll(async () => {
  world = await seedInvoiceWorld();
  kit = await fanOutKit({ env: stack().env, channelId: world.channelId, svc: testServices(), maxReceiveCount: 2 });
}, 120_000);

afterAll(() => kit?.stop());

describe('The daily run fanned out on the billing queue', () => {
  it('bills each group once across 3 workers; a failing group is retried, dead-lettered and visible; redelivered messages bill nothing twice', async () => {
    // prepare: four groups with one booking each; the fourth's billing lock is held by a run elsewhere, so its run throws
    const groups = await Promise.all([1, 2, 3, 4].map(() => kit.newGroup()));
    for (const [i, g] of groups.entries()) await kit.bookOne(g, world.registered, `2027-03-0${i + 1}`);
    const blocked = groups[3]!;
    await testServices().billingControl.acquireLock(
      blocked.agentGroupId,
      'elsewhere',
      new Date().toISOString(),
      new Date(Date.now() + 30 * 86_400_000).toISOString(),
    );

    // act: the schedule's part, then the workers
    const run = await kit.queueRun();
    expect(await kit.progress(run.runId)).toMatchObject({ enqueued: 4, billed: 0, failed: 0, pending: 4 });
    const workers = kit.startWorkers(3);
    const settled = await kit.waitFor(run.runId, 'three billed, one failed twice', (p) => p.billed === 3 && p.failures.some((f) => f.attempts >= 2));
    // The move to the dead-letter queue happens on a worker's next receive, whenever its lane polls again.
    const dead = await pollUntil('the failing group dead-lettered', async () => {
      const bodies = await kit.dlqBodies();
      return bodies.length ? bodies : undefined;
    });

    // assess: the failure is in the run record and its message in the dead-letter queue
    expect(settled).toMatchObject({ enqueued: 4, billed: 3, upToDate: 0, failed: 1, pending: 0 });
    expect(settled.failures).toEqual([
      expect.objectContaining({ agentGroupId: blocked.agentGroupId, attempts: 2, error: expect.stringMatching(/billing run|lock|progress/i) }),
    ]);
    expect(dead.map((b) => JSON.parse(b).agentGroupId)).toEqual([blocked.agentGroupId]);
    const before = await Promise.all(groups.map((g) => kit.invoicedOf(g)));
    expect(before.map((x) => x.invoices)).toEqual([1, 1, 1, 0]);

    // act: every message delivered again (as SQS may), and the held group's lock freed and its message redriven
    const again = concurrentRecords('billing', () => kit.workerDeps, handleBillingRecord);
    for (const g of groups.slice(0, 3)) {
      const res = await again({
        Records: [
          {
            messageId: g.agentGroupId,
            receiptHandle: 'x',
            body: encodeBillingJob({ runId: run.runId, agentGroupId: g.agentGroupId, day: run.day, trigger: 'SCHEDULE', force: false, openWork: false }),
            attributes: { ApproximateReceiveCount: '2', SentTimestamp: '', SenderId: '', ApproximateFirstReceiveTimestamp: '' },
            messageAttributes: {},
            md5OfBody: '',
            eventSource: 'aws:sqs',
            eventSourceARN: 'arn',
            awsRegion: 'ap-south-1',
          },
        ],
      });
      expect(res.batchItemFailures).toEqual([]);
    }
    await testServices().billingControl.releaseLock(blocked.agentGroupId, 'elsewhere');
    expect(await kit.redrive()).toBe(1);
    const finished = await kit.waitFor(run.runId, 'all four billed', (p) => p.billed === 4);
    await workers.stop();

    // assess: one invoice each, the first three unchanged; BILLED kept over the redeliveries' up-to-date
    expect(finished).toMatchObject({ enqueued: 4, billed: 4, upToDate: 0, failed: 0, pending: 0, failures: [] });
    const after = await Promise.all(groups.map((g) => kit.invoicedOf(g)));
    expect(after.map((x) => x.invoices)).toEqual([1, 1, 1, 1]);
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(after[3]!.total).toBe(after[0]!.total);
  }, 180_000);
});

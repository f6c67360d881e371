import { randomUUID } from 'node:crypto';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient, DeleteMessageCommand } from '@aws-sdk/client-sqs';
import type { Services } from '../../infra/container.ts';
import { billingDeps, buildServices } from '../../infra/container.ts';
import { parseConfig } from '../../infra/config.ts';
import { SqsBillingQueue } from '../../infra/sqs/sqs-billing-queue.ts';
import { queueBillingRun } from '../../domain/invoicing/scheduled-billing.ts';
import type { FanOutProgress, FanOutRun } from '../../domain/ports/billing-fan-out.ts';
import type { BillingTrigger } from '../../domain/invoicing/invoice.ts';
import { handleBillingRecord, type BillingWorkerDeps } from '../../functions/workers/bill-group.ts';
import { concurrentRecords } from '../../functions/workers/sqs-batch.ts';
import { LOCAL_CREDENTIALS, provisionQueues } from '../../scripts/local-stack.ts';
import { startEventSourceMapping, type EventSourceMapping } from './event-source-mapping.ts';
import { call, newAgentGroup, type GroupFixture } from './stack.ts';
import { guest, placeStay, stay } from './booking-world.ts';
import { pollUntil } from './poll.ts';

/** A day past the end of any weekly period that holds today: the run's clock, so today's bookings fall in the period it bills. */
const AHEAD_MS = 8 * 86_400_000;
/** Short, so a failed group's message is back in seconds; the mapping keeps a running invocation's messages invisible. */
const VISIBILITY_SECONDS = 2;

export interface FanOutKit {
  readonly queueUrl: string;
  readonly dlqUrl: string;
  /** The groups of this kit's runs (the directory's listing, narrowed to them, so no other test's group is billed). */
  readonly groups: GroupFixture[];
  newGroup(): Promise<GroupFixture>;
  /** Places one confirmed one-night booking for the group over HTTP. */
  bookOne(group: GroupFixture, listingId: string, checkIn: string): Promise<void>;
  /**
   * The daily run as the schedule starts it: the run record, then one message per group. An
   * ADMIN run has an id of its own, where the schedule's is its day's (shared by every kit, all eight days ahead).
   */
  queueRun(trigger?: BillingTrigger): Promise<FanOutRun>;
  /** `concurrency` billing workers on the kit's queue, as Lambda's trigger runs them. */
  /** Workers taking `batchSize` messages per invocation (billGroup's trigger takes 10). */
  /** `invocationTimeoutMs`: the function's timeout, past which an invocation that has not answered counts as ended (default 60 s). */
  startWorkers(concurrency: number, batchSize?: number, invocationTimeoutMs?: number): EventSourceMapping;
  progress(runId: string): Promise<FanOutProgress>;
  waitFor(runId: string, what: string, done: (p: FanOutProgress) => boolean): Promise<FanOutProgress>;
  dlqBodies(): Promise<string[]>;
  /** Moves every dead-lettered message back to the queue (what an operator's redrive does). */
  redrive(): Promise<number>;
  /** Issued and draft invoices of the group: [count, total of their totals]. */
  invoicedOf(group: GroupFixture): Promise<{ invoices: number; total: number }>;
  /** What the workers bill with; a test may replace it to place a fault inside a group's run. */
  workerDeps: BillingWorkerDeps;
  /** Moves the billing clock on (a killed run's lock lease running out). */
  advanceClock(ms: number): void;
  stop(): void;
}

/**
 * The daily run's fan-out over a stack's own table and emulators, with a billing queue of its
 * own (2 s visibility, kept while an invocation runs, `maxReceiveCount` receives before the dead-letter queue) drained by the
 * real worker handler through startEventSourceMapping. The billing clock is eight days ahead.
 */
/**
 * `baseUrl`: book the fixtures over that stack's HTTP (the storage-fault stack, whose point is
 * what its handlers do); without it they are booked through the domain (placeStay) on `svc`.
 */
export async function fanOutKit(opts: {
  env: Record<string, string>;
  baseUrl?: string;
  channelId: string;
  svc: Services;
  maxReceiveCount?: number;
}): Promise<FanOutKit> {
  const name = `fanout-${randomUUID().slice(0, 8)}`;
  const urls = await provisionQueues(opts.env.SQS_ENDPOINT!, [name], {
    visibilityTimeoutSeconds: VISIBILITY_SECONDS,
    maxReceiveCount: opts.maxReceiveCount ?? 3,
  });
  const queueUrl = urls[name]!;
  const sqs = new SQSClient({ endpoint: opts.env.SQS_ENDPOINT, region: 'ap-south-1', credentials: LOCAL_CREDENTIALS });
  const dlqUrl = queueUrl.replace(name, `${name}-dlq`);
  const groups: GroupFixture[] = [];
  // The worker runs the service's own settings (the production SDK limits on the fault stack).
  let ahead = AHEAD_MS;
  const clocked = buildServices(parseConfig(opts.env), { now: () => new Date(Date.now() + ahead) });
  const base = billingDeps(clocked);
  const only = () => new Set(groups.map((g) => g.agentGroupId));
  const listAgentGroups = async () => (await clocked.tenants.listAgentGroups()).filter((g) => only().has(g.agentGroupId));
  const handler = concurrentRecords('billing', () => kit.workerDeps, handleBillingRecord);
  const kit: FanOutKit = {
    queueUrl,
    dlqUrl,
    groups,
    workerDeps: base,
    advanceClock: (ms) => void (ahead += ms),
    async newGroup() {
      const g = await newAgentGroup({ channelId: opts.channelId, billingCycle: 'WEEKLY', billingAnchorDay: 1 }, opts.svc);
      groups.push(g);
      return g;
    },
    async bookOne(group, listingId, checkIn) {
      const checkOut = new Date(Date.parse(checkIn) + 86_400_000).toISOString().slice(0, 10);
      if (opts.baseUrl === undefined) {
        const booking = await placeStay(group, listingId, checkIn, checkOut, opts.svc);
        if (booking.status !== 'CONFIRMED') throw new Error(`booking: ${booking.status} ${booking.failure?.reason ?? ''}`);
        return;
      }
      const o = await call('POST', '/v1/orders', { key: group.apiKey, body: stay(listingId, checkIn, checkOut), baseUrl: opts.baseUrl });
      if (o.status !== 200) throw new Error(`order: ${o.status} ${o.text}`);
      const b = await call('POST', '/v1/bookings', {
        key: group.apiKey,
        baseUrl: opts.baseUrl,
        body: { orderId: o.body.orderId, externalBookingId: `fan-${randomUUID().slice(0, 8)}`, acceptedTotal: o.body.summary.grandTotal, primaryGuest: guest },
      });
      if (b.status !== 200 || b.body.bookingStatus !== 'CONFIRMED') throw new Error(`booking: ${b.status} ${b.text}`);
    },
    queueRun: (trigger = 'SCHEDULE') =>
      queueBillingRun({ ...base, tenants: { listAgentGroups }, billingQueue: new SqsBillingQueue(sqs, queueUrl) }, { trigger }),
    // Ten messages per invocation by default, as billGroup's trigger takes them (serverless.yml): a failing group is reported alone.
    startWorkers: (concurrency, batchSize = 10, invocationTimeoutMs) =>
      startEventSourceMapping({ sqs, queueUrl, concurrency, batchSize, handler, visibilitySeconds: VISIBILITY_SECONDS, invocationTimeoutMs }),
    progress: async (runId) => (await clocked.billingRuns.progress(runId))!,
    waitFor: (runId, what, done) =>
      pollUntil(
        what,
        async () => {
          const p = await clocked.billingRuns.progress(runId).catch(() => undefined);
          return p && done(p) ? p : undefined;
        },
        { tries: 480 },
      ),
    async dlqBodies() {
      const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['ApproximateNumberOfMessages'] }));
      const n = Number(attrs.Attributes?.ApproximateNumberOfMessages ?? 0);
      if (n === 0) return [];
      const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }));
      return (out.Messages ?? []).map((m) => m.Body ?? '');
    },
    async redrive() {
      let moved = 0;
      for (;;) {
        const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 30 }));
        if (!out.Messages?.length) return moved;
        for (const m of out.Messages) {
          await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: m.Body! }));
          await sqs.send(new DeleteMessageCommand({ QueueUrl: dlqUrl, ReceiptHandle: m.ReceiptHandle! }));
          moved++;
        }
      }
    },
    async invoicedOf(group) {
      const [issued, open] = await Promise.all([
        opts.svc.invoices.list(group.agentGroupId, { statuses: ['ISSUED', 'PAID'], limit: 100 }),
        opts.svc.invoices.openInvoices(group.agentGroupId),
      ]);
      const all = [...issued.invoices, ...open.filter((o) => o.status === 'DRAFT')];
      return { invoices: all.length, total: all.reduce((a, i) => a + i.total, 0) };
    },
    stop: () => sqs.destroy(),
  };
  return kit;
}

import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { addDays } from '../domain/catalogue/calendar.ts';
import { indiaToday } from '../domain/reads/date-window.ts';
import type { AgentGroup } from '../domain/tenants.ts';
import type { Services } from '../infra/container.ts';
import { putAll } from '../infra/dynamo/batch-write.ts';
import { createDocumentClient, dynamoCalls, resetDynamoCalls } from '../infra/dynamo/client.ts';
import { inParallel } from '../infra/dynamo/in-parallel.ts';
import { LOCAL_CREDENTIALS, billingQueueName, pdfQueueName, provisionQueues } from '../scripts/local-stack.ts';
import { startEventSourceMapping } from '../test/support/event-source-mapping.ts';
import { benchGroupInput, benchWorld } from './bench-world.ts';
import { bookingItems, indexedGroup } from './billing-scale-bench.ts';
import { httpEvent, lambdaContext } from './harness.ts';
import { DynamoRounds, roundsTable } from './dynamo-rounds.ts';
import { benchAlone } from './standalone.ts';
import { seeding } from './seeding.ts';

/**
 * `npm run bench:billing-fan-out`: the daily run fanned out, and a big POST /v1/invoices with
 * its PDF off the request path (docs/invoicing.md, "Figures"), one line per target ending in
 * its figure and `met` or `missed`.
 * - The daily run over GROUPS small groups (one unbilled booking each), one after another
 *   (billAllGroups, one at a time: the old daily Lambda) against a second set of as many groups
 *   through the billing queue with 4 workers (the worker's handler driven as Lambda's SQS
 *   trigger runs it, test/support/event-source-mapping.ts). Both bill with the same deps
 *   (PDFs queued); every group must end with exactly one invoice.
 * - POST /v1/invoices for BIG new bookings (two lines each) answers within 10 s (handing what
 *   it has not written by BILLING_REQUEST_WORK_MS to the billing worker), the billing worker
 *   issues the invoice, and the PDF worker has stored its PDF within 60 s of the issue.
 * Bookings are written straight to the table, as the billing-scale bench does.
 * `BENCH_PARTS` picks the parts to run (`post`, `daily`, comma-separated; both by default).
 */
const GROUPS = Number(process.env.BENCH_GROUPS ?? 2_000);
const BIG = Number(process.env.BENCH_BIG ?? 5_000);
const WORKERS = 4;
const PARTS = new Set((process.env.BENCH_PARTS ?? 'post,daily').split(',').map((p) => p.trim()));
/** Messages per worker invocation: the billGroup function's SQS batch size (serverless.yml). */
const BATCH = Number(process.env.BENCH_BATCH ?? 10);
/** The bench's queues' visibility, and the workers' timeout (the billing worker's 300 s in serverless.yml; the PDF worker's is 120 s). */
const VISIBILITY_SECONDS = 120;
const FUNCTION_TIMEOUT_MS = 300_000;
const CHANNEL = 'bench-billing-fan-out';
/** The run's ports whose methods name the phases of its DynamoDB calls. */
const TRACED_PORTS = [
  'invoices',
  'ledger',
  'unbilled',
  'bookingReads',
  'catalogue',
  'receivables',
  'balances',
  'creditNotes',
  'gateway',
  'tenants',
  'billingRuns',
  'rateLimiter',
] as const;
const verdict = (ok: boolean) => (ok ? 'met' : 'missed');
/**
 * CPU seconds used so far by this process and the emulators it started (Linux /proc, in clock
 * ticks of 10 ms): next to a phase's wall time it shows whether the machine, not the code, set
 * the pace (the other engineers' work on the shared machine takes its share of the two cores).
 */
function cpuSeconds(): number {
  const stats = new Map<number, { ppid: number; cpu: number }>();
  for (const d of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(d), { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / 100 });
    } catch {
      // The process ended while the list was read.
    }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of stats) if (!mine.has(pid) && mine.has(p.ppid)) grew = mine.add(pid).size > 0;
  }
  return [...mine].reduce((t, pid) => t + (stats.get(pid)?.cpu ?? 0), 0);
}
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function benchFanOut(svc: Services): Promise<void> {
  const { adminDeps, billingDeps, buildServices, pdfDeps } = await import('../infra/container.ts');
  const { createPartner, createAgentGroup, issueKey } = await import('../domain/admin.ts');
  const { importWorld } = await import('../domain/world/import-world.ts');
  const { billAllGroups, queueBillingRun } = await import('../domain/invoicing/scheduled-billing.ts');
  const { handleBillingRecord } = await import('../functions/workers/bill-group.ts');
  const { concurrentRecords } = await import('../functions/workers/sqs-batch.ts');
  const { operatorOrigin } = await import('../domain/audit/audit-event.ts');
  const seed = await seeding(svc);
  const admin = adminDeps(seed, operatorOrigin('bench', 'seed'));
  const db = createDocumentClient(seed.config);
  const table = svc.config.tableName;
  const sqs = new SQSClient({ endpoint: svc.config.endpoints.sqs, region: 'ap-south-1', credentials: LOCAL_CREDENTIALS });
  await importWorld(
    { ...admin, catalogue: seed.catalogue },
    {
      ...benchWorld({ channelId: CHANNEL, listings: 10, from: '2027-01-01', days: 30, idPrefix: 'inv-l' }),
      gst: { registrations: [{ state: 'Goa', stateCode: '30', gstin: '30AAKCB1234C1ZX', legalName: 'Bench Stays Goa', address: 'Panaji, Goa 403001' }] },
    },
    { allowPlaintextKeys: true },
  );
  // Posted 40 days ago: inside the last closed period of a monthly group whatever today is.
  const at = new Date(Date.now() - 40 * 86_400_000).toISOString();
  const partnerGroups = async (partnerId: string, count: number): Promise<AgentGroup[]> => {
    await createPartner(admin, { partnerId, name: 'Bench', channelId: CHANNEL });
    const groups: AgentGroup[] = new Array(count);
    await inParallel(
      Array.from({ length: count }, (_, i) => i),
      16,
      async (i) =>
        void (groups[i] = await createAgentGroup(admin, benchGroupInput(`${partnerId}-${String(i).padStart(5, '0')}`, partnerId, CHANNEL, 100_000_000_00))),
    );
    await putAll(
      db,
      table,
      groups.flatMap((g, i) => [indexedGroup(g.agentGroupId, at), ...bookingItems(g, CHANNEL, i, 1, false, at)]),
    );
    return groups;
  };
  const invoicesOf = async (groups: AgentGroup[]): Promise<number[]> => {
    const counts: number[] = new Array(groups.length);
    await inParallel(
      groups.map((_, i) => i),
      16,
      async (i) => void (counts[i] = (await svc.invoices.list(groups[i]!.agentGroupId, { statuses: ['ISSUED', 'PAID'], limit: 5 })).invoices.length),
    );
    return counts;
  };

  /**
   * One billing worker as its own Lambda container (its own clients and stores) behind the
   * billGroup function's SQS trigger, taking `batchSize` messages per invocation; `onHandled`
   * counts the messages it finished, so the bench need not read the run record while it measures.
   */
  function startBillingWorker(batchSize: number, onHandled: (n: number) => void) {
    const container = billingDeps(buildServices(svc.config));
    const bill = concurrentRecords('billing', () => container, handleBillingRecord) as (e: SQSEvent) => Promise<SQSBatchResponse>;
    return startEventSourceMapping({
      sqs,
      queueUrl: process.env.BILLING_QUEUE_URL!,
      concurrency: 1,
      batchSize,
      visibilitySeconds: VISIBILITY_SECONDS,
      invocationTimeoutMs: FUNCTION_TIMEOUT_MS,
      handler: async (e) => {
        const r = await bill(e);
        onHandled(e.Records.length - r.batchItemFailures.length);
        return r;
      },
    });
  }

  if (PARTS.has('post')) await benchBigRun();
  if (PARTS.has('daily')) await benchDailyRun();
  sqs.destroy();

  // POST /v1/invoices for BIG bookings, then the PDF worker on its queue (before the daily runs fill that queue).
  async function benchBigRun(): Promise<void> {
    await createPartner(admin, { partnerId: 'bench-fan-big', name: 'Bench', channelId: CHANNEL });
    const bigGroup = await createAgentGroup(admin, benchGroupInput('bench-fan-big-group', 'bench-fan-big', CHANNEL, 100_000_000_00));
    await putAll(db, table, [indexedGroup(bigGroup.agentGroupId, at), ...bookingItems(bigGroup, CHANNEL, 0, BIG, false, at)]);
    const { apiKey } = await issueKey(admin, { owner: { kind: 'agent-group', id: bigGroup.agentGroupId }, rateLimit: { perMinute: 1_000, burst: 100 } });
    const { handler: runBillingHandler } = (await import('../functions/invoices/run-billing.ts')) as {
      handler: (e: unknown, c: unknown) => Promise<{ statusCode: number; body: string }>;
    };
    const today = indiaToday(new Date());
    const { dynamoCalls, resetDynamoCalls } = await import('../infra/dynamo/client.ts');
    const traced = new DynamoRounds();
    traced.trace(Object.fromEntries(TRACED_PORTS.map((p) => [p, svc[p] as object])));
    resetDynamoCalls();
    traced.start();
    const t0 = performance.now();
    const answer = await runBillingHandler(httpEvent('POST', '/v1/invoices', { key: apiKey, body: JSON.stringify({ from: addDays(today, -60), to: today }) }), {
      ...lambdaContext,
      getRemainingTimeInMillis: () => 29_000,
    });
    const answeredMs = performance.now() - t0;
    let runCalls = dynamoCalls.total;
    let invoiceIds: readonly string[] = answer.statusCode === 200 ? ((JSON.parse(answer.body) as { invoiceIds: string[] }).invoiceIds ?? []) : [];
    if (answer.statusCode !== 200) {
      // Past the request budget the run goes on in this process, as in Lambda until the function's timeout: its record is its last write.
      let polls = 1;
      const lastRun = async () => (await traced.aside(() => svc.billingRuns.groupRuns(1, bigGroup.agentGroupId)))[0];
      let run = await lastRun();
      while (!run && performance.now() - t0 < 600_000) {
        await new Promise((r) => setTimeout(r, 500));
        polls += 1;
        run = await lastRun();
      }
      // The run's own calls: the bench's polls of the run record are one Query each.
      runCalls = dynamoCalls.total - polls;
      invoiceIds = run?.invoiceIds ?? [];
      // The run's last write is its record; its balance checkpoint may still be on its way.
      await new Promise((r) => setTimeout(r, 1_000));
      console.log(
        `the run behind the ${answer.statusCode} finished ${run ? seconds(performance.now() - t0) : 'not within 600 s'} after the request, ${invoiceIds.length} invoice(s), ${run?.linesWritten ?? 0} lines, ${runCalls} DynamoDB calls`,
      );
    }
    traced.stop();
    console.log(`the request's DynamoDB calls and rounds (calls each sent after the previous one answered) by port method:\n${roundsTable(traced.report())}`);
    const answered = answer.statusCode === 200 ? (JSON.parse(answer.body) as { linesWritten: number }) : undefined;
    const { PdfInvoiceRenderer } = await import('../infra/pdf/pdf-invoice-renderer.ts');
    const { storeQueuedPdf } = await import('../domain/invoicing/invoice-pdf.ts');
    const { decodePdfJob } = await import('../events/pdf-job-message.ts');
    // The two workers a handed-off run goes through, as their SQS triggers run them: the billing
    // worker continues the run (writes the rest of the lines, issues), then the PDF worker renders.
    // In Lambda they are separate functions; here they share one process, so the PDF worker starts
    // once the continuation has ended: a 10,000-line render holds the event loop for seconds at a
    // time, which would time out the continuation's DynamoDB calls in this process.
    let continued = 0;
    const billingWorker = startBillingWorker(1, (n) => (continued += n));
    const t1 = performance.now();
    const handedOff =
      answer.statusCode === 200 && (await Promise.all(invoiceIds.map((id) => svc.invoices.get(bigGroup.agentGroupId, id)))).some((i) => i?.status === 'DRAFT');
    let issuedMs = Number.POSITIVE_INFINITY;
    while (performance.now() - t1 < 300_000) {
      const now = await Promise.all(invoiceIds.map((id) => svc.invoices.get(bigGroup.agentGroupId, id)));
      if (invoiceIds.length && now.every((i) => i?.status === 'ISSUED')) {
        issuedMs = performance.now() - t1;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    while (handedOff && continued < 1 && performance.now() - t1 < 300_000) await new Promise((r) => setTimeout(r, 250));
    const continuedMs = performance.now() - t1;
    await billingWorker.stop();
    const pdfWorker = startEventSourceMapping({
      sqs,
      queueUrl: process.env.PDF_QUEUE_URL!,
      concurrency: 1,
      visibilitySeconds: VISIBILITY_SECONDS,
      invocationTimeoutMs: FUNCTION_TIMEOUT_MS,
      handler: concurrentRecords(
        'invoice PDF',
        () => pdfDeps(svc, new PdfInvoiceRenderer()),
        async (d, r) => void (await storeQueuedPdf(d, decodePdfJob(r.body)!)),
      ),
    });
    const t2 = performance.now();
    let storedMs = Number.POSITIVE_INFINITY;
    let invoices: Awaited<ReturnType<typeof svc.invoices.get>>[] = [];
    while (performance.now() - t2 < 300_000) {
      invoices = await Promise.all(invoiceIds.map((id) => svc.invoices.get(bigGroup.agentGroupId, id)));
      if (invoiceIds.length && invoices.every((i) => i?.pdfKey)) {
        storedMs = performance.now() - t2;
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    await pdfWorker.stop();
    const lines = invoices.reduce((n, i) => n + (i?.lineCount ?? 0), 0);
    const how =
      answered === undefined
        ? ''
        : handedOff
          ? `, DRAFT with ${answered.linesWritten} of its ${lines} lines written in the request, the rest handed to the billing worker`
          : ', ISSUED';
    console.log(
      `POST /v1/invoices for ${BIG} new bookings answers in ≤ 10 s | ${answer.statusCode}, ${seconds(answeredMs)}, ${invoiceIds.length} invoice(s)${how}, ${runCalls} DynamoDB calls (the request's, PDF not included) | ${verdict(answer.statusCode === 200 && answeredMs <= 10_000 && invoiceIds.length > 0)}`,
    );
    console.log(
      `its invoice issued (${lines} lines)${handedOff ? ' by the billing worker' : ''} | ${Number.isFinite(issuedMs) ? `${seconds(issuedMs)} after the answer${handedOff ? `; the continuation (marks, index, balances) ended ${seconds(continuedMs)} after it` : ''}` : 'not within 300 s'} | ${Number.isFinite(issuedMs) ? 'done' : 'missed'}`,
    );
    console.log(
      `its PDF (${lines} lines) stored by the PDF worker within 60 s (of the worker's start, once the invoice was issued and the run had ended) | ${Number.isFinite(storedMs) ? seconds(storedMs) : 'not within 300 s'} | ${verdict(storedMs <= 60_000)}`,
    );
  }

  // The daily run: GROUPS groups one after another, then GROUPS others through the queue with WORKERS workers.
  async function benchDailyRun(): Promise<void> {
    const s0 = performance.now();
    const [serialGroups, queuedGroups] = [await partnerGroups('bench-fan-serial', GROUPS), await partnerGroups('bench-fan-queued', GROUPS)];
    console.log(`set-up: 2 × ${GROUPS} groups with one unbilled booking each written in ${seconds(performance.now() - s0)}`);
    const deps = billingDeps(svc);
    const only = (partnerId: string) => ({ listAgentGroups: () => svc.tenants.listAgentGroups(partnerId) });
    resetDynamoCalls();
    const ca = cpuSeconds();
    const a0 = performance.now();
    const serial = await billAllGroups({ ...deps, tenants: only('bench-fan-serial') }, { trigger: 'ADMIN', concurrency: 1 });
    const serialMs = performance.now() - a0;
    const serialCpu = cpuSeconds() - ca;
    const serialCalls = dynamoCalls.total;
    const serialOnce = serial.every((o) => o.outcome === 'BILLED') && (await invoicesOf(serialGroups)).every((n) => n === 1);

    resetDynamoCalls();
    const cb = cpuSeconds();
    const b0 = performance.now();
    const run = await queueBillingRun({ ...deps, tenants: only('bench-fan-queued'), billingQueue: svc.billingQueue }, { trigger: 'ADMIN' });
    // Each worker is a container of its own (its own clients and stores, as separate Lambdas have),
    // taking BATCH messages per invocation as the billGroup function's trigger does. The workers
    // count what they finished, so the bench does not load the emulator with reads of the run
    // record while it measures: the record is read once the last group has been handled.
    let handled = 0;
    const workers = Array.from({ length: WORKERS }, () => startBillingWorker(BATCH, (n) => (handled += n)));
    let progress;
    do {
      while (handled < GROUPS) await new Promise((r) => setTimeout(r, 20));
      progress = await svc.billingRuns.progress(run.runId);
    } while (progress && progress.pending > 0);
    const queuedMs = performance.now() - b0;
    await Promise.all(workers.map((w) => w.stop()));
    const queuedCpu = cpuSeconds() - cb;
    const queuedCalls = dynamoCalls.total;
    const queuedOnce = progress?.billed === GROUPS && (await invoicesOf(queuedGroups)).every((n) => n === 1);
    const ratio = queuedMs / serialMs;
    console.log(
      `daily run over ${GROUPS} groups: one after another ${seconds(serialMs)} (${serial.filter((o) => o.outcome === 'BILLED').length} billed); queued, ${WORKERS} workers ${seconds(queuedMs)} (${progress?.billed} billed, ${progress?.failed} failed, ${workers.reduce((n, w) => n + w.invocations(), 0)} invocations of up to ${BATCH} messages)`,
    );
    const perGroup = (calls: number, cpu: number) =>
      `${(calls / GROUPS).toFixed(1)} DynamoDB calls and ${((cpu * 1000) / GROUPS).toFixed(0)} ms of CPU (bench and emulators) a group`;
    console.log(`one after another: ${perGroup(serialCalls, serialCpu)}; queued: ${perGroup(queuedCalls, queuedCpu)}`);
    // What the machine allows: the queued run's CPU spread over every core, against the serial wall time.
    const cores = availableParallelism();
    const busy = (cpu: number, ms: number) => `${(cpu / (ms / 1000)).toFixed(2)} cores`;
    console.log(
      `cores busy: one after another ${busy(serialCpu, serialMs)}, queued ${busy(queuedCpu, queuedMs)} of ${cores}; the queued run's CPU on all ${cores} cores at once needs ${seconds((queuedCpu * 1000) / cores)}, so no worker count does better than ${((queuedCpu * 1000) / cores / serialMs).toFixed(2)} × here`,
    );
    console.log(
      `daily run over ${GROUPS} small groups, every group billed exactly once, ${WORKERS} workers ≤ 0.35 × one after another | ${ratio.toFixed(2)} × | ${verdict(serialOnce && queuedOnce && ratio <= 0.35)}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchAlone(
    {
      table: 'pds-bench-billing-fan-out',
      invoiceBucket: true,
      extra: async (sqsEndpoint) => {
        const urls = await provisionQueues(sqsEndpoint, [pdfQueueName('test'), billingQueueName('test')], { visibilityTimeoutSeconds: VISIBILITY_SECONDS });
        return {
          AWS_CONNECT_TIMEOUT_MS: '10000',
          AWS_REQUEST_TIMEOUT_MS: '20000',
          AWS_MAX_ATTEMPTS: '3',
          PDF_QUEUE_URL: urls[pdfQueueName('test')]!,
          BILLING_QUEUE_URL: urls[billingQueueName('test')]!,
        };
      },
    },
    benchFanOut,
  );
}

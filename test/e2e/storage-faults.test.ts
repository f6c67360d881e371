import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBookingInvariants } from '../support/booking-invariant.ts';
import { guest, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { startFaultStack, type Faultable, type FaultStack } from '../support/fault-stack.ts';
import { call, newAgentGroup, uniqueId, type CallResult, type GroupFixture } from '../support/stack.ts';
import { fanOutKit } from '../support/fan-out-kit.ts';
import { seedInvoiceWorld } from '../support/invoice-world.ts';
import { pollUntil } from '../support/poll.ts';
import type { Invoice } from '../../domain/invoicing/invoice.ts';

/*
 * Storage faults under a steady trickle of reads and bookings, on a stack of this file's
 * own (test/support/fault-stack.ts) so no other test file sees the outage. DynamoDB Local
 * and fauxqs are each paused (SIGSTOP) and killed (SIGKILL, then started again on the same
 * port with their data). Every answer must be a 2xx or a clean 503 within 5 s; afterwards
 * the service answers again by itself, a booking refused with 503 can be retried, and the
 * group's bookings and ledger still agree.
 */
const ANSWER_WITHIN_MS = 5_000;
/** Bookable nights of the fixture (2027-03-05 is a stop-sell), 100 units each: the trickle spreads over them. */
const NIGHTS = ['2027-03-01', '2027-03-02', '2027-03-03', '2027-03-04', '2027-03-06', '2027-03-07', '2027-03-08', '2027-03-09'];
const night = (n: number) => {
  const from = NIGHTS[n % NIGHTS.length]!;
  const to = new Date(Date.parse(from) + 86_400_000).toISOString().slice(0, 10);
  return [from, to] as const;
};
const TICK_MS = 250;

interface Answer {
  readonly phase: string;
  readonly what: string;
  readonly status: number;
  readonly ms: number;
  readonly problem: string | null;
}

let stack: FaultStack;
let world: BookingWorld;

beforeAll(async () => {
  stack = await startFaultStack();
  world = await seedBookingWorld({}, stack.svc);
  // Its offline bundles every function again: on two loaded cores that has taken over four minutes.
}, 600_000);

afterAll(async () => {
  for (const emulator of [stack?.dynamo, stack?.queues]) emulator?.resume();
  await stack?.stop();
}, 60_000);

const send = (method: string, path: string, key: string, body?: unknown) =>
  call(method, path, { key, body, baseUrl: stack.baseUrl, signal: AbortSignal.timeout(20_000) }).catch(
    (err: Error): CallResult => ({ status: 0, headers: new Headers(), text: String(err.message), body: undefined }),
  );

/** Null when the answer is a 2xx or a 503 in the error shape with code SERVICE_UNAVAILABLE and Retry-After; else what is wrong. */
function problemWith(res: CallResult<any>, ms: number): string | null {
  if (ms > ANSWER_WITHIN_MS) return `answered after ${ms} ms`;
  if (res.status >= 200 && res.status < 300) return null;
  if (res.status !== 503) return `status ${res.status}: ${res.text.slice(0, 300)}`;
  const b = res.body;
  if (b?.code !== 'SERVICE_UNAVAILABLE' || b.status !== 503 || typeof b.message !== 'string' || typeof b.timestamp !== 'string' || typeof b.path !== 'string')
    return `503 body ${res.text.slice(0, 300)}`;
  if (!/^\d+$/.test(res.headers.get('retry-after') ?? '')) return '503 without Retry-After';
  return null;
}

/** Fires one read or one order-then-booking every TICK_MS until stopped, recording each answer. */
function trickle(group: GroupFixture, listingId: string) {
  const answers: Answer[] = [];
  const refusedBookings: unknown[] = [];
  const inFlight = new Set<Promise<void>>();
  let phase = 'before';
  let tick = 0;
  const timed = async (what: string, run: () => Promise<CallResult<any>>) => {
    const started = performance.now();
    const res = await run();
    const ms = Math.round(performance.now() - started);
    answers.push({ phase, what, status: res.status, ms, problem: problemWith(res, ms) });
    return res;
  };
  const once = async (n: number) => {
    if (n % 2 === 0) {
      await timed('GET /v1/ledger', () => send('GET', '/v1/ledger', group.apiKey));
      return;
    }
    const order = await timed('POST /v1/orders', () => send('POST', '/v1/orders', group.apiKey, stay(listingId, ...night(n))));
    if (order.status !== 200) return;
    const body = { orderId: order.body.orderId, externalBookingId: uniqueId('ext'), acceptedTotal: order.body.summary.grandTotal, primaryGuest: guest };
    const booked = await timed('POST /v1/bookings', () => send('POST', '/v1/bookings', group.apiKey, body));
    if (booked.status === 503) refusedBookings.push(body);
  };
  const timer = setInterval(() => {
    const p = once(tick++).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }, TICK_MS);
  return {
    answers,
    refusedBookings,
    set phase(name: string) {
      phase = name;
    },
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}

const pauseFor = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a phase may wait for the answer it needs before the test calls it a stall: far above any healthy answer. */
const STALL_MS = 60_000;
type Seen = (answers: readonly Answer[]) => boolean;
/** Some answer was recorded in this phase. */
const anyAnswerIn =
  (phase: string): Seen =>
  (answers) =>
    answers.some((a) => a.phase === phase);

/**
 * Holds a phase for at least `minMs` (what the fault needs to bite: longer than a request's 5 s
 * budget when paused) and until `seen` holds, so the verdict never rests on how fast this
 * machine answers; a phase that cannot get its answer within STALL_MS fails by name.
 */
async function holdPhase(t: ReturnType<typeof trickle>, phase: string, minMs: number, seen: Seen) {
  const started = Date.now();
  await pauseFor(minMs);
  while (!seen(t.answers)) {
    if (Date.now() - started > STALL_MS) throw new Error(`phase ${phase}: no answer it needs within ${STALL_MS} ms\n${JSON.stringify(summary(t.answers))}`);
    await pauseFor(100);
  }
}

/** Pause, resume, kill, restart: the trickle runs throughout; returns once the service answers 2xx again by itself. */
async function faultSequence(emulator: Faultable, t: ReturnType<typeof trickle>, group: GroupFixture, listingId: string, pausedSeen: Seen) {
  t.phase = 'healthy';
  await holdPhase(t, 'healthy', 0, (answers) => answers.some((a) => a.phase === 'healthy' && a.status >= 200 && a.status < 300));
  t.phase = 'paused';
  emulator.pause();
  await holdPhase(t, 'paused', 7_000, pausedSeen);
  emulator.resume();
  t.phase = 'resumed';
  await holdPhase(t, 'resumed', 3_000, anyAnswerIn('resumed'));
  t.phase = 'killed';
  await emulator.kill();
  await holdPhase(t, 'killed', 4_000, anyAnswerIn('killed'));
  t.phase = 'restarting';
  await emulator.restart();
  t.phase = 'restarted';
  // Recovery by itself: nothing is told storage is back; a read and a booking succeed within a minute.
  const deadline = Date.now() + 60_000;
  for (let n = 0; ; n++) {
    const read = await send('GET', '/v1/ledger', group.apiKey);
    const order = await send('POST', '/v1/orders', group.apiKey, stay(listingId, ...night(n)));
    const booked =
      order.status === 200
        ? await send('POST', '/v1/bookings', group.apiKey, {
            orderId: order.body.orderId,
            externalBookingId: uniqueId('ext'),
            acceptedTotal: order.body.summary.grandTotal,
            primaryGuest: guest,
          })
        : order;
    if (read.status === 200 && [200, 202].includes(booked.status)) break;
    if (Date.now() > deadline) {
      throw new Error(
        `not recovered a minute after the restart: read ${read.status}, booking ${booked.status} ${booked.text.slice(0, 200)}\n--- offline ---\n${stack.offlineLog()}`,
      );
    }
    await pauseFor(500);
  }
  await pauseFor(2_000);
  await t.stop();
}

function summary(answers: readonly Answer[]) {
  const byPhase: Record<string, { ok: number; unavailable: number; other: number; maxMs: number }> = {};
  for (const a of answers) {
    const row = (byPhase[a.phase] ??= { ok: 0, unavailable: 0, other: 0, maxMs: 0 });
    if (a.status >= 200 && a.status < 300) row.ok += 1;
    else if (a.status === 503) row.unavailable += 1;
    else row.other += 1;
    row.maxMs = Math.max(row.maxMs, a.ms);
  }
  return byPhase;
}

async function expectAfterTheFaults(name: string, t: ReturnType<typeof trickle>, group: GroupFixture) {
  const byPhase = summary(t.answers);
  console.info(`${name} faults: ${JSON.stringify(byPhase)}`);
  const problems = t.answers.filter((a) => a.problem !== null);
  const unhandled = stack
    .offlineLog()
    .split('\n')
    .filter((line) => line.includes('unhandled error'));
  expect(problems, unhandled.join('\n').slice(-4000)).toEqual([]);
  // A refused booking is safe to send again: it is created now, or found already made.
  for (const body of t.refusedBookings) {
    const again = await send('POST', '/v1/bookings', group.apiKey, body);
    expect([200, 202], again.text).toContain(again.status);
  }
  await assertBookingInvariants(group.agentGroupId, stack.svc);
  return byPhase;
}

describe('Storage faults under a trickle of reads and bookings', () => {
  it('answers 2xx or a clean 503 within 5 s while DynamoDB Local is paused and killed, then recovers by itself', async () => {
    const group = await newAgentGroup({ channelId: world.channelId, creditLimit: 100_000_000_00 }, stack.svc);
    const t = trickle(group, world.instant);

    await faultSequence(stack.dynamo, t, group, world.instant, (answers) => answers.some((a) => a.phase === 'paused' && a.status === 503));

    const byPhase = await expectAfterTheFaults('DynamoDB', t, group);
    // The pause and the crash really reached requests: some were refused, none hung.
    expect(byPhase.paused!.unavailable + byPhase.killed!.unavailable).toBeGreaterThan(0);
    expect(byPhase.healthy!.ok).toBeGreaterThan(0);
  }, 420_000);

  it('answers 2xx or a clean 503 within 5 s while the SQS/S3 emulator is paused and killed, then recovers by itself', async () => {
    // The slow listing answers 202 and leaves its workflow to the queue, so bookings need SQS.
    const group = await newAgentGroup({ channelId: world.channelId, creditLimit: 100_000_000_00 }, stack.svc);
    const t = trickle(group, world.slow);

    await faultSequence(stack.queues, t, group, world.slow, anyAnswerIn('paused'));

    const byPhase = await expectAfterTheFaults('fauxqs', t, group);
    expect(byPhase.healthy!.ok).toBeGreaterThan(0);
  }, 420_000);
});

describe('The daily billing run fanned out, under faults', () => {
  it('bills every group once in the end though a worker dies mid-group, a group keeps throwing and DynamoDB Local is paused; failures show in the run record and the dead-letter queue', async () => {
    // prepare: five groups with a booking each on this stack; billing workers run the worker's handler against its emulators
    const invoiceWorld = await seedInvoiceWorld({}, stack.svc);
    const kit = await fanOutKit({ env: stack.env, baseUrl: stack.baseUrl, channelId: invoiceWorld.channelId, svc: stack.svc, maxReceiveCount: 5 });
    try {
      const groups = [];
      for (let i = 0; i < 5; i++) {
        const g = await kit.newGroup();
        await kit.bookOne(g, invoiceWorld.registered, `2027-03-0${i + 1 === 5 ? 6 : i + 1}`);
        groups.push(g);
      }
      const [, dying, throwing] = groups as [GroupFixture, GroupFixture, GroupFixture];
      // The throwing group's lock is held by a run elsewhere for a month: its run throws on every delivery.
      await stack.svc.billingControl.acquireLock(
        throwing.agentGroupId,
        'elsewhere',
        new Date().toISOString(),
        new Date(Date.now() + 60 * 86_400_000).toISOString(),
      );
      // The dying group's first run stops for good once its invoice is issued, before its PDF is asked for, the run saved
      // or its outcome recorded, as a worker killed there would: it never deletes its message and holds the group's lock.
      const base = kit.workerDeps;
      let died: (issued: Invoice) => void = () => undefined;
      const diedAt = new Promise<Invoice>((resolve) => (died = resolve));
      let dead = false;
      let kill: (err: Error) => void = () => undefined;
      // The killed run's lease (5 minutes) runs out at once, so a redelivery finishes that group.
      void diedAt.then(() => kit.advanceClock(301_000));
      kit.workerDeps = {
        ...base,
        pdfs: {
          request: (invoice) => {
            if (invoice.agentGroupId !== dying.agentGroupId || dead) return base.pdfs.request(invoice);
            dead = true;
            died(invoice);
            return new Promise<never>((_, reject) => (kill = reject));
          },
        },
      };

      // act: the run queued, four workers, DynamoDB Local paused while they work until they have failed a few messages
      const run = await kit.queueRun();
      // One message per invocation here: the killed worker is a run that never returns, which in a batch would also hold
      // back its neighbours' results (in Lambda the whole batch would come back after the queue's visibility timeout, minutes).
      // The killed worker's invocation ends at a 15 s function timeout (Lambda's end of a run that never answers); its message then returns.
      const workers = kit.startWorkers(4, 1, 15_000);
      stack.dynamo.pause();
      try {
        const at = workers.invocations();
        await pollUntil('workers meeting the paused table', async () => (workers.invocations() >= at + 3 ? true : undefined), { tries: 120 });
      } finally {
        stack.dynamo.resume();
      }
      const issued = await diedAt;
      const settled = await kit.waitFor(
        run.runId,
        'every group but the throwing one billed, that one dead-lettered',
        (p) => p.billed === 4 && p.failures.some((f) => f.attempts >= 5),
      );
      const deadLettered = await pollUntil('the dead-lettered message', async () => {
        const bodies = await kit.dlqBodies();
        return bodies.length ? bodies : undefined;
      });

      // assess: the failure is visible in the run record and the dead-letter queue
      expect(settled).toMatchObject({ enqueued: 5, billed: 4, failed: 1, pending: 0 });
      expect(settled.failures.map((f) => f.agentGroupId)).toEqual([throwing.agentGroupId]);
      expect(deadLettered.map((b) => JSON.parse(b).agentGroupId)).toEqual([throwing.agentGroupId]);

      // act: the operator frees the lock and redrives the dead-lettered message
      await stack.svc.billingControl.releaseLock(throwing.agentGroupId, 'elsewhere');
      expect(await kit.redrive()).toBe(1);
      const finished = await kit.waitFor(run.runId, 'all five billed', (p) => p.billed === 5);

      // assess: one invoice per group, the same total each; the killed run's invoice is the one that stands, its PDF asked for again
      expect(finished).toMatchObject({ billed: 5, failed: 0, pending: 0 });
      const invoiced = await Promise.all(groups.map((g) => kit.invoicedOf(g)));
      expect(invoiced.map((x) => x.invoices)).toEqual([1, 1, 1, 1, 1]);
      expect(new Set(invoiced.map((x) => x.total)).size).toBe(1);
      const standing = (await stack.svc.invoices.list(dying.agentGroupId, { statuses: ['ISSUED', 'PAID'], limit: 5 })).invoices;
      expect(standing.map((i) => i.id)).toEqual([issued.id]);
      // The dead worker's lane is freed so the workers can stop.
      kill(new Error('worker killed'));
      await workers.stop();
    } finally {
      kit.stop();
    }
  }, 300_000);
});

import { partnerOrigin, operatorOrigin } from '../domain/audit/audit-event.ts';
import { bookingAudit } from '../domain/bookings/booking-audit.ts';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { addDays } from '../domain/catalogue/calendar.ts';
import { NO_STEPS_DONE, type Booking } from '../domain/bookings/booking.ts';
import { bookingCode } from '../domain/bookings/place-booking.ts';
import { callbackOutcome, decide, type WorkflowTimings } from '../domain/bookings/workflow.ts';
import { publishBookingCallback } from '../domain/deliveries/publish-booking-callback.ts';
import { authorizedEntry, exposureOf } from '../domain/ledger/ledger.ts';
import { toRupees, type Minor } from '../domain/money.ts';
import { loadPricingContext } from '../domain/orders/load-pricing-context.ts';
import type { Order } from '../domain/orders/order.ts';
import { indiaToday } from '../domain/reads/date-window.ts';
import type { Services } from '../infra/container.ts';
import { dynamoCalls, resetDynamoCalls } from '../infra/dynamo/client.ts';
import { bookingQueueName, provisionQueues, webhookQueueName } from '../scripts/local-stack.ts';
import { benchAgentGroup, benchWorld } from './bench-world.ts';
import { httpEvent, lambdaContext, measure, type Summary } from './harness.ts';
import { benchAlone } from './standalone.ts';
import { seeding } from './seeding.ts';

/**
 * POST /v1/bookings in-process: the synchronous path (a listing that confirms at once)
 * beside its bare-storage floor, and one agent group's bookings/second under contention on
 * its credit gate. BENCH_BOOKINGS=0 skips it in `npm run bench`; `npx tsx bench/booking-bench.ts`
 * runs it alone on its own DynamoDB Local and fauxqs.
 */
export const bookingBenchEnabled = process.env.BENCH_BOOKINGS !== '0';
const CONCURRENCY = Number(process.env.BENCH_BOOKING_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.BENCH_BOOKING_SECONDS ?? 10);
/** Upper bound on orders created for the contention run (creating them is outside the measured time but not free). */
const MAX_POOL = Number(process.env.BENCH_BOOKING_MAX_ORDERS ?? 10_000);

const CHANNEL = 'bench-bookings';
const LISTINGS = 8;
const PROPERTIES = 2;
const DAYS = 180;
/** At most 1,000 in a world file; with one unit a booking, no night sells out in a run. */
const UNITS = 1_000;
const GST = {
  slabTables: [
    {
      effectiveFrom: '2025-09-22',
      slabs: [
        { upToPerUnitNight: 7_500, ratePercent: 5 },
        { upToPerUnitNight: null, ratePercent: 18 },
      ],
    },
  ],
};
const GUEST = { firstName: 'Asha', lastName: 'Rao', email: 'asha.rao@example.com', phone: '+91 98200 12345' };
const CALLBACK_URL = 'https://93.184.216.34/cb';

const fmt = (s: Summary): string => `median ${s.median.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, ${s.calls} DynamoDB calls (${s.runs} runs)`;

/**
 * The queues a booking needs: one that goes PROCESSING queues a check on the booking queue,
 * and a callback is queued on the webhook queue. Their URLs go into the environment before
 * the services are built.
 */
export async function bookingQueueEnv(sqsEndpoint: string, stage: string): Promise<Record<string, string>> {
  const urls = await provisionQueues(sqsEndpoint, [bookingQueueName(stage), webhookQueueName(stage)]);
  return { BOOKING_QUEUE_URL: urls[bookingQueueName(stage)]!, WEBHOOK_QUEUE_URL: urls[webhookQueueName(stage)]! };
}

type Handler = (e: unknown, c: unknown) => Promise<{ statusCode: number }>;
interface Stock {
  readonly order: Order;
  readonly total: Minor;
}

const opCounts = (): Record<string, number> => ({ ...dynamoCalls.byOperation });
const opsLine = (ops: Record<string, number>, per = 1): string =>
  Object.entries(ops)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, n]) => `${op.replace(/Command$/, '')} ${Number.isInteger(n / per) ? n / per : (n / per).toFixed(2)}`)
    .join(', ');

export async function benchBookings(svc: Services, runs: number): Promise<void> {
  const { adminDeps, callbackDeps, orderDeps } = await import('../infra/container.ts');
  const { createPartner, updateAgentGroup } = await import('../domain/admin.ts');
  const { importWorld } = await import('../domain/world/import-world.ts');
  const { createOrder } = await import('../domain/orders/manage-orders.ts');
  const { sha256Hex } = await import('../infra/crypto/api-keys.ts');
  const { handler } = (await import('../functions/bookings/create-booking.ts')) as unknown as { handler: Handler };
  const seed = await seeding(svc);
  const deps = adminDeps(seed, operatorOrigin('bench', 'seed'));

  // Stays start a week out so the bench keeps working whatever the date.
  const from = addDays(indiaToday(new Date()), 7);
  // Pricing needs GST slabs; `npm run bench` has imported them already for its order cases.
  const gst = (await svc.catalogue.listGstSlabTables()).length > 0 ? {} : { gst: GST };
  const t0 = performance.now();
  await importWorld(
    { ...deps, catalogue: seed.catalogue },
    { ...benchWorld({ channelId: CHANNEL, listings: LISTINGS, from, days: DAYS, idPrefix: 'bkbench-l', units: UNITS }), ...gst },
    { allowPlaintextKeys: true },
  );
  console.log(
    `\nbooking world imported: ${LISTINGS} listings × ${PROPERTIES} properties × ${DAYS} days, ${UNITS} units a night, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  await createPartner(deps, { partnerId: 'bench-bookings-partner', name: 'Booking bench', channelId: CHANNEL });

  const groupOn = async (agentGroupId: string, creditLimit: Minor) => {
    return benchAgentGroup(deps, agentGroupId, 'bench-bookings-partner', CHANNEL, creditLimit);
  };
  type Group = Awaited<ReturnType<typeof groupOn>>;

  /**
   * One-night, one-unit orders. Consecutive orders land on different properties (16 in
   * turn) before moving to the next night, so N concurrent bookings touch N different
   * property months: the contention measured is the group's credit counter, not inventory.
   */
  const createOrders = async (group: Group, count: number, offset: number): Promise<Stock[]> => {
    const out: Stock[] = new Array(count);
    let next = 0;
    const lane = async () => {
      while (next < count) {
        const i = next++;
        const slot = offset + i;
        const listingId = `bkbench-l${String(slot % LISTINGS).padStart(5, '0')}`;
        const propertyId = `${listingId}-p${1 + (Math.floor(slot / LISTINGS) % PROPERTIES)}`;
        const checkIn = addDays(from, Math.floor(slot / (LISTINGS * PROPERTIES)) % (DAYS - 1));
        const order = await createOrder(orderDeps(svc), group.principal, {
          request: { listingId, checkIn, checkOut: addDays(checkIn, 1), adults: 2, selectedProperties: [{ propertyId, quantity: 1 }] },
        });
        out[i] = { order, total: order.pricing.summary.grandTotal };
      }
    };
    await Promise.all(Array.from({ length: 16 }, lane));
    return out;
  };

  const bookingEvent = (group: Group, s: Stock, extra: Record<string, unknown> = {}) =>
    httpEvent('POST', '/v1/bookings', {
      key: group.apiKey,
      body: JSON.stringify({ orderId: s.order.orderId, externalBookingId: randomUUID(), acceptedTotal: toRupees(s.total), primaryGuest: GUEST, ...extra }),
    });

  // ── 1. The synchronous path, one request at a time. ──
  const sync = await groupOn('bench-bookings-sync', 1_000_000_000_00);
  const warmup = 3;
  // Per variant: handler and floor, each warmup + runs measured and one for its breakdown; plus
  // the floor's template booking and the lone booking the contention figures compare with.
  const syncStock = await createOrders(sync, 2 * 2 * (warmup + runs + 1) + 2, 0);
  let taken = 0;
  const nextStock = (): Stock => {
    const s = syncStock[taken++];
    if (!s) throw new Error('booking bench: sync order pool exhausted');
    return s;
  };

  // A real booking, read back: the floor writes bookings of the same shape and size.
  const templateExt = randomUUID();
  const first = nextStock();
  const firstStatus = (
    await handler(
      httpEvent('POST', '/v1/bookings', {
        key: sync.apiKey,
        body: JSON.stringify({ orderId: first.order.orderId, externalBookingId: templateExt, acceptedTotal: toRupees(first.total), primaryGuest: GUEST }),
      }),
      lambdaContext,
    )
  ).statusCode;
  if (firstStatus !== 200) throw new Error(`booking bench: the first booking answered ${firstStatus}`);
  const claim = await svc.bookings.findClaim(sync.agentGroupId, templateExt);
  const template = (await svc.bookings.get(sync.agentGroupId, claim!.bookingRef))!;
  if (template.status !== 'CONFIRMED') throw new Error(`booking bench: the first booking is ${template.status}, not CONFIRMED`);

  const timings: WorkflowTimings = { windowSeconds: svc.config.booking.windowSeconds, watchSeconds: svc.config.booking.watchSeconds };
  const publishDeps = callbackDeps(svc);
  const groupAuthFloor = async (apiKey: string) => {
    const k = await svc.tenants.findKeyByHash(sha256Hex(apiKey));
    await Promise.all([svc.tenants.getAgentGroup(k!.owner.id), svc.rateLimiter.consume(k!.keyId, k!.rateLimit!, Date.now())]);
  };

  /**
   * The floor: the same storage work as the handler, issued through the adapters with no
   * HTTP parsing, no pricing arithmetic and no reply JSON. It includes the key, group and
   * rate-limit token; the claim Get; the order Get; the pricing context's reads
   * (loadPricingContext: listing ∥ offers ∥ GST slabs, then one BatchGet); the gate
   * (bookings.open: BatchGet + TransactWrite); the
   * simulator's reserve; the landing and inventory updates (bookings.update with the effects
   * advanceBooking uses, its next states from the workflow's pure `decide`); and, with a
   * callbackUrl, the publish (delivery Put + SQS send) and the step recording it. The booking
   * is the first real one with its identity, order and stay replaced, so the items written are
   * the same size; its price is not recomputed (every bench night has the same rates). For a
   * group at its limit the gate's read refuses and the floor stops there, as the handler does.
   */
  const floor =
    (callbackUrl: string | null, group = sync, stock = nextStock) =>
    async () => {
      const s = stock();
      const g = group.agentGroupId;
      const ext = randomUUID();
      await groupAuthFloor(group.apiKey);
      await svc.bookings.findClaim(g, ext);
      const order = (await svc.orders.get(g, s.order.orderId))!;
      const { listingId, checkIn, checkOut, selectedProperties } = order.request;
      // The loader itself: its reads are the floor's; putting the days in maps costs next to nothing.
      await loadPricingContext({ catalogue: svc.catalogue, clock: svc.clock }, group.principal, order.request);

      const now = new Date();
      const at = now.toISOString();
      const bookingRef = randomUUID();
      const entry = authorizedEntry(
        { agentGroupId: g, type: 'CHARGE', amount: template.amount, externalBookingId: ext, description: `Booking ${bookingCode(bookingRef)}: ${listingId}` },
        randomUUID(),
        now,
      );
      const windowEnd = new Date(now.getTime() + timings.windowSeconds * 1000);
      const opened: Booking = {
        ...template,
        bookingRef,
        code: bookingCode(bookingRef),
        externalBookingId: ext,
        orderId: order.orderId,
        status: 'PROCESSING',
        bookingId: null,
        listingId,
        checkIn,
        checkOut,
        selectedProperties: selectedProperties!.map((p) => ({ propertyId: p.propertyId, quantity: p.quantity })),
        ledgerEntryId: entry.id,
        callbackUrl,
        deadline: windowEnd.toISOString(),
        watchUntil: new Date(windowEnd.getTime() + timings.watchSeconds * 1000).toISOString(),
        steps: NO_STEPS_DONE,
        confirmedAt: null,
        nextCheckAt: at,
        createdAt: at,
        updatedAt: at,
        version: 1,
      };
      const gate = await svc.bookings
        .open(
          opened,
          entry,
          { externalBookingId: ext, contentHash: sha256Hex(ext), bookingRef },
          bookingAudit(partnerOrigin('bench-key', randomUUID()), randomUUID(), at, 'booking.created', null, opened),
        )
        .catch((err: Error) => err);
      // A group at its limit: the gate's read refused it and nothing more happens (the refusal row).
      if (gate instanceof Error) {
        if (gate.name === 'CreditDeniedError') return;
        throw gate;
      }

      let b = opened;
      const reservation = await svc.propertySystem.reserve({
        bookingRef,
        listingId,
        checkIn,
        checkOut,
        selectedProperties: b.selectedProperties,
        primaryGuest: b.primaryGuest,
        requestedAt: b.createdAt,
      });
      for (const look of [reservation, undefined]) {
        const d = decide(b, new Date().toISOString(), timings, look);
        if (d.kind !== 'write' || !(await svc.bookings.update(b, d.next, d.effect))) throw new Error(`booking bench floor: unexpected ${d.kind}`);
        b = d.next;
      }
      if (callbackUrl) {
        const when = new Date().toISOString();
        await publishBookingCallback(publishDeps, callbackOutcome(b, 'booking.confirmed', randomUUID(), when));
        const next: Booking = {
          ...b,
          steps: { ...b.steps, callbacksPublished: ['booking.confirmed'] },
          nextCheckAt: null,
          updatedAt: when,
          version: b.version + 1,
        };
        if (!(await svc.bookings.update(b, next))) throw new Error('booking bench floor: callback step not written');
      }
    };

  const rows: { case: string; handler: Summary; floor: Summary; ops: string; floorOps: string }[] = [];
  for (const callbackUrl of [null, CALLBACK_URL]) {
    const extra = callbackUrl ? { callbackUrl } : {};
    // One unmeasured request of each kind for its per-operation breakdown.
    resetDynamoCalls();
    await handler(bookingEvent(sync, nextStock(), extra), lambdaContext);
    const ops = opsLine(opCounts());
    resetDynamoCalls();
    await floor(callbackUrl)();
    const floorOps = opsLine(opCounts());
    rows.push({
      case: callbackUrl
        ? 'POST /v1/bookings sync, confirms at once, with callbackUrl (callback queued)'
        : 'POST /v1/bookings sync, confirms at once, no callbackUrl',
      handler: await measure(async () => (await handler(bookingEvent(sync, nextStock(), extra), lambdaContext)).statusCode, runs, warmup),
      floor: await measure(floor(callbackUrl), runs, warmup),
      ops,
      floorOps,
    });
  }
  // The figures for a booking that answered 200 alone, to tell retries apart under contention.
  resetDynamoCalls();
  await handler(bookingEvent(sync, nextStock()), lambdaContext);
  const perBooking = opCounts();

  // ── 2. One group, CONCURRENCY clients, SECONDS seconds. ──
  interface Outcome {
    readonly label: string;
    readonly elapsed: number;
    readonly requests: number;
    readonly statuses: Map<string, number>;
    readonly latency: Summary;
    /** Latency of each answer apart: a refusal's own cost, not the mix's. */
    readonly latencyByStatus: Map<string, Summary>;
    readonly ops: Record<string, number>;
    readonly exhausted: boolean;
  }
  const hammer = async (label: string, group: Group, stock: Stock[], cycle: boolean, seconds = SECONDS): Promise<Outcome> => {
    const statuses = new Map<string, number>();
    const ms: number[] = [];
    const msByStatus = new Map<string, number[]>();
    let next = 0;
    let exhausted = false;
    resetDynamoCalls();
    const t = performance.now();
    const deadline = t + seconds * 1000;
    const client = async () => {
      while (performance.now() < deadline) {
        const i = next++;
        if (i >= stock.length && !cycle) {
          exhausted = true;
          return;
        }
        const s = stock[i % stock.length]!;
        const t1 = performance.now();
        const status = await handler(bookingEvent(group, s), lambdaContext).then(
          (r) => String(r.statusCode),
          (err: Error) => `threw ${err.name}`,
        );
        const took = performance.now() - t1;
        ms.push(took);
        if (!msByStatus.has(status)) msByStatus.set(status, []);
        msByStatus.get(status)!.push(took);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    const elapsed = (performance.now() - t) / 1000;
    const ops = opCounts();
    const summary = (xs: number[]): Summary => {
      const sorted = [...xs].sort((a, b) => a - b);
      const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
      return { median: pct(50), p95: pct(95), p99: pct(99), calls: 0, runs: sorted.length };
    };
    const latencyByStatus = new Map([...msByStatus.entries()].map(([status, xs]) => [status, summary(xs)]));
    return { label, elapsed, requests: ms.length, statuses, latency: summary(ms), latencyByStatus, ops, exhausted };
  };

  // ₹100 crore: far more than any run books, so no request of this group is refused.
  const ampleLimit = 1_000_000_000_00;
  const big = await groupOn('bench-bookings-ample', ampleLimit);
  // How many orders the run needs depends on the throughput it measures: an unmeasured
  // one-second burst over a small pool (which also warms the concurrent path) sizes the pool
  // to half as much again as that rate would book; too few shows as "order pool exhausted".
  const t2 = performance.now();
  const probeStock = await createOrders(big, CONCURRENCY * 4, 0);
  const probe = await hammer('probe', big, probeStock, false, 1);
  const probeRate = (probe.statuses.get('200') ?? 0) / probe.elapsed;
  const poolSize = Math.min(MAX_POOL, Math.ceil(probeRate * SECONDS * 1.5) + CONCURRENCY);
  const bigStock = await createOrders(big, poolSize, probeStock.length);
  console.log(
    `contention: probe ${probeRate.toFixed(1)} bookings/s, ${probeStock.length + poolSize} orders created in ${((performance.now() - t2) / 1000).toFixed(1)} s (outside the measured time)`,
  );

  // A limit of ten bookings and a half: the first ten are admitted, then every request is refused.
  const tight = await groupOn('bench-bookings-tight', 0);
  const tightStock = await createOrders(tight, Math.max(CONCURRENCY * 4, 64), probeStock.length + poolSize);
  const tightLimit = tightStock[0]!.total * 10 + Math.floor(tightStock[0]!.total / 2);
  await updateAgentGroup(deps, tight.agentGroupId, { creditLimit: tightLimit });

  const outcomes: { outcome: Outcome; group: Group; limit: Minor }[] = [];
  outcomes.push({
    outcome: await hammer(`ample limit (${toRupees(ampleLimit).toLocaleString('en-IN')} ₹)`, big, bigStock, false),
    group: big,
    limit: ampleLimit,
  });
  outcomes.push({
    outcome: await hammer(`tight limit (10.5 bookings, ${toRupees(tightLimit).toLocaleString('en-IN')} ₹)`, tight, tightStock, true),
    group: tight,
    limit: tightLimit,
  });

  // A refusal alone, once the tight group is full: its per-operation figures, then its latency beside its floor.
  resetDynamoCalls();
  const refusedStatus = (await handler(bookingEvent(tight, tightStock[0]!), lambdaContext)).statusCode;
  const perRefusal = refusedStatus === 402 ? opCounts() : {};
  let cycled = 0;
  const tightNext = () => tightStock[cycled++ % tightStock.length]!;
  const refuse = async () => {
    const status = (await handler(bookingEvent(tight, tightNext()), lambdaContext)).statusCode;
    if (status !== 402) throw new Error(`booking bench: a refusal answered ${status}`);
  };
  resetDynamoCalls();
  await floor(null, tight, tightNext)();
  const refusalFloorOps = opsLine(opCounts());
  rows.push({
    case: 'POST /v1/bookings refused 402 (group at its limit), alone',
    handler: await measure(refuse, runs, warmup),
    floor: await measure(floor(null, tight, tightNext), runs, warmup),
    ops: opsLine(perRefusal),
    floorOps: refusalFloorOps,
  });

  console.log(`\nbooking case | handler (in-process, with auth) | bare-storage floor`);
  console.log('--- | --- | ---');
  for (const r of rows) console.log(`${r.case} | ${fmt(r.handler)} | ${fmt(r.floor)}`);
  console.log('\nper-operation DynamoDB calls of one request:');
  for (const r of rows) console.log(`  ${r.case}\n    handler: ${r.ops}\n    floor:   ${r.floorOps}`);

  console.log(`\ncontention (${CONCURRENCY} clients, ${SECONDS} s, one group) | bookings/s (200s) | answers (latency of each) | latency | DynamoDB calls`);
  console.log('--- | --- | --- | --- | ---');
  for (const { outcome: o } of outcomes) {
    const ok = o.statuses.get('200') ?? 0;
    const statuses = [...o.statuses.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}×${n} (median ${o.latencyByStatus.get(s)!.median.toFixed(0)} ms, p99 ${o.latencyByStatus.get(s)!.p99.toFixed(0)} ms)`)
      .join(', ');
    const total = Object.values(o.ops).reduce((a, b) => a + b, 0);
    console.log(
      `${o.label} | ${(ok / o.elapsed).toFixed(1)} (${(o.requests / o.elapsed).toFixed(1)} requests/s over ${o.elapsed.toFixed(1)} s${o.exhausted ? ', order pool exhausted' : ''}) | ${statuses} | all: median ${o.latency.median.toFixed(1)} ms, p99 ${o.latency.p99.toFixed(1)} ms | ${(total / Math.max(1, o.requests)).toFixed(1)} a request`,
    );
  }
  console.log(`  one request alone: a 200 ${opsLine(perBooking)}; a 402 ${opsLine(perRefusal)}`);
  // The gate is the only BatchGetItem a request repeats on contention (one per attempt); the
  // BatchGets beyond what lone 200s and lone 402s issue are its retries. Other calls beyond the
  // lone figures are retried landing/inventory transactions and SDK retries.
  for (const { outcome: o } of outcomes) {
    const ok = o.statuses.get('200') ?? 0;
    const refused = o.statuses.get('402') ?? 0;
    const other = o.requests - ok - refused;
    const expected = (op: string) => ok * (perBooking[op] ?? 0) + refused * (perRefusal[op] ?? 0);
    const extra = (op: string) => (o.ops[op] ?? 0) - expected(op);
    console.log(
      `  ${o.label}: gate retries ≈ ${extra('BatchGetItemCommand')} (BatchGetItem beyond lone requests), TransactWriteItems beyond lone requests ${extra('TransactWriteItemsCommand')}` +
        `${other ? ` (${other} other answers make these rough)` : ''}`,
    );
  }

  // The gate's invariant after the run: the counter is the sum of the counting entries, within the limit.
  for (const { outcome: o, group, limit } of outcomes) {
    const audit = await svc.ledger.audit(group.agentGroupId);
    const sum = exposureOf(audit.entries);
    const ok = audit.exposureCounter === sum && audit.exposureCounter <= limit;
    console.log(
      `  invariant ${o.label}: exposure counter ${toRupees(audit.exposureCounter)} ₹ = sum of ${audit.entries.length} entries ${toRupees(sum)} ₹, limit ${toRupees(limit)} ₹: ${ok ? 'holds' : 'VIOLATED'}`,
    );
    if (!ok) throw new Error(`credit invariant violated for ${group.agentGroupId}`);
  }
}

// `npx tsx bench/booking-bench.ts`: only the booking cases, on a stack of their own.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await benchAlone({ table: 'pds-bench', extra: (sqs) => bookingQueueEnv(sqs, 'test') }, (svc) => benchBookings(svc, Number(process.env.BENCH_RUNS ?? 30)));
}

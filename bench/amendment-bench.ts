import { partnerOrigin, operatorOrigin } from '../domain/audit/audit-event.ts';
import { amendmentAudit } from '../domain/bookings/booking-audit.ts';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { stayMoves, type Amendment } from '../domain/bookings/amendment.ts';
import type { Booking } from '../domain/bookings/booking.ts';
import { addDays } from '../domain/catalogue/calendar.ts';
import { postedEntry } from '../domain/ledger/ledger.ts';
import type { Minor } from '../domain/money.ts';
import { loadPricingContext } from '../domain/orders/load-pricing-context.ts';
import { indiaToday } from '../domain/reads/date-window.ts';
import type { Services } from '../infra/container.ts';
import { dynamoCalls, resetDynamoCalls } from '../infra/dynamo/client.ts';
import { benchAgentGroup, benchWorld } from './bench-world.ts';
import { bookingQueueEnv } from './booking-bench.ts';
import { fmt, httpEvent, lambdaContext, measure, type Summary } from './harness.ts';
import { benchAlone } from './standalone.ts';
import { seeding } from './seeding.ts';

/**
 * PATCH /v1/bookings/{id} (the quote) and POST …/amendments (the apply) in-process, each
 * beside its bare-storage floor: the same DynamoDB reads and writes issued straight through
 * the adapters, without HTTP parsing, pricing arithmetic, the step rule or reply JSON.
 * BENCH_AMENDMENTS=0 skips these cases in `npm run bench`; `npm run bench:amendments`
 * (npx tsx bench/amendment-bench.ts) runs only them, on a stack of their own.
 */
export const amendmentBenchEnabled = process.env.BENCH_AMENDMENTS !== '0';

const CHANNEL = 'bench-amendments';
const LISTING = 'ambench-l00000';
const DAYS = 30;
/** Every booking takes one unit of the same night and its amendment one more night: never sold out. */
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

type Handler = (e: unknown, c: unknown) => Promise<{ statusCode: number; body?: string }>;

const opsLine = (ops: Record<string, number>): string =>
  Object.entries(ops)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, n]) => `${op.replace(/Command$/, '')} ${n}`)
    .join(', ');

export async function benchAmendments(svc: Services, runs: number): Promise<void> {
  const { adminDeps, bookingDeps, orderDeps } = await import('../infra/container.ts');
  const { createPartner } = await import('../domain/admin.ts');
  const { importWorld } = await import('../domain/world/import-world.ts');
  const { createOrder } = await import('../domain/orders/manage-orders.ts');
  const { placeBooking } = await import('../domain/bookings/place-booking.ts');
  const { sha256Hex } = await import('../infra/crypto/api-keys.ts');
  const quoteHandler = ((await import('../functions/bookings/quote-amendment.ts')) as unknown as { handler: Handler }).handler;
  const applyHandler = ((await import('../functions/bookings/apply-amendment.ts')) as unknown as { handler: Handler }).handler;
  const seed = await seeding(svc);
  const deps = adminDeps(seed, operatorOrigin('bench', 'seed'));

  const from = addDays(indiaToday(new Date()), 7);
  const checkIn = from;
  const checkOut = addDays(from, 1);
  const amendedOut = addDays(from, 2);
  const gst = (await svc.catalogue.listGstSlabTables()).length > 0 ? {} : { gst: GST };
  await importWorld(
    { ...deps, catalogue: seed.catalogue },
    { ...benchWorld({ channelId: CHANNEL, listings: 1, from, days: DAYS, idPrefix: 'ambench-l', units: UNITS }), ...gst },
    { allowPlaintextKeys: true },
  );
  await createPartner(deps, { partnerId: 'bench-amendments-partner', name: 'Amendment bench', channelId: CHANNEL });
  const agentGroupId = 'bench-amendments-group';
  const { apiKey, principal } = await benchAgentGroup(deps, agentGroupId, 'bench-amendments-partner', CHANNEL, 1_000_000_000_00);
  const propertyId = `${LISTING}-p1`;
  const request = { listingId: LISTING, checkIn, checkOut, adults: 2, selectedProperties: [{ propertyId, quantity: 1 }] };

  // Bookings to amend, made before anything is measured: each apply needs one that was never amended.
  const warmup = 3;
  // The quoted one, the template, one of each for the breakdown, and warmup + runs for each side.
  const needed = 2 * (warmup + runs) + 4;
  const pool: Booking[] = [];
  const bdeps = { ...bookingDeps(svc), syncWaitMs: 5_000 };
  const t0 = performance.now();
  for (let i = 0; i < needed; i++) {
    const order = await createOrder(orderDeps(svc), principal, { request });
    const reply = await placeBooking(
      bdeps,
      principal,
      { orderId: order.orderId, externalBookingId: randomUUID(), acceptedTotal: order.pricing.summary.grandTotal, primaryGuest: GUEST, additionalGuests: [] },
      partnerOrigin('bench-key', randomUUID()),
    );
    if (reply.booking.status !== 'CONFIRMED') throw new Error(`amendment bench: a pool booking is ${reply.booking.status}`);
    pool.push(reply.booking);
  }
  console.log(`\namendment bench: ${needed} bookings made in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  let taken = 0;
  const nextBooking = (): Booking => {
    const b = pool[taken++];
    if (!b) throw new Error('amendment bench: booking pool exhausted');
    return b;
  };
  const quoted = pool[0]!;
  taken = 1;

  const groupAuthFloor = async () => {
    const k = await svc.tenants.findKeyByHash(sha256Hex(apiKey));
    await Promise.all([svc.tenants.getAgentGroup(k!.owner.id), svc.rateLimiter.consume(k!.keyId, k!.rateLimit!, Date.now())]);
  };
  const body = JSON.stringify({ checkOut: amendedOut });
  const quoteEvent = (b: Booking) => ({
    ...httpEvent('PATCH', `/v1/bookings/${b.bookingId}`, { key: apiKey, body }),
    pathParameters: { bookingId: b.bookingId! },
  });
  const applyEvent = (b: Booking) => ({
    ...httpEvent('POST', `/v1/bookings/${b.bookingId}/amendments`, { key: apiKey, body }),
    pathParameters: { bookingId: b.bookingId! },
  });
  /** The one catalogue load of a quote: both stays' nights in one request. */
  const span = { ...request, checkOut: amendedOut };

  /** The quote's storage: auth, the booking by its property-system id (alias, booking), the pricing load, the channel's capability. */
  const quoteFloor = async () => {
    await groupAuthFloor();
    await svc.bookingReads.byBookingId(agentGroupId, quoted.bookingId!);
    await loadPricingContext({ catalogue: svc.catalogue, clock: svc.clock }, principal, span);
    await svc.propertySystem.canModify(LISTING);
  };

  // One real apply, read back: the floor writes amendments of the same shape and size.
  const templateBooking = nextBooking();
  const templateStatus = (await applyHandler(applyEvent(templateBooking), lambdaContext)).statusCode;
  if (templateStatus !== 200) throw new Error(`amendment bench: the template apply answered ${templateStatus}`);
  const template = (await svc.amendments.list(agentGroupId, templateBooking.bookingRef))[0]!;

  /**
   * The apply's storage, step for step: auth; the booking (alias, booking); the lock Get; the
   * quote's load and capability; the credit read; begin (TransactWrite); the simulator's
   * modify (answer Get, behaviour Get, answer Put, reservation Update); the channel step's
   * Put; the rows (months BatchGet, TransactWrite, from the booking already read); the money
   * (gate BatchGet, TransactWrite with the ADJUSTMENT). No callbackUrl, as in the handler runs.
   */
  const applyFloor = async () => {
    const b0 = nextBooking();
    const g = agentGroupId;
    await groupAuthFloor();
    const booking = (await svc.bookingReads.byBookingId(g, b0.bookingId!))!;
    await svc.amendments.lockOf(g, booking.bookingRef);
    await loadPricingContext({ catalogue: svc.catalogue, clock: svc.clock }, principal, span);
    await svc.propertySystem.canModify(LISTING);
    await svc.ledger.decide(g, template.money.delta);
    const at = new Date().toISOString();
    const a0: Amendment = {
      ...template,
      amendmentId: randomUUID(),
      bookingRef: booking.bookingRef,
      bookingId: booking.bookingId!,
      externalBookingId: booking.externalBookingId,
      adjustmentEntryId: randomUUID(),
      status: 'PENDING',
      steps: { ...template.steps, channelModified: false, rowsRewritten: false, adjusted: false },
      appliedAt: null,
      nextCheckAt: at,
      createdAt: at,
      updatedAt: at,
      version: 1,
    };
    if ((await svc.amendments.begin(a0, booking.version, amendmentAudit(partnerOrigin('bench-key', randomUUID()), randomUUID(), a0))) !== 'created')
      throw new Error('amendment bench floor: begin refused');
    await svc.propertySystem.modify({
      bookingRef: a0.bookingRef,
      listingId: LISTING,
      key: a0.amendmentId,
      kind: 'amend',
      checkIn,
      checkOut: amendedOut,
      selectedProperties: a0.after.selectedProperties,
    });
    const a1: Amendment = { ...a0, steps: { ...a0.steps, channelModified: true }, version: 2 };
    await svc.amendments.save(a0, a1);
    const b1 = booking;
    const a2: Amendment = { ...a1, steps: { ...a1.steps, rowsRewritten: true }, version: 3 };
    const rewritten: Booking = {
      ...b1,
      checkOut: amendedOut,
      items: a0.after.items,
      summary: a0.after.summary,
      request: a0.after.request,
      amendingId: a0.amendmentId,
      updatedAt: at,
      version: b1.version + 1,
    };
    if ((await svc.amendments.rewrite(a1, a2, b1, rewritten, [...stayMoves(a0.before, 1), ...stayMoves(a0.after, -1)], true)) !== 'done')
      throw new Error('amendment bench floor: rows not rewritten');
    const b2 = rewritten;
    const a3: Amendment = { ...a2, status: 'APPLIED', steps: { ...a2.steps, adjusted: true }, nextCheckAt: null, appliedAt: at, version: 4 };
    const entry = postedEntry(
      {
        agentGroupId: g,
        type: 'ADJUSTMENT',
        amount: a0.money.delta as Minor,
        bookingId: a0.bookingId,
        externalBookingId: a0.externalBookingId,
        description: 'bench',
      },
      a0.adjustmentEntryId,
      new Date(at),
    );
    const outcome = await svc.amendments.adjust(
      a2,
      a3,
      b2,
      { ...b2, chargedTotal: a0.money.newTotal, amendingId: null, updatedAt: at, version: b2.version + 1 },
      entry,
    );
    if (outcome.kind !== 'done') throw new Error(`amendment bench floor: adjustment ${outcome.kind}`);
  };

  const breakdown = async (fn: () => Promise<unknown>): Promise<string> => {
    resetDynamoCalls();
    await fn();
    return opsLine({ ...dynamoCalls.byOperation });
  };
  const rows: { case: string; handler: Summary; floor: Summary; ops: string; floorOps: string }[] = [];
  rows.push({
    case: 'PATCH /v1/bookings/{id} quote, one more night',
    ops: await breakdown(() => quoteHandler(quoteEvent(quoted), lambdaContext)),
    floorOps: await breakdown(quoteFloor),
    handler: await measure(async () => (await quoteHandler(quoteEvent(quoted), lambdaContext)).statusCode, runs, warmup),
    floor: await measure(quoteFloor, runs, warmup),
  });
  rows.push({
    case: 'POST /v1/bookings/{id}/amendments apply, one more night (increase, no callbackUrl)',
    ops: await breakdown(() => applyHandler(applyEvent(nextBooking()), lambdaContext)),
    floorOps: await breakdown(applyFloor),
    handler: await measure(async () => (await applyHandler(applyEvent(nextBooking()), lambdaContext)).statusCode, runs, warmup),
    floor: await measure(applyFloor, runs, warmup),
  });

  console.log('\ncase | handler (in-process, with auth) | bare-storage floor | handler/floor (median)');
  console.log('--- | --- | --- | ---');
  for (const r of rows) console.log(`${r.case} | ${fmt(r.handler)} | ${fmt(r.floor)} | ${(r.handler.median / r.floor.median).toFixed(2)}`);
  for (const r of rows) console.log(`${r.case}: handler ${r.ops}; floor ${r.floorOps}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await benchAlone({ table: 'pds-bench', extra: (sqs) => bookingQueueEnv(sqs, 'test') }, (svc) => benchAmendments(svc, Number(process.env.BENCH_RUNS ?? 30)));
}

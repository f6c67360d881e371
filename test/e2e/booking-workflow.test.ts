import { testOrigin } from '../support/audit-origin.ts';
import { sweepingOnly } from '../support/own-sweeps.ts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Booking } from '../../domain/bookings/booking.ts';
import { cancelBooking } from '../../domain/bookings/cancel-booking.ts';
import { placeBooking, type BookingCommand } from '../../domain/bookings/place-booking.ts';
import { advanceBooking, handleBookingCheck, type WorkflowStep } from '../../domain/bookings/workflow.ts';
import { createOrder } from '../../domain/orders/manage-orders.ts';
import type { BookingCheck } from '../../domain/ports/booking-store.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import type { Metrics } from '../../domain/ports/metrics.ts';
import { CreditDeniedError } from '../../domain/ledger/credit-errors.ts';
import { sweepBookings } from '../../domain/bookings/sweep-bookings.ts';
import type { PropertySystem } from '../../domain/ports/property-system.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { withBookingScenario, type BookingScenario } from '../../domain/sandbox/workflow-scenarios.ts';
import { bookingDeps, buildServices, orderDeps, type BookingDeps, type Services } from '../../infra/container.ts';
import { assertBookingInvariants } from '../support/booking-invariant.ts';
import { verifyTrail } from '../../domain/audit/verify-trail.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { guest, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { newAgentGroup, testServices, uniqueId, type GroupFixture } from '../support/stack.ts';

/*
 * Crash injection against DynamoDB Local: the workflow runs in-process and a worker "dies"
 * right after a chosen durable step (the afterStep seam throws). Running it again without
 * the fault, as a redelivered message or the sweeper would, must finish the booking with
 * every effect exactly once. The clock is this file's own, so the booking window (4 s on
 * the test stage) is passed by moving the clock, not by sleeping; checks the workflow
 * queues are recorded here, so the offline worker never sees these bookings.
 */
let world: BookingWorld;
let svc: Services;
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
/** Moves this file's clock to `ms` after an instant. */
const setClock = (iso: string, ms: number) => {
  offsetMs = Date.parse(iso) + ms - Date.now();
};
let queued: BookingCheck[] = [];

const CALLBACK_URL = 'https://93.184.216.34/cb';
const NIGHT = { checkIn: '2027-03-02', checkOut: '2027-03-03', month: '2027-03', day: '02' };

beforeAll(async () => {
  world = await seedBookingWorld();
  svc = buildServices(testServices().config, clock);
}, 120_000);

beforeEach(() => {
  offsetMs = 0;
  queued = [];
});

class WorkerDied extends Error {}

/** Dies the first time the workflow reports `step` as durable. */
function dieAfter(step: WorkflowStep): (s: WorkflowStep) => void {
  let died = false;
  return (s) => {
    if (s !== step || died) return;
    died = true;
    throw new WorkerDied(`worker died after ${step}`);
  };
}

/** The container's booking dependencies on this file's clock and queue, answering at once; optionally with a fault. */
function deps(overrides: Partial<BookingDeps> = {}): BookingDeps {
  return {
    ...bookingDeps(svc),
    bookings: sweepingOnly(svc.bookings, () => ownGroups),
    queue: { send: async (check) => void queued.push(check) },
    syncWaitMs: 0,
    ...overrides,
  };
}

interface Tenant {
  readonly group: GroupFixture;
  readonly principal: AgentGroupPrincipal;
}

/** The groups this file made: its sweeps look at these only (test/support/own-sweeps.ts). */
const ownGroups = new Set<string>();

async function tenant(): Promise<Tenant> {
  const group = await newAgentGroup({ channelId: world.channelId });
  ownGroups.add(group.agentGroupId);
  const principal: AgentGroupPrincipal = {
    kind: 'agent-group',
    agentGroupId: group.agentGroupId,
    partnerId: group.partnerId,
    channelId: world.channelId,
    keyId: group.keyId,
    keyPrefix: group.apiKey.slice(0, 12),
  };
  return { group, principal };
}

/** Prices an order for one night of the listing and books it at that price through `d`; the booking as stored, however the call ended. */
/** A booking as POST /v1/bookings places it; with a scenario, as a sandbox request with X-Test-Scenario does. */
async function book(
  t: Tenant,
  listingId: string,
  d: BookingDeps,
  extra: Partial<BookingCommand> = {},
  scenario?: BookingScenario,
): Promise<{ booking: Booking; outcome: unknown }> {
  const order = await createOrder(orderDeps(svc), t.principal, { request: stay(listingId, NIGHT.checkIn, NIGHT.checkOut) });
  const cmd: BookingCommand = {
    orderId: order.orderId,
    externalBookingId: uniqueId('ext'),
    acceptedTotal: order.pricing.summary.grandTotal,
    primaryGuest: guest,
    additionalGuests: [],
    callbackUrl: CALLBACK_URL,
    ...extra,
  };
  const outcome = await placeBooking(
    withBookingScenario(d, scenario, () => svc.scenarioBook),
    t.principal,
    cmd,
    testOrigin(),
  ).catch((err: unknown) => err);
  const claim = await svc.bookings.findClaim(t.group.agentGroupId, cmd.externalBookingId);
  return { booking: (await svc.bookings.get(t.group.agentGroupId, claim!.bookingRef))!, outcome };
}

const reload = async (b: Booking) => (await svc.bookings.get(b.agentGroupId, b.bookingRef))!;
const rerun = (b: Booking) => advanceBooking(deps(), b.agentGroupId, b.bookingRef);

/** Units of the night in the property's stored month (what the workflow takes and returns). */
async function units(listingId: string): Promise<number> {
  const [month] = await svc.catalogue.getMonths([{ propertyId: world.propertyOf(listingId), month: NIGHT.month }]);
  return month!.days[NIGHT.day]!.inventory!.quantity;
}

/** The booking's callback deliveries, by event type. */
async function deliveries(b: Booking): Promise<string[]> {
  return (await svc.deliveries.listForBooking(b.partnerId, b.bookingRef)).map((d) => d.eventType).sort();
}

async function charges(b: Booking) {
  return (await svc.ledger.audit(b.agentGroupId)).entries.filter((e) => e.type === 'CHARGE');
}

/** The booking's audit chain as (action, actorKind, status before, status after), checked whole first. */
async function trail(b: Booking): Promise<[string, string, unknown, unknown][]> {
  const target = `booking:${b.bookingRef}`;
  expect(await verifyTrail(svc.auditTrail, sha256Hex, { only: target })).toMatchObject({ firstBreak: null });
  return (await svc.auditTrail.listTarget(target)).map((e) => [e.action, e.actorKind, e.before?.status ?? null, e.after?.status ?? null]);
}

/** A worker died between two steps: the booking is still open work the sweeper can see. */
function expectLeftForTheSweeper(b: Booking): void {
  expect(b.nextCheckAt).not.toBeNull();
  expect(b.nextCheckAt! <= clock.now().toISOString()).toBe(true);
}

/**
 * What every converged booking shows: its status, one CHARGE in the matching state (posted
 * to the property-system id), exposure = the entries, the night's units moved by `unitsMoved`
 * in all, one delivery per event, and, once settled, no further look due. Running the
 * workflow once more then changes nothing.
 */
async function expectConverged(
  b: Booking,
  want: { status: Booking['status']; charge: 'POSTED' | 'RELEASED'; unitsBefore: number; unitsMoved: number; events: string[]; settled?: boolean },
): Promise<Booking> {
  const stored = await reload(b);
  expect(stored.status).toBe(want.status);
  const [charge, ...more] = await charges(stored);
  expect(more).toEqual([]);
  expect(charge).toMatchObject({
    id: stored.ledgerEntryId,
    status: want.charge,
    amount: stored.amount,
    bookingId: want.charge === 'POSTED' ? stored.bookingId : null,
  });
  await assertBookingInvariants(stored.agentGroupId);
  expect(await units(stored.listingId)).toBe(want.unitsBefore + want.unitsMoved);
  expect(await deliveries(stored)).toEqual([...want.events].sort());
  if (want.settled ?? true) {
    expect(stored.nextCheckAt).toBeNull();
    const again = await rerun(stored);
    expect(again?.version).toBe(stored.version);
  }
  return stored;
}

describe('crash injection: the success path', () => {
  it.each<[WorkflowStep, Partial<Booking['steps']>]>([
    ['landed', { inventoryTaken: false, callbacksPublished: [] }],
    ['inventory-taken', { inventoryTaken: true, callbacksPublished: [] }],
    ['callback-published', { inventoryTaken: true, callbacksPublished: [] }],
  ])('a worker dying after %s: the rerun takes the units once, posts the charge once and calls back once', async (step, stepsAtCrash) => {
    // prepare
    const t = await tenant();
    const before = await units(world.instant);

    // act
    const { booking: crashed, outcome } = await book(t, world.instant, deps({ afterStep: dieAfter(step) }));
    const rerunResult = await rerun(crashed);

    // assess
    expect(outcome).toBeInstanceOf(WorkerDied);
    expect(crashed).toMatchObject({ status: 'CONFIRMED', steps: expect.objectContaining(stepsAtCrash) });
    expectLeftForTheSweeper(crashed);
    expect(rerunResult?.bookingId).toBe(crashed.bookingId);
    const done = await expectConverged(crashed, { status: 'CONFIRMED', charge: 'POSTED', unitsBefore: before, unitsMoved: -1, events: ['booking.confirmed'] });
    expect(done.bookingId).toMatch(/^SIM-/);
    expect(done.steps).toEqual({ inventoryTaken: true, inventoryReturned: false, callbacksPublished: ['booking.confirmed'] });
    expect(await trail(crashed)).toEqual([
      ['booking.created', 'partner-key', null, 'PROCESSING'],
      ['booking.confirmed', 'system', 'PROCESSING', 'CONFIRMED'],
    ]);
  });

  it('a worker dying between the reserve and the landing: the rerun lands the same property-system booking', async () => {
    // prepare
    const t = await tenant();
    const before = await units(world.instant);
    const real = svc.propertySystem;
    const reserved: string[] = [];
    const diesAfterReserving: PropertySystem = {
      reserve: async (request) => {
        const state = await real.reserve(request);
        if (state.state === 'CONFIRMED') reserved.push(state.bookingId);
        throw new WorkerDied('worker died after the reserve');
      },
      status: (ref) => real.status(ref),
      cancel: (ref, at) => real.cancel(ref, at),
      canModify: (listingId) => real.canModify(listingId),
      modify: (request) => real.modify(request),
      forgetGuest: (ref, marker) => real.forgetGuest(ref, marker),
    };

    // act
    const { booking: crashed, outcome } = await book(t, world.instant, deps({ propertySystem: diesAfterReserving }));
    await rerun(crashed);

    // assess
    expect(outcome).toBeInstanceOf(WorkerDied);
    expect(crashed).toMatchObject({ status: 'PROCESSING', bookingId: null });
    expectLeftForTheSweeper(crashed);
    expect(reserved).toHaveLength(1);
    const done = await expectConverged(crashed, { status: 'CONFIRMED', charge: 'POSTED', unitsBefore: before, unitsMoved: -1, events: ['booking.confirmed'] });
    expect(done.bookingId).toBe(reserved[0]);
  });

  it('the redelivered message finishes it too: handleBookingCheck for the due time the crash left', async () => {
    // prepare
    const t = await tenant();
    const before = await units(world.instant);
    const { booking: crashed } = await book(t, world.instant, deps({ afterStep: dieAfter('landed') }));

    // act
    const report = await handleBookingCheck(deps(), { agentGroupId: crashed.agentGroupId, bookingRef: crashed.bookingRef, dueAt: crashed.nextCheckAt! });

    // assess
    expect(report).toBe('advanced');
    await expectConverged(crashed, { status: 'CONFIRMED', charge: 'POSTED', unitsBefore: before, unitsMoved: -1, events: ['booking.confirmed'] });
  });
});

describe('crash injection: the failure path (the property never confirms)', () => {
  it.each<[WorkflowStep, string, BookingScenario | undefined]>([
    ['failed', 'NEVER_CONFIRM in the world file', undefined],
    ['failed', 'X-Test-Scenario booking-failed', 'booking-failed'],
    ['callback-published', 'NEVER_CONFIRM in the world file', undefined],
    ['callback-published', 'X-Test-Scenario booking-failed', 'booking-failed'],
  ])('a worker dying after %s (%s): released once, booking.failed once, watched, then settled', async (step, _, scenario) => {
    // prepare
    const t = await tenant();
    const listing = scenario ? world.instant : world.never;
    const before = await units(listing);
    const { booking: placed, outcome } = await book(t, listing, deps(), {}, scenario);
    setClock(placed.deadline, 100);

    // act
    const died = await advanceBooking(deps({ afterStep: dieAfter(step) }), placed.agentGroupId, placed.bookingRef).catch((err: unknown) => err);
    const crashed = await reload(placed);
    const watching = await rerun(crashed);

    // assess
    expect(outcome).toMatchObject({ status: 'PROCESSING' });
    expect(died).toBeInstanceOf(WorkerDied);
    expect(crashed).toMatchObject({ status: 'FAILED', bookingId: null, failure: { reasonCode: 'BOOKING_NOT_COMPLETED' }, steps: { callbacksPublished: [] } });
    expectLeftForTheSweeper(crashed);
    // Still watching for a late landing: the next look is due within the watch and its check is queued.
    expect(watching!.nextCheckAt! > clock.now().toISOString()).toBe(true);
    expect(watching!.nextCheckAt! <= watching!.watchUntil).toBe(true);
    expect(queued.at(-1)).toEqual({ agentGroupId: placed.agentGroupId, bookingRef: placed.bookingRef, dueAt: watching!.nextCheckAt });
    await expectConverged(placed, { status: 'FAILED', charge: 'RELEASED', unitsBefore: before, unitsMoved: 0, events: ['booking.failed'], settled: false });
    expect((await svc.ledger.creditPosition(t.group.agentGroupId))?.exposure).toBe(0);

    // the watch ends without a landing
    setClock(placed.watchUntil, 100);
    await rerun(placed);
    await expectConverged(placed, { status: 'FAILED', charge: 'RELEASED', unitsBefore: before, unitsMoved: 0, events: ['booking.failed'] });
  });

  it('a late landing (booking-late) with a worker dying after landed: CONFIRMED, posted again, units taken once, failed then confirmed called back once each', async () => {
    // prepare
    const t = await tenant();
    const before = await units(world.instant);
    const { booking: placed } = await book(t, world.instant, deps(), {}, 'booking-late');
    setClock(placed.deadline, 100);
    const failed = await rerun(placed);
    // The watch's first look asks the simulator, which fixes the landing half a window (2 s) later.
    setClock(placed.deadline, 2_100);
    const watched = await rerun(failed!);
    setClock(placed.deadline, 5_000);

    // act
    const died = await advanceBooking(deps({ afterStep: dieAfter('landed') }), placed.agentGroupId, placed.bookingRef).catch((err: unknown) => err);
    const crashed = await reload(placed);
    await rerun(crashed);

    // assess
    expect(failed).toMatchObject({ status: 'FAILED', steps: { callbacksPublished: ['booking.failed'] } });
    expect(watched).toMatchObject({ status: 'FAILED' });
    expect(died).toBeInstanceOf(WorkerDied);
    expect(crashed).toMatchObject({
      status: 'CONFIRMED',
      failure: { reasonCode: 'BOOKING_NOT_COMPLETED' },
      steps: { inventoryTaken: false, callbacksPublished: ['booking.failed'] },
    });
    expectLeftForTheSweeper(crashed);
    const done = await expectConverged(placed, {
      status: 'CONFIRMED',
      charge: 'POSTED',
      unitsBefore: before,
      unitsMoved: -1,
      events: ['booking.failed', 'booking.confirmed'],
    });
    expect((await svc.ledger.creditPosition(t.group.agentGroupId))?.exposure).toBe(done.amount);
    // The hold released and the charge posted late are money: each is one system event, the crash and rerun wrote no second one.
    expect(await trail(placed)).toEqual([
      ['booking.created', 'partner-key', null, 'PROCESSING'],
      ['booking.failed', 'system', 'PROCESSING', 'FAILED'],
      ['booking.landed-late', 'system', 'FAILED', 'CONFIRMED'],
    ]);
  });
});

describe('crash injection: cancellation', () => {
  it.each<WorkflowStep>(['cancelled', 'inventory-returned', 'callback-published'])(
    'a worker dying after %s: the rerun returns the units once and calls back booking.cancelled once',
    async (step) => {
      // prepare
      const t = await tenant();
      const before = await units(world.instant);
      const { booking: confirmed } = await book(t, world.instant, deps());
      const booked = await units(world.instant);

      // act
      const died = await cancelBooking(deps({ afterStep: dieAfter(step) }), t.principal, confirmed.bookingId!, 'Guest changed plans', testOrigin()).catch(
        (err: unknown) => err,
      );
      const crashed = await reload(confirmed);
      await rerun(crashed);
      const repeat = await cancelBooking(deps(), t.principal, confirmed.bookingId!, 'Guest changed plans', testOrigin());

      // assess
      expect(confirmed).toMatchObject({ status: 'CONFIRMED', nextCheckAt: null, steps: { inventoryTaken: true } });
      expect(booked).toBe(before - 1);
      expect(died).toBeInstanceOf(WorkerDied);
      expect(crashed).toMatchObject({
        status: 'CANCELLED',
        cancellation: { refundPercentage: 100, refundAmount: confirmed.amount, reason: 'Guest changed plans' },
      });
      expect(crashed.steps.inventoryReturned).toBe(step !== 'cancelled');
      expectLeftForTheSweeper(crashed);
      const done = await expectConverged(confirmed, {
        status: 'CANCELLED',
        charge: 'POSTED',
        unitsBefore: before,
        unitsMoved: 0,
        events: ['booking.confirmed', 'booking.cancelled'],
      });
      expect(done.steps).toEqual({ inventoryTaken: true, inventoryReturned: true, callbacksPublished: ['booking.confirmed', 'booking.cancelled'] });
      expect(repeat).toMatchObject({ alreadyCancelled: true, cancellation: crashed.cancellation });
      expect((await svc.ledger.creditPosition(t.group.agentGroupId))?.exposure).toBe(0);
    },
  );
});

describe('two workers at once on the same crashed booking', () => {
  it('after a crash before the reserve: one reservation, one landing, the units taken once, one callback', async () => {
    // prepare
    const t = await tenant();
    const before = await units(world.instant);
    const real = svc.propertySystem;
    const diesBeforeReserving: PropertySystem = {
      reserve: () => Promise.reject(new WorkerDied('worker died before the reserve')),
      status: (ref) => real.status(ref),
      cancel: (ref, at) => real.cancel(ref, at),
      canModify: (listingId) => real.canModify(listingId),
      modify: (request) => real.modify(request),
      forgetGuest: (ref, marker) => real.forgetGuest(ref, marker),
    };
    const { booking: crashed, outcome } = await book(t, world.instant, deps({ propertySystem: diesBeforeReserving }));

    // act
    const results = await Promise.all([rerun(crashed), rerun(crashed)]);

    // assess
    expect(outcome).toBeInstanceOf(WorkerDied);
    expect(crashed.status).toBe('PROCESSING');
    expect(results[0]?.bookingId).toBe(results[1]?.bookingId);
    const done = await expectConverged(crashed, { status: 'CONFIRMED', charge: 'POSTED', unitsBefore: before, unitsMoved: -1, events: ['booking.confirmed'] });
    expect(done.bookingId).toBe(results[0]?.bookingId);
  });

  it('after a crash after landed: the units taken once, one callback', async () => {
    // prepare
    const t = await tenant();
    const before = await units(world.instant);
    const { booking: crashed } = await book(t, world.instant, deps({ afterStep: dieAfter('landed') }));

    // act
    await Promise.all([rerun(crashed), rerun(crashed), rerun(crashed)]);

    // assess
    await expectConverged(crashed, { status: 'CONFIRMED', charge: 'POSTED', unitsBefore: before, unitsMoved: -1, events: ['booking.confirmed'] });
  });

  it('after a crash after cancelled: the units returned once, one booking.cancelled', async () => {
    // prepare
    const t = await tenant();
    const before = await units(world.instant);
    const { booking: confirmed } = await book(t, world.instant, deps());
    await cancelBooking(deps({ afterStep: dieAfter('cancelled') }), t.principal, confirmed.bookingId!, undefined, testOrigin()).catch(() => undefined);
    const crashed = await reload(confirmed);

    // act
    await Promise.all([rerun(crashed), rerun(crashed)]);

    // assess
    expect(crashed.status).toBe('CANCELLED');
    await expectConverged(crashed, {
      status: 'CANCELLED',
      charge: 'POSTED',
      unitsBefore: before,
      unitsMoved: 0,
      events: ['booking.confirmed', 'booking.cancelled'],
    });
  });
});

describe('counts for operators (domain/ports/metrics.ts)', () => {
  /** A Metrics port that remembers every count. */
  function recorder() {
    const counts: Record<string, number> = {};
    const metrics: Metrics = { count: (name, value = 1) => void (counts[name] = (counts[name] ?? 0) + value) };
    return { counts, metrics };
  }

  it('counts a confirmation once, even when two workers race to land it', async () => {
    const t = await tenant();
    const { counts, metrics } = recorder();
    const real = svc.propertySystem;
    const diesBeforeReserving: PropertySystem = {
      reserve: () => Promise.reject(new WorkerDied('worker died before the reserve')),
      status: (ref) => real.status(ref),
      cancel: (ref, at) => real.cancel(ref, at),
      canModify: (listingId) => real.canModify(listingId),
      modify: (request) => real.modify(request),
      forgetGuest: (ref, marker) => real.forgetGuest(ref, marker),
    };
    const { booking: crashed } = await book(t, world.instant, deps({ metrics, propertySystem: diesBeforeReserving }));

    await Promise.all([
      advanceBooking(deps({ metrics }), crashed.agentGroupId, crashed.bookingRef),
      advanceBooking(deps({ metrics }), crashed.agentGroupId, crashed.bookingRef),
    ]);

    expect(crashed.status).toBe('PROCESSING');
    expect((await reload(crashed)).status).toBe('CONFIRMED');
    expect(counts).toEqual({ BookingConfirmed: 1 });
  });

  it('counts a failure when the window closes without a landing', async () => {
    const t = await tenant();
    const { counts, metrics } = recorder();
    const { booking: placed } = await book(t, world.never, deps({ metrics }));
    setClock(placed.deadline, 100);

    await advanceBooking(deps({ metrics }), placed.agentGroupId, placed.bookingRef);

    expect(counts).toEqual({ BookingFailed: 1 });
  });

  it('counts a credit refusal, and nothing else, when the gate says no', async () => {
    const group = await newAgentGroup({ channelId: world.channelId, creditLimit: 100_00 });
    const t: Tenant = {
      group,
      principal: {
        kind: 'agent-group',
        agentGroupId: group.agentGroupId,
        partnerId: group.partnerId,
        channelId: world.channelId,
        keyId: group.keyId,
        keyPrefix: group.apiKey.slice(0, 12),
      },
    };
    const { counts, metrics } = recorder();
    const order = await createOrder(orderDeps(svc), t.principal, { request: stay(world.instant, NIGHT.checkIn, NIGHT.checkOut) });

    const refused = await placeBooking(
      deps({ metrics }),
      t.principal,
      {
        orderId: order.orderId,
        externalBookingId: uniqueId('ext'),
        acceptedTotal: order.pricing.summary.grandTotal,
        primaryGuest: guest,
        additionalGuests: [],
      },
      testOrigin(),
    ).catch((err: unknown) => err);

    expect(refused).toBeInstanceOf(CreditDeniedError);
    expect(counts).toEqual({ CreditRefused: 1 });
  });

  it('counts the overdue bookings a sweep finds', async () => {
    const t = await tenant();
    const { counts, metrics } = recorder();
    const { booking: crashed } = await book(t, world.instant, deps({ afterStep: dieAfter('landed') }));

    const swept = await sweepBookings(deps({ metrics }), { graceSeconds: 0 });

    expect(swept.looked).toBeGreaterThanOrEqual(1);
    expect(counts.OverdueBookings).toBe(swept.looked);
    expect((await reload(crashed)).steps.inventoryTaken).toBe(true);
  });
});

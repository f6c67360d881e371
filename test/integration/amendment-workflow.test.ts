import { testOrigin } from '../support/audit-origin.ts';
import { sweepingOnly } from '../support/own-sweeps.ts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advanceAmendment, applyAmendment, quoteAmendment, sweepAmendments } from '../../domain/bookings/amend-booking.ts';
import type { Amendment, AmendmentCommand, AmendmentStep } from '../../domain/bookings/amendment.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import { placeBooking } from '../../domain/bookings/place-booking.ts';
import { withAmendmentScenario, type AmendmentScenario } from '../../domain/sandbox/workflow-scenarios.ts';
import { ConflictError } from '../../domain/errors.ts';
import { CreditDeniedError } from '../../domain/ledger/credit-errors.ts';
import { createOrder } from '../../domain/orders/manage-orders.ts';
import { syncCatalogue } from '../../domain/sync/sync-catalogue.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { bookingDeps, buildServices, orderDeps, syncDeps, type BookingDeps, type Services } from '../../infra/container.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { guest, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { assertBookingInvariants } from '../support/booking-invariant.ts';
import { newAgentGroup, testServices, uniqueId, type GroupFixture } from '../support/stack.ts';

/*
 * Amendments in-process against DynamoDB Local, with crash injection: a process "dies"
 * right after a chosen durable step (the afterAmendmentStep seam throws), and the sweeper
 * (this file's clock moved past its grace) finishes the amendment. Whatever the step, it
 * must end APPLIED (or COMPENSATED when a later step fails), with money moved at most once.
 * The booking world's listing confirms at once and sells 100 units a night at 5,000 + 5 % GST.
 */
let world: BookingWorld;
let svc: Services;
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

const CALLBACK_URL = 'https://93.184.216.34/cb';
/** One night booked; the amendment adds the second. 5,000 + 5 % GST a night. */
const BOOKED = { checkIn: '2027-03-02', checkOut: '2027-03-03' };
const NIGHT_TOTAL = 5_250_00;
const EXTEND: AmendmentCommand = { checkOut: '2027-03-04' };

beforeAll(async () => {
  world = await seedBookingWorld({ slow: { mode: 'CONFIRM_IMMEDIATELY', refusesChanges: true }, never: { mode: 'CONFIRM_IMMEDIATELY', cannotModify: true } });
  svc = buildServices(testServices().config, clock);
}, 120_000);

beforeEach(() => {
  offsetMs = 0;
});

class ProcessDied extends Error {}

function dieAfter(step: AmendmentStep): (s: AmendmentStep) => void {
  let died = false;
  return (s) => {
    if (s !== step || died) return;
    died = true;
    throw new ProcessDied(`process died after ${step}`);
  };
}

/** As amendingDeps builds them on this sandbox stage: with `scenario`, a request's X-Test-Scenario; without, any other driver (the sweeper). */
function deps(overrides: Partial<BookingDeps> = {}, scenario?: AmendmentScenario): BookingDeps {
  return withAmendmentScenario(
    {
      ...bookingDeps(svc),
      amendments: sweepingOnly(svc.amendments, () => ownGroups),
      queue: { send: async () => undefined },
      syncWaitMs: 0,
      ...overrides,
    },
    scenario,
    () => svc.scenarioBook,
  );
}

interface Tenant {
  readonly group: GroupFixture;
  readonly principal: AgentGroupPrincipal;
}

/** The groups this file made: its sweeps look at these only (test/support/own-sweeps.ts). */
const ownGroups = new Set<string>();

async function tenant(creditLimit?: number): Promise<Tenant> {
  const group = await newAgentGroup({ channelId: world.channelId, ...(creditLimit !== undefined && { creditLimit }) });
  ownGroups.add(group.agentGroupId);
  return {
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
}

/** A CONFIRMED booking of one night on `listingId`, units taken. */
async function confirmed(t: Tenant, listingId = world.instant, nights = BOOKED): Promise<Booking> {
  const order = await createOrder(orderDeps(svc), t.principal, { request: stay(listingId, nights.checkIn, nights.checkOut) });
  const reply = await placeBooking(
    deps({ syncWaitMs: 5_000 }),
    t.principal,
    {
      orderId: order.orderId,
      externalBookingId: uniqueId('ext'),
      acceptedTotal: order.pricing.summary.grandTotal,
      primaryGuest: guest,
      additionalGuests: [],
      callbackUrl: CALLBACK_URL,
    },
    testOrigin(),
  );
  expect(reply.booking).toMatchObject({ status: 'CONFIRMED', steps: { inventoryTaken: true } });
  return reply.booking;
}

const reload = async (b: Booking) => (await svc.bookings.get(b.agentGroupId, b.bookingRef))!;
const entries = async (b: Booking) => (await svc.ledger.audit(b.agentGroupId)).entries;
const adjustments = async (b: Booking) => (await entries(b)).filter((e) => e.type === 'ADJUSTMENT');
const amendmentsOf = (b: Booking) => svc.amendments.list(b.agentGroupId, b.bookingRef);
const lockOf = (b: Booking) => svc.amendments.lockOf(b.agentGroupId, b.bookingRef);

/** Units left on a night of a listing's first property. */
async function units(listingId: string, date: string): Promise<number> {
  const [month] = await svc.catalogue.getMonths([{ propertyId: world.propertyOf(listingId), month: date.slice(0, 7) }]);
  return month!.days[date.slice(8)]!.inventory!.quantity;
}

/** The simulator's copy of the reservation: what the channel manager holds. */
async function reservation(b: Booking): Promise<{ checkIn?: string; checkOut?: string }> {
  const out = await createDocumentClient(svc.config).send(
    new GetCommand({ TableName: svc.config.tableName, Key: keys.simulatedReservation(b.bookingRef), ConsistentRead: true }),
  );
  return out.Item ?? {};
}

/** The sweeper, a little over its grace later. */
async function sweep(): Promise<void> {
  offsetMs = 61_000;
  await sweepAmendments(deps());
  offsetMs = 0;
}

const applyExtension = (b: Booking, d: BookingDeps, cmd: AmendmentCommand = EXTEND) =>
  applyAmendment(
    d,
    { kind: 'agent-group', agentGroupId: b.agentGroupId, partnerId: b.partnerId, channelId: b.channelId, keyId: 'k', keyPrefix: 'k' },
    b.bookingId!,
    cmd,
    testOrigin(),
  );

describe('Amendment workflow: crash between every pair of steps, then the sweeper', () => {
  const steps: AmendmentStep[] = ['begun', 'channel-modified', 'rows-rewritten', 'adjusted', 'callback-published'];
  it.each(steps)('converges to APPLIED with one ADJUSTMENT after a crash right after %s', async (step) => {
    // prepare
    const t = await tenant();
    const booking = await confirmed(t);
    const secondNight = await units(world.instant, '2027-03-03');

    // act
    await expect(applyExtension(booking, deps({ afterAmendmentStep: dieAfter(step) }))).rejects.toThrow(ProcessDied);
    await sweep();

    // assess
    const [amendment, ...more] = await amendmentsOf(booking);
    expect(more).toEqual([]);
    expect(amendment).toMatchObject({
      status: 'APPLIED',
      nextCheckAt: null,
      steps: { channelModified: true, rowsRewritten: true, adjusted: true, callbackPublished: true },
    });
    const after = await reload(booking);
    expect(after).toMatchObject({
      status: 'CONFIRMED',
      bookingId: booking.bookingId,
      checkIn: '2027-03-02',
      checkOut: '2027-03-04',
      amount: NIGHT_TOTAL,
      chargedTotal: 2 * NIGHT_TOTAL,
      amendingId: null,
    });
    expect(after.summary.grandTotal).toBe(2 * NIGHT_TOTAL);
    expect(await adjustments(booking)).toEqual([
      expect.objectContaining({ status: 'POSTED', amount: NIGHT_TOTAL, bookingId: booking.bookingId, externalBookingId: booking.externalBookingId }),
    ]);
    expect(await units(world.instant, '2027-03-03')).toBe(secondNight - 1);
    expect(await reservation(booking)).toMatchObject({ checkIn: '2027-03-02', checkOut: '2027-03-04' });
    expect((await svc.deliveries.listForBooking(booking.partnerId, booking.bookingRef)).map((d) => d.eventType).sort()).toEqual([
      'booking.amended',
      'booking.confirmed',
    ]);
    expect(await lockOf(booking)).toBeUndefined();
    const again = await advanceAmendment(deps(), booking.agentGroupId, booking.bookingRef, amendment!.amendmentId);
    expect(again).toEqual(amendment);
    await assertBookingInvariants(booking.agentGroupId);
  });

  const compensationSteps: AmendmentStep[] = ['begun', 'channel-modified', 'rows-rewritten', 'compensating', 'channel-restored', 'rows-restored'];
  it.each(compensationSteps)('converges to COMPENSATED, everything as before, after a failure past the channel and a crash right after %s', async (step) => {
    // prepare
    const t = await tenant();
    const booking = await confirmed(t);
    const nights = [await units(world.instant, '2027-03-02'), await units(world.instant, '2027-03-03')];

    // act
    await expect(applyExtension(booking, deps({ afterAmendmentStep: dieAfter(step) }, 'amendment-fails'))).rejects.toThrow(ProcessDied);
    await sweep();

    // assess
    const [amendment] = await amendmentsOf(booking);
    expect(amendment).toMatchObject({
      status: 'COMPENSATED',
      failure: { reasonCode: 'AMENDMENT_FAILED' },
      steps: { channelModified: true, rowsRewritten: true, adjusted: false, channelRestored: true, rowsRestored: true },
    });
    const after = await reload(booking);
    expect(after).toMatchObject({ checkIn: booking.checkIn, checkOut: booking.checkOut, chargedTotal: NIGHT_TOTAL, amendingId: null, lastAmendment: null });
    expect(after.items).toEqual(booking.items);
    expect(after.summary).toEqual(booking.summary);
    expect(await adjustments(booking)).toEqual([]);
    expect([await units(world.instant, '2027-03-02'), await units(world.instant, '2027-03-03')]).toEqual(nights);
    expect(await reservation(booking)).toMatchObject({ checkIn: booking.checkIn, checkOut: booking.checkOut });
    expect(await lockOf(booking)).toBeUndefined();
    await assertBookingInvariants(booking.agentGroupId);
  });

  it('answers a failure past the channel with 409 AMENDMENT_FAILED once compensated, the record saying why', async () => {
    // prepare
    const t = await tenant();
    const booking = await confirmed(t);
    // act
    const err = await applyExtension(booking, deps({}, 'amendment-fails')).catch((e: unknown) => e);
    // assess
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ code: 'AMENDMENT_FAILED', details: { reasonCode: 'AMENDMENT_FAILED' } });
    expect((await amendmentsOf(booking))[0]).toMatchObject({ status: 'COMPENSATED' });
  });
});

describe('The worked money example of docs/amendments.md', () => {
  it("charges the change at today's rates and absorbs the drift since booking", async () => {
    // prepare: two nights booked at 5,000 + 5 % (10,500); then the rate for two adults rises to 5,200
    const t = await tenant();
    const booking = await confirmed(t, world.instant, { checkIn: '2027-03-08', checkOut: '2027-03-10' });
    const propertyId = world.propertyOf(world.instant);
    await syncCatalogue(syncDeps(svc), {
      version: 1,
      catalogue: { rates: [{ propertyId, from: '2027-03-08', to: '2027-03-10', mealPlan: 'EP', adults: { '1': 4_000, '2': 5_200 } }] },
    });

    // act: a third night
    const quote = await quoteAmendment(deps(), t.principal, booking.bookingId!, { checkOut: '2027-03-11' });
    const reply = await applyExtension(booking, deps(), { checkOut: '2027-03-11' });

    // assess
    expect(booking.chargedTotal).toBe(10_500_00);
    expect(quote.pricing).toMatchObject({
      current: { stay: 10_400_00, discount: 0, meals: 0, vas: 0, tax: 520_00, total: 10_920_00 },
      amended: { stay: 15_600_00, discount: 0, meals: 0, vas: 0, tax: 780_00, total: 16_380_00 },
      delta: { stay: 5_200_00, discount: 0, meals: 0, vas: 0, tax: 260_00, total: 5_460_00 },
    });
    expect(reply.amendment.money).toEqual({
      previousTotal: 10_500_00,
      amendmentDelta: 5_460_00,
      rateDriftAbsorbed: 420_00,
      newTotal: 15_960_00,
      delta: 5_460_00,
    });
    expect(reply.amendment.warnings).toEqual([
      'Rates for the booked stay have risen by 420.00 INR since it was charged; that drift is absorbed, not passed on.',
    ]);
    expect(await reload(booking)).toMatchObject({ amount: 10_500_00, chargedTotal: 15_960_00, summary: { grandTotal: 16_380_00 } });
    expect(await adjustments(booking)).toEqual([expect.objectContaining({ amount: 5_460_00 })]);
  });
});

describe('Amendment refusals racing the credit gate (the rules before anything is written: test/unit/amendment-rules.test.ts)', () => {
  it('compensates and answers 402 when a racing booking used the credit between the check and the adjustment', async () => {
    // prepare: room for one more night; a second booking takes it after the rows are rewritten
    const t = await tenant(2 * NIGHT_TOTAL + 100_00);
    const booking = await confirmed(t);
    const racing = async (s: AmendmentStep) => {
      if (s === 'rows-rewritten') await confirmed(t, world.instant, { checkIn: '2027-03-06', checkOut: '2027-03-07' });
    };
    // act
    const err = await applyExtension(booking, deps({ afterAmendmentStep: racing })).catch((e: unknown) => e);
    // assess
    expect(err).toBeInstanceOf(CreditDeniedError);
    expect(err).toMatchObject({ reasonCode: 'CREDIT_LIMIT_EXCEEDED', availableCredit: 100_00 });
    expect((await amendmentsOf(booking))[0]).toMatchObject({ status: 'COMPENSATED', failure: { reasonCode: 'CREDIT_LIMIT_EXCEEDED' } });
    expect(await reload(booking)).toMatchObject({ checkOut: booking.checkOut, chargedTotal: NIGHT_TOTAL });
    expect(await adjustments(booking)).toEqual([]);
    await assertBookingInvariants(booking.agentGroupId);
  });
});

describe('Amendment idempotency and races', () => {
  it('lets exactly one of two racing amendments apply, 20 times over; the other is told to re-quote', async () => {
    const t = await tenant(1_000_000_00);
    for (let trial = 0; trial < 20; trial++) {
      // prepare: both requests read the booking before either writes, as two partners quoting the same version would
      const booking = await confirmed(t);
      let arrived = 0;
      let release!: () => void;
      const bothRead = new Promise<void>((r) => (release = r));
      const base = deps();
      const racing = deps({
        bookingReads: {
          byBookingId: async (g, id) => {
            const read = await base.bookingReads.byBookingId(g, id);
            if (++arrived === 2) release();
            await bothRead;
            return read;
          },
        },
      });
      // act
      const outcomes = await Promise.allSettled([applyExtension(booking, racing, { checkOut: '2027-03-04' }), applyExtension(booking, racing, { adults: 1 })]);
      // assess
      const applied = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(applied, `trial ${trial}`).toHaveLength(1);
      expect(refused[0]!.reason).toMatchObject({ code: 'AMENDMENT_CONFLICT' });
      const records: Amendment[] = await amendmentsOf(booking);
      expect(records.filter((a) => a.status === 'APPLIED')).toHaveLength(1);
      expect(await lockOf(booking)).toBeUndefined();
    }
    await assertBookingInvariants(t.group.agentGroupId);
  }, 240_000);
});

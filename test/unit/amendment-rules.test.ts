import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { advanceAmendment, applyAmendment, quoteAmendment } from '../../domain/bookings/amend-booking.ts';
import type { AmendmentCommand, AmendmentStep } from '../../domain/bookings/amendment.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import { placeBooking } from '../../domain/bookings/place-booking.ts';
import { diffCatalogue, emptyStoredCatalogue } from '../../domain/catalogue/catalogue-diff.ts';
import type { CreditTerms } from '../../domain/ledger/ledger.ts';
import { CreditDeniedError } from '../../domain/ledger/credit-errors.ts';
import { createOrder, type OrderDeps } from '../../domain/orders/manage-orders.ts';
import { noMetrics } from '../../domain/ports/metrics.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { worldCatalogue } from '../../domain/world/world-catalogue.ts';
import { withAmendmentScenario, withBookingScenario, type AmendmentScenario } from '../../domain/sandbox/workflow-scenarios.ts';
import { parseWorldShape } from '../../domain/world/world-schema.ts';
import type { BookingDeps } from '../../infra/container.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { derivedId } from '../../infra/crypto/derived-id.ts';
import { testOrigin } from '../support/audit-origin.ts';
import { bookingWorldInput, guest, stay, type BookingWorld } from '../support/booking-world.ts';
import { CONTRACT_TIMINGS } from '../support/contracts/property-system-contract.ts';
import { InMemoryAmendmentStore } from '../support/memory/in-memory-amendment-store.ts';
import { InMemoryBookingStore } from '../support/memory/in-memory-booking-store.ts';
import { InMemoryCatalogue } from '../support/memory/in-memory-catalogue.ts';
import { InMemoryCreditLedger } from '../support/memory/in-memory-credit-ledger.ts';
import { InMemoryOrderStore } from '../support/memory/in-memory-order-store.ts';
import { InMemoryPropertySystem } from '../support/memory/in-memory-property-system.ts';
import { ManualClock } from '../support/memory/in-memory-test-clock-store.ts';

/*
 * The amendment rules (refusals before anything is written, the money of an increase or a
 * decrease, replays) on in-memory ports: the booking world of
 * test/integration/amendment-workflow.test.ts, 5,000 + 5 % GST a night, 100 units. What needs
 * DynamoDB's conditions and transactions (crashes and the sweeper, compensation, real races)
 * stays in that file.
 */
const AT = '2027-01-10T09:00:00.000Z';
const NIGHT_TOTAL = 5_250_00;
const EXTEND: AmendmentCommand = { checkOut: '2027-03-04' };

let world: BookingWorld;
let catalogue: InMemoryCatalogue;
let deps: BookingDeps & OrderDeps;
const terms = new Map<string, CreditTerms>();
let ledger: InMemoryCreditLedger;
let bookings: InMemoryBookingStore;
let amendments: InMemoryAmendmentStore;
let propertySystem: InMemoryPropertySystem;

beforeAll(async () => {
  const built = bookingWorldInput({ slow: { mode: 'CONFIRM_IMMEDIATELY', refusesChanges: true }, never: { mode: 'CONFIRM_IMMEDIATELY', cannotModify: true } });
  world = built.world;
  catalogue = new InMemoryCatalogue();
  await catalogue.save(diffCatalogue(emptyStoredCatalogue(), worldCatalogue(parseWorldShape(built.input)), AT).writes);
  const clock = new ManualClock(AT);
  ledger = new InMemoryCreditLedger((g) => terms.get(g));
  bookings = new InMemoryBookingStore(ledger, catalogue);
  amendments = new InMemoryAmendmentStore(bookings, ledger, catalogue);
  propertySystem = new InMemoryPropertySystem(catalogue, clock, CONTRACT_TIMINGS);
  deps = {
    catalogue,
    clock,
    orders: new InMemoryOrderStore(),
    ids: { uuid: randomUUID },
    orderValidityMinutes: 30,
    bookings,
    bookingReads: {
      byBookingId: async (g, bookingId) => {
        const ref = await bookings.refOf(g, bookingId);
        return ref === undefined ? undefined : bookings.get(g, ref);
      },
    },
    amendments,
    queue: { send: async () => undefined },
    propertySystem,
    ledger,
    urlGuard: { assertAllowed: async () => undefined },
    timings: { windowSeconds: CONTRACT_TIMINGS.windowSeconds, watchSeconds: 600 },
    syncWaitMs: 0,
    publishCallback: async () => undefined,
    metrics: noMetrics,
    derivedId,
    sha256: sha256Hex,
    sleep: async () => undefined,
  };
});

function tenant(creditLimit = 50_000_00): AgentGroupPrincipal {
  const agentGroupId = `group-${randomUUID()}`;
  terms.set(agentGroupId, { creditLimit, onHold: false });
  return { kind: 'agent-group', agentGroupId, partnerId: 'partner-1', channelId: world.channelId, keyId: 'k', keyPrefix: 'k' };
}

/** A CONFIRMED booking of `listingId` for the nights given, units taken. */
async function confirmed(t: AgentGroupPrincipal, listingId = world.instant, nights = { checkIn: '2027-03-02', checkOut: '2027-03-03' }): Promise<Booking> {
  const order = await createOrder(deps, t, { request: stay(listingId, nights.checkIn, nights.checkOut) });
  const reply = await placeBooking(
    deps,
    t,
    { orderId: order.orderId, externalBookingId: randomUUID(), acceptedTotal: order.pricing.summary.grandTotal, primaryGuest: guest, additionalGuests: [] },
    testOrigin(),
  );
  expect(reply.booking).toMatchObject({ status: 'CONFIRMED', steps: { inventoryTaken: true } });
  return reply.booking;
}

const adjustments = async (b: Booking) => (await ledger.audit(b.agentGroupId)).entries.filter((e) => e.type === 'ADJUSTMENT');
const amendmentsOf = (b: Booking) => amendments.list(b.agentGroupId, b.bookingRef);
const applyExtension = (t: AgentGroupPrincipal, b: Booking, cmd: AmendmentCommand = EXTEND, d: BookingDeps = deps) =>
  applyAmendment(d, t, b.bookingId!, cmd, testOrigin());
/** The extension as a sandbox request with X-Test-Scenario `scenario` makes it (the in-memory simulator is the book); its error. */
const applyWithScenario = (t: AgentGroupPrincipal, b: Booking, scenario: AmendmentScenario, d: BookingDeps = deps) =>
  applyExtension(
    t,
    b,
    EXTEND,
    withAmendmentScenario(d, scenario, () => propertySystem),
  ).catch((e: unknown) => e);

/** Units left on a night of a listing's first property. */
async function units(listingId: string, date: string): Promise<number> {
  const [month] = await catalogue.getMonths([{ propertyId: world.propertyOf(listingId), month: date.slice(0, 7) }]);
  return month!.days[date.slice(8)]!.inventory!.quantity;
}

describe("Amendment pricing: the order's bank offer", () => {
  it('drops an offer the amended stay no longer qualifies for, with a warning, not an error', async () => {
    // prepare: a 10 % offer from two nights, booked for two nights
    const t = tenant();
    const offer = {
      channelId: world.channelId,
      code: 'TWONIGHTS',
      title: 'Two nights or more',
      discountType: 'PERCENTAGE' as const,
      percent: 10,
      minNights: 2,
    };
    const { offers } = worldCatalogue(parseWorldShape({ version: 1, catalogue: { offers: [offer] } }));
    await catalogue.save({ ...emptyStoredCatalogue(), offers: offers.map((o) => ({ ...o, createdAt: AT, updatedAt: AT })) });
    const order = await createOrder(deps, t, { request: { ...stay(world.instant, '2027-03-06', '2027-03-08'), bankOfferCode: 'TWONIGHTS' } });
    const placed = await placeBooking(
      deps,
      t,
      { orderId: order.orderId, externalBookingId: randomUUID(), acceptedTotal: order.pricing.summary.grandTotal, primaryGuest: guest, additionalGuests: [] },
      testOrigin(),
    );

    // act: down to one night
    const reply = await applyExtension(t, placed.booking, { checkOut: '2027-03-07' });

    // assess: 2 × 5,000 less 10 % = 9,000 + 5 % = 9,450 booked; one night without the offer 5,250
    expect(placed.booking.chargedTotal).toBe(9_450_00);
    expect(reply.amendment.money).toEqual({ previousTotal: 9_450_00, amendmentDelta: -4_200_00, rateDriftAbsorbed: 0, newTotal: 5_250_00, delta: -4_200_00 });
    expect(reply.amendment.warnings).toEqual([expect.stringMatching(/^Bank offer TWONIGHTS no longer applies \(.*\); the stay is priced without it\.$/)]);
    expect(reply.amendment.after.summary.bankOffer).toBeNull();
  });
});

describe('Amendment refusals', () => {
  it('changes nothing at all when the channel manager refuses: not the booking row, not the ledger, not the units', async () => {
    // prepare
    const t = tenant();
    const booking = await confirmed(t, world.slow);
    const ledgerBefore = (await ledger.audit(booking.agentGroupId)).entries;
    const secondNight = await units(world.slow, '2027-03-03');
    // act
    const err = await applyExtension(t, booking).catch((e: unknown) => e);
    // assess
    expect(err).toMatchObject({ code: 'CHANNEL_REFUSED', details: { reasonCode: 'CHANNEL_REFUSED' } });
    expect(await bookings.get(booking.agentGroupId, booking.bookingRef)).toEqual(booking);
    expect((await ledger.audit(booking.agentGroupId)).entries).toEqual(ledgerBefore);
    expect(await units(world.slow, '2027-03-03')).toBe(secondNight);
    expect(await amendmentsOf(booking)).toEqual([
      expect.objectContaining({ status: 'REFUSED', failure: expect.objectContaining({ reasonCode: 'CHANNEL_REFUSED' }) }),
    ]);
    expect(await amendments.lockOf(booking.agentGroupId, booking.bookingRef)).toBeUndefined();
  });

  it('refuses a booking on an issued invoice: the quote says INVOICED, the apply is 409 BOOKING_INVOICED', async () => {
    // prepare: what invoicing writes when it issues an invoice holding the booking
    const t = tenant();
    const booking = await confirmed(t);
    const invoiced: Booking = { ...booking, invoicedIn: ['8a6f7d0e-5a1b-4c1e-9d59-3b8f8e9d1c11'], version: booking.version + 1 };
    expect(await bookings.update(booking, invoiced)).toBe(true);
    // act
    const quote = await quoteAmendment(deps, t, booking.bookingId!, EXTEND);
    const err = await applyExtension(t, invoiced).catch((e: unknown) => e);
    // assess
    expect(quote).toMatchObject({ amendable: false, reason: 'INVOICED' });
    expect(err).toMatchObject({ code: 'BOOKING_INVOICED', details: { invoiceIds: invoiced.invoicedIn } });
    expect(await amendmentsOf(booking)).toEqual([]);
    expect(await adjustments(booking)).toEqual([]);
  });

  it('quotes CHANNEL_CANNOT_MODIFY and refuses to apply with 409 before the channel is asked', async () => {
    // prepare
    const t = tenant();
    const booking = await confirmed(t, world.never);
    // act
    const quote = await quoteAmendment(deps, t, booking.bookingId!, EXTEND);
    const err = await applyExtension(t, booking).catch((e: unknown) => e);
    // assess
    expect(quote).toMatchObject({ amendable: false, reason: 'CHANNEL_CANNOT_MODIFY' });
    expect(err).toMatchObject({ code: 'CHANNEL_CANNOT_MODIFY' });
    expect(await amendmentsOf(booking)).toEqual([]);
  });

  it('refuses an increase beyond the credit limit with 402 before anything is written or asked', async () => {
    // prepare: room for the first night only
    const t = tenant(NIGHT_TOTAL + 100_00);
    const booking = await confirmed(t);
    // act
    const err = await applyExtension(t, booking).catch((e: unknown) => e);
    // assess
    expect(err).toBeInstanceOf(CreditDeniedError);
    expect(err).toMatchObject({ reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: NIGHT_TOTAL - 100_00, availableCredit: 100_00 });
    expect(await amendmentsOf(booking)).toEqual([]);
    // The channel manager was never asked: its reservation still holds the booked stay.
    expect(propertySystem.reservationOf(booking.bookingRef)?.stay).toMatchObject({ checkIn: booking.checkIn, checkOut: booking.checkOut });
  });
});

describe('Amendment money', () => {
  it('answers an identical resend with the earlier amendment and alreadyApplied, moving no money again', async () => {
    // prepare
    const t = tenant();
    const booking = await confirmed(t);
    const first = await applyExtension(t, booking);
    // act
    const again = await applyExtension(t, booking);
    // assess
    expect(first.alreadyApplied).toBe(false);
    expect(again).toEqual({ amendment: first.amendment, alreadyApplied: true });
    expect(await adjustments(booking)).toHaveLength(1);
  });

  it('posts a decrease as a negative ADJUSTMENT without a credit check', async () => {
    // prepare: two nights on a group with no headroom left
    const t = tenant(2 * NIGHT_TOTAL);
    const booking = await confirmed(t, world.instant, { checkIn: '2027-03-02', checkOut: '2027-03-04' });
    // act
    const reply = await applyExtension(t, booking, { checkOut: '2027-03-03' });
    // assess
    expect(reply.amendment.money).toEqual({
      previousTotal: 2 * NIGHT_TOTAL,
      amendmentDelta: -NIGHT_TOTAL,
      rateDriftAbsorbed: 0,
      newTotal: NIGHT_TOTAL,
      delta: -NIGHT_TOTAL,
    });
    expect(await adjustments(booking)).toEqual([expect.objectContaining({ status: 'POSTED', amount: -NIGHT_TOTAL })]);
    expect(await ledger.creditPosition(booking.agentGroupId)).toMatchObject({ exposure: NIGHT_TOTAL, availableCredit: NIGHT_TOTAL });
  });
});

describe('Sandbox scenarios at the edge: recorded with the simulator, never on the booking or the amendment', () => {
  it('booking-failed: the booking stays PROCESSING on a listing that confirms at once, and carries no scenario; the next booking is unaffected', async () => {
    // prepare
    const t = tenant();
    const order = await createOrder(deps, t, { request: stay(world.instant, '2027-03-10', '2027-03-11') });
    const cmd = () => ({
      orderId: order.orderId,
      externalBookingId: randomUUID(),
      acceptedTotal: order.pricing.summary.grandTotal,
      primaryGuest: guest,
      additionalGuests: [],
    });

    // act
    const forced = await placeBooking(
      withBookingScenario(deps, 'booking-failed', () => propertySystem),
      t,
      cmd(),
      testOrigin(),
    );
    const plain = await placeBooking(deps, t, cmd(), testOrigin());

    // assess
    expect(forced.booking.status).toBe('PROCESSING');
    expect(await propertySystem.status(forced.booking.bookingRef)).toEqual({ state: 'PENDING', checkAgainAt: null });
    expect(Object.keys((await bookings.get(t.agentGroupId, forced.booking.bookingRef))!)).not.toContain('scenario');
    expect(plain.booking.status).toBe('CONFIRMED');
  });

  it('amendment-refused: the simulator refuses that amendment, nothing changes, the record carries no scenario; the next amendment applies', async () => {
    // prepare
    const t = tenant();
    const booking = await confirmed(t);

    // act
    const err = await applyWithScenario(t, booking, 'amendment-refused');
    const again = await applyExtension(t, booking);

    // assess
    expect(err).toMatchObject({ code: 'CHANNEL_REFUSED', details: { reasonCode: 'CHANNEL_REFUSED' } });
    const [refused] = await amendmentsOf(booking);
    expect(refused).toMatchObject({ status: 'REFUSED' });
    expect(refused).not.toHaveProperty('scenario');
    expect(again.amendment).toMatchObject({ status: 'APPLIED' });
  });

  it('amendment-fails: the channel accepts, then the adjust step fails and compensation restores everything; the record carries no scenario', async () => {
    // prepare
    const t = tenant();
    const booking = await confirmed(t);
    const nights = [await units(world.instant, '2027-03-02'), await units(world.instant, '2027-03-03')];

    // act
    const err = await applyWithScenario(t, booking, 'amendment-fails');

    // assess
    expect(err).toMatchObject({ code: 'AMENDMENT_FAILED', details: { reasonCode: 'AMENDMENT_FAILED' } });
    const [failed] = await amendmentsOf(booking);
    expect(failed).toMatchObject({
      status: 'COMPENSATED',
      failure: { reasonCode: 'AMENDMENT_FAILED', reason: 'Sandbox scenario amendment-fails: the step after the channel failed.' },
      steps: { channelModified: true, rowsRewritten: true, adjusted: false, channelRestored: true, rowsRestored: true },
    });
    expect(failed).not.toHaveProperty('scenario');
    expect(await bookings.get(t.agentGroupId, booking.bookingRef)).toMatchObject({ checkOut: booking.checkOut, chargedTotal: NIGHT_TOTAL, amendingId: null });
    expect(await adjustments(booking)).toEqual([]);
    expect([await units(world.instant, '2027-03-02'), await units(world.instant, '2027-03-03')]).toEqual(nights);
    expect(propertySystem.reservationOf(booking.bookingRef)?.stay).toMatchObject({ checkIn: booking.checkIn, checkOut: booking.checkOut });
  });

  const dieAfterRows = (step: AmendmentStep) => {
    if (step === 'rows-rewritten') throw new Error('process died after rows-rewritten');
  };

  it('amendment-fails survives its process: another driver without the header (the sweeper) reads it from the book at the adjust step', async () => {
    // prepare: the request's process dies once the rows are rewritten
    const t = tenant();
    const booking = await confirmed(t);
    const died = await applyWithScenario(t, booking, 'amendment-fails', { ...deps, afterAmendmentStep: dieAfterRows });
    const [pending] = await amendmentsOf(booking);

    // act
    const finished = await advanceAmendment(
      withAmendmentScenario(deps, undefined, () => propertySystem),
      t.agentGroupId,
      booking.bookingRef,
      pending!.amendmentId,
    );

    // assess
    expect(died).toEqual(new Error('process died after rows-rewritten'));
    expect(pending).toMatchObject({ status: 'PENDING', steps: { rowsRewritten: true, adjusted: false } });
    expect(finished).toMatchObject({
      status: 'COMPENSATED',
      failure: { reasonCode: 'AMENDMENT_FAILED' },
      steps: { channelRestored: true, rowsRestored: true },
    });
    expect(await adjustments(booking)).toEqual([]);
    expect(await bookings.get(t.agentGroupId, booking.bookingRef)).toMatchObject({ checkOut: booking.checkOut, chargedTotal: NIGHT_TOTAL, amendingId: null });
  });
});

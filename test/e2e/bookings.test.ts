import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { DELIVERY_STATUSES } from '../../domain/deliveries/delivery.ts';
import { checkCallbackSignature } from '../../events/booking-callback.ts';
import { book, guest, order, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { groupItems } from '../support/booking-invariant.ts';
import { seedNewBooking } from '../support/booking-seed.ts';
import { expectContract } from '../support/contract.ts';
import { call, newAgentGroup, testServices, uniqueId, type GroupFixture } from '../support/stack.ts';
import { pollUntil } from '../support/poll.ts';
import { startReceiver, type ReceivedRequest, type Receiver } from '../support/webhook-receiver.ts';

/*
 * POST /v1/bookings, cancellation and the workflow behind them, over HTTP against serverless
 * offline: the booking worker consumes the booking queue in fauxqs, callbacks reach a real
 * receiver. The test stage's booking window is 4 s and the synchronous wait 300 ms.
 */
/** Rupees with at most two decimals → paise. */
const fromRupees = (rupees: number): number => Math.round(rupees * 100);

let world: BookingWorld;
let receiver: Receiver;
/** A fresh group on the booking world's channel; the invariant checker looks at it after the file. */
const group = (overrides: Parameters<typeof newAgentGroup>[0] = {}) => newAgentGroup({ channelId: world.channelId, ...overrides });

beforeAll(async () => {
  [world, receiver] = await Promise.all([seedBookingWorld(), startReceiver()]);
}, 120_000);

afterAll(async () => {
  await receiver?.close();
});

const position = async (g: GroupFixture) => (await testServices().ledger.creditPosition(g.agentGroupId))!;
const entriesOf = async (g: GroupFixture) => (await testServices().ledger.audit(g.agentGroupId)).entries;
/** The group's callback deliveries as stored (status, attempts, when the next is due), for a failure's message. */
const callbackTrail = async (g: GroupFixture) =>
  (await Promise.all(DELIVERY_STATUSES.map((status) => testServices().deliveries.listByStatus(g.partnerId, status))))
    .flat()
    .filter((d) => d.kind === 'callback')
    .map((d) => ({
      status: d.status,
      eventType: d.eventType,
      attempts: d.attempts,
      nextAttemptAt: d.nextAttemptAt,
      requeues: d.requeues,
      createdAt: d.createdAt,
    }));
const feedRow = async (g: GroupFixture, externalBookingId: string) =>
  (await call('GET', `/v1/bookings?externalBookingIds=${externalBookingId}`, { key: g.apiKey })).body.data[0];

/**
 * Polls the feed until the booking leaves PROCESSING (and its workflow has settled). The bound is a
 * stall bound, not a speed check: a look lost under a loaded run waits for the sweeper (a minute's
 * grace on a one-minute schedule), as it did in a CI run; the workflow's tests carry a timeout above it.
 */
async function outcomeOf(g: GroupFixture, externalBookingId: string, timeoutMs = 180_000): Promise<{ status: string; bookingId: string | null }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await feedRow(g, externalBookingId);
    if (row && row.status !== 'PROCESSING') return row;
    if (Date.now() > deadline) throw new Error(`${externalBookingId} still ${row?.status ?? 'missing'}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Retries `read` until it returns something, for state a worker settles a moment later. */
async function eventually<T>(read: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** `expect` is the test's own, for the workflow's concurrent tests. */
function expectSigned(expect: ExpectStatic, req: ReceivedRequest, g: GroupFixture): void {
  expect(checkCallbackSignature(req.rawBody, g.signingSecret, String(req.headers['x-service-signature']), Math.floor(Date.now() / 1000))).toMatchObject({
    ok: true,
  });
  expect(req.headers['x-service-event-id']).toBe((req.body as { eventId: string }).eventId);
}

describe('POST /v1/bookings: a booking the property confirms at once', () => {
  it('answers 200 CREATED with the property-system id, posts the charge, takes the units and calls back booking.confirmed', async () => {
    // prepare
    const g = await group();
    const o = await order(g, stay(world.instant, '2027-03-02', '2027-03-04'));
    const before = await call('GET', `/v1/availability?listingIds=${world.instant}&from=2027-03-02&to=2027-03-03`, { key: g.apiKey });
    const path = `/cb/${uniqueId('created')}`;

    // act
    const res = await book(g, o, { callbackUrl: `${receiver.url}${path}`, externalBookingId: 'ext-created-1' });

    // assess
    expect(res.status).toBe(200);
    expectContract(res, 'createBooking');
    expect(res.body).toMatchObject({
      status: 'CREATED',
      bookingStatus: 'CONFIRMED',
      externalBookingId: 'ext-created-1',
      chargedAmount: o.total,
      availableCreditAfter: 50_000 - o.total,
    });
    expect(res.body.bookingId).toMatch(/^SIM-/);
    const [entry] = await entriesOf(g);
    expect(entry).toMatchObject({
      type: 'CHARGE',
      status: 'POSTED',
      bookingId: res.body.bookingId,
      externalBookingId: 'ext-created-1',
      amount: fromRupees(o.total),
    });
    const after = await call('GET', `/v1/availability?listingIds=${world.instant}&from=2027-03-02&to=2027-03-03`, { key: g.apiKey });
    const units = (body: any) =>
      body.data
        .flatMap((l: any) => l.properties)
        .find((p: any) => p.propertyId === world.propertyOf(world.instant))
        .days.map((d: any) => d.unitsAvailable);
    expect(units(after.body)).toEqual(units(before.body).map((n: number) => n - 1));
    const [callback] = await receiver.waitFor(path, 1, 20_000);
    expectSigned(expect, callback!, g);
    expect(callback!.body).toMatchObject({
      eventType: 'booking.confirmed',
      event: 'booking.confirmed',
      status: 'CONFIRMED',
      bookingId: res.body.bookingId,
      externalBookingId: 'ext-created-1',
      reasonCode: null,
    });
    const detail = await eventually(async () => {
      const d = await call('GET', `/v1/bookings/${res.body.bookingId}`, { key: g.apiKey });
      return d.body.callbacks[0]?.status === 'SUCCEEDED' ? d : undefined;
    });
    expectContract(detail, 'getBooking');
    expect(detail.body.callbacks).toEqual([
      expect.objectContaining({
        eventId: callback!.headers['x-service-event-id'],
        eventType: 'booking.confirmed',
        status: 'SUCCEEDED',
        attempts: [expect.objectContaining({ attempt: 1, statusCode: 204, outcome: 'success' })],
      }),
    ]);
    expect(detail.text).not.toContain(receiver.url);
  });

  it('replays an identical request as 200 ALREADY_EXISTS, charged once, adding only new guests', async () => {
    // prepare
    const g = await group();
    const o = await order(g, stay(world.instant));
    const body = {
      orderId: o.orderId,
      externalBookingId: uniqueId('ext'),
      acceptedTotal: o.total,
      primaryGuest: guest,
      additionalGuests: [{ firstName: 'Ravi' }],
    };
    const first = await call('POST', '/v1/bookings', { key: g.apiKey, body });

    // act
    const renamed = { ...guest, firstName: 'Ashwini' };
    const replay = await call('POST', '/v1/bookings', {
      key: g.apiKey,
      body: { ...body, primaryGuest: renamed, additionalGuests: [{ firstName: 'Ravi' }, { firstName: 'Meera', email: 'meera@example.com' }] },
    });
    const again = await call('POST', '/v1/bookings', { key: g.apiKey, body });

    // assess
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ status: 'ALREADY_EXISTS', bookingId: first.body.bookingId, code: first.body.code, chargedAmount: o.total });
    expect(again.body.status).toBe('ALREADY_EXISTS');
    expect((await entriesOf(g)).filter((e) => e.type === 'CHARGE')).toHaveLength(1);
    const detail = await call('GET', `/v1/bookings/${first.body.bookingId}`, { key: g.apiKey });
    expect(detail.body.primaryGuest.firstName).toBe('Asha');
    expect(detail.body.additionalGuests.map((a: { firstName: string }) => a.firstName)).toEqual(['Ravi', 'Meera']);
  });

  it('refuses the same externalBookingId with other contents: 409 without expectedTotal', async () => {
    // prepare
    const g = await group();
    const [o1, o2] = await Promise.all([order(g, stay(world.instant)), order(g, stay(world.instant, '2027-03-06', '2027-03-07'))]);
    const externalBookingId = uniqueId('ext');
    await book(g, o1, { externalBookingId });

    // act
    const res = await book(g, o2, { externalBookingId });

    // assess
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT' });
    expect(res.body).not.toHaveProperty('expectedTotal');
    expect(res.body).not.toHaveProperty('breakup');
    expect(await entriesOf(g)).toHaveLength(1);
  });

  it('keeps the same externalBookingId apart in two groups', async () => {
    // prepare
    const [g1, g2] = await Promise.all([group(), group()]);
    const [o1, o2] = await Promise.all([order(g1, stay(world.instant)), order(g2, stay(world.instant))]);

    // act
    const [r1, r2] = await Promise.all([book(g1, o1, { externalBookingId: 'shared-ref' }), book(g2, o2, { externalBookingId: 'shared-ref' })]);

    // assess
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(r1.body.bookingId).not.toBe(r2.body.bookingId);
  });
});

describe('POST /v1/bookings: refusals write nothing', () => {
  it('409 PRICE_MOVED with expectedTotal and breakup when acceptedTotal is not the current total', async () => {
    // prepare
    const g = await group();
    const o = await order(g, stay(world.instant));
    const before = await groupItems(g.agentGroupId);

    // act
    const res = await book(g, { ...o, total: o.total - 1 });

    // assess
    expect(res.status).toBe(409);
    expectContract(res, 'createBooking');
    expect(res.body).toMatchObject({
      code: 'PRICE_MOVED',
      param: 'acceptedTotal',
      expectedTotal: o.total,
      breakup: expect.objectContaining({ grandTotal: o.total }),
    });
    expect(await groupItems(g.agentGroupId)).toEqual(before);
  });

  it('409 PRICE_MOVED under the sandbox scenario price-moved, at the quoted total', async () => {
    // prepare
    const g = await group();
    const o = await order(g, stay(world.instant));

    // act
    const res = await book(g, o, {}, { 'X-Test-Scenario': 'price-moved' });

    // assess
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PRICE_MOVED');
    expect(res.body.expectedTotal).not.toBe(o.total);
    expect(await entriesOf(g)).toEqual([]);
  });

  it('409 SOLD_OUT for an order with a night that can no longer be sold; no credit is authorized', async () => {
    // prepare: the fixture stop-sells 2027-03-05
    const g = await group();
    const o = await order(g, stay(world.instant, '2027-03-05', '2027-03-06'));

    // act
    const res = await book(g, o);

    // assess
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SOLD_OUT');
    expect(res.body.message).toMatch(/closed to sale \(stop-sell\) on 2027-03-05/);
    expect(res.body.unavailableNights).toEqual([
      expect.objectContaining({ date: '2027-03-05', reason: 'STOP_SELL' }),
      expect.objectContaining({ date: '2027-03-05', reason: 'NOT_ENOUGH_UNITS' }),
    ]);
    expect(await entriesOf(g)).toEqual([]);
  });

  it('402 CREDIT_LIMIT_EXCEEDED with shortfall and availableCredit', async () => {
    // prepare
    const g = await group({ creditLimit: 1_000_00 });
    const o = await order(g, stay(world.instant));
    const before = await groupItems(g.agentGroupId);

    // act
    const res = await book(g, o);

    // assess
    expect(res.status).toBe(402);
    expectContract(res, 'createBooking');
    expect(res.body).toMatchObject({ code: 'CREDIT_DENIED', reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: o.total - 1_000, availableCredit: 1_000 });
    expect(await groupItems(g.agentGroupId)).toEqual(before);
  });

  it('402 ACCOUNT_ON_HOLD for a group on hold', async () => {
    // prepare
    const g = await group({ onHold: true });
    const o = await order(g, stay(world.instant));

    // act
    const res = await book(g, o);

    // assess
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ reasonCode: 'ACCOUNT_ON_HOLD', availableCredit: 50_000 });
    expect(res.body).not.toHaveProperty('shortfall');
  });

  it('404 for another group’s order, byte-identical to an unknown one', async () => {
    // prepare
    const [g, other] = await Promise.all([group(), group()]);
    const theirs = await order(other, stay(world.instant));

    // act
    const foreign = await book(g, theirs);
    const unknown = await book(g, { orderId: '00000000-0000-4000-8000-000000000000', total: theirs.total });

    // assess
    expect(foreign.status).toBe(404);
    const strip = (b: Record<string, unknown>) => ({ ...b, timestamp: undefined, path: undefined });
    expect(strip(foreign.body)).toEqual(strip(unknown.body));
    expect(await entriesOf(other)).toEqual([]);
  });

  it.each([
    ['externalBookingId', { externalBookingId: 'x'.repeat(65) }],
    ['externalBookingId', { externalBookingId: '' }],
    ['acceptedTotal', { acceptedTotal: 10.001 }],
    ['primaryGuest.lastName', { primaryGuest: { firstName: 'Asha', email: 'a@example.com' } }],
    ['primaryGuest.email', { primaryGuest: { firstName: 'Asha', lastName: 'Rao' } }],
    ['primaryGuest.email', { primaryGuest: { ...guest, email: 'not-an-email' } }],
    ['additionalGuests[0].firstName', { additionalGuests: [{ lastName: 'Rao' }] }],
    ['callbackUrl', { callbackUrl: 'not a url' }],
    ['callbackUrl', { callbackUrl: 'https://10.1.2.3/hook' }],
    ['callbackUrl', { callbackUrl: 'https://169.254.169.254/latest/meta-data' }],
    ['callbackUrl', { callbackUrl: 'https://[::ffff:192.168.1.1]/hook' }],
    ['orderId', { orderId: 'not-a-uuid' }],
    ['unexpected', { unexpected: true }],
  ])('400 naming %s', async (param, patch) => {
    // prepare
    const g = await group();
    const o = await order(g, stay(world.instant));

    // act
    const res = await book(g, o, patch);

    // assess
    expect(res.status).toBe(400);
    expect(res.body.param).toBe(param);
    expect(await entriesOf(g)).toEqual([]);
  });

  it('400 naming X-Test-Scenario for an unknown scenario', async () => {
    const g = await group();
    const o = await order(g, stay(world.instant));
    const res = await book(g, o, {}, { 'X-Test-Scenario': 'explode' });
    expect(res.status).toBe(400);
    expect(res.body.param).toBe('X-Test-Scenario');
  });

  it('401 without a key', async () => {
    const res = await call('POST', '/v1/bookings', { body: {} });
    expect(res.status).toBe(401);
  });
});

// Its tests wait on the stack's real-time booking window and watch and share nothing but the booking world's
// listings (100 units a night, which none of them counts): they run side by side (docs/local-development.md, "Test tiers").
describe.concurrent('the booking workflow', { timeout: 400_000 }, () => {
  it('PROCESSING then CONFIRMED (world file: confirm after 1.5 s): 202 with bookingId null, then the feed and callback say CONFIRMED', async ({ expect }) => {
    // prepare
    const g = await group();
    const o = await order(g, stay(world.slow));
    const path = `/cb/${uniqueId('slow')}`;
    const externalBookingId = uniqueId('ext');

    // act
    const res = await book(g, o, { externalBookingId, callbackUrl: `${receiver.url}${path}` });

    // assess
    expect(res.status).toBe(202);
    expectContract(res, 'createBooking');
    expect(res.body).toMatchObject({ status: 'PROCESSING', bookingId: null, bookingStatus: 'PROCESSING', chargedAmount: o.total });
    expect((await entriesOf(g))[0]).toMatchObject({ status: 'AUTHORIZED', bookingId: null, externalBookingId });
    const replay = await book(g, o, { externalBookingId, callbackUrl: `${receiver.url}${path}` });
    expect([200, 202]).toContain(replay.status);
    const landed = await outcomeOf(g, externalBookingId);
    expect(landed.status).toBe('CONFIRMED');
    const [callback] = await receiver.waitFor(path, 1, 180_000);
    expect(callback!.body).toMatchObject({ eventType: 'booking.confirmed', bookingId: landed.bookingId });
    expect((await entriesOf(g))[0]).toMatchObject({ status: 'POSTED', bookingId: landed.bookingId });
    const settledReplay = await book(g, o, { externalBookingId, callbackUrl: `${receiver.url}${path}` });
    expect(settledReplay.body).toMatchObject({ status: 'ALREADY_EXISTS', bookingId: landed.bookingId });
  });

  it('X-Test-Scenario booking-processing answers 202 and lands after the call', async ({ expect }) => {
    const g = await group();
    const o = await order(g, stay(world.instant));
    const externalBookingId = uniqueId('ext');
    const res = await book(g, o, { externalBookingId }, { 'X-Test-Scenario': 'booking-processing' });
    expect(res.status).toBe(202);
    expect((await outcomeOf(g, externalBookingId)).status).toBe('CONFIRMED');
  });

  it('FAILED when the property never confirms (world file): authorization released, booking.failed with BOOKING_NOT_COMPLETED', async ({ expect }) => {
    // prepare
    const g = await group();
    const o = await order(g, stay(world.never));
    const path = `/cb/${uniqueId('never')}`;
    const externalBookingId = uniqueId('ext');

    // act
    const res = await book(g, o, { externalBookingId, callbackUrl: `${receiver.url}${path}` });

    // assess
    expect(res.status).toBe(202);
    expect((await outcomeOf(g, externalBookingId)).status).toBe('FAILED');
    const [callback] = await receiver.waitFor(path, 1, 180_000).catch(async (err: Error) => {
      // Should the delivery's message be lost again (docs/local-development.md, second offline servers), say where the callback stands.
      throw new Error(`${err.message}; the group's callbacks: ${JSON.stringify(await callbackTrail(g))}`);
    });
    expectSigned(expect, callback!, g);
    expect(callback!.body).toMatchObject({
      eventType: 'booking.failed',
      event: 'booking.failed',
      status: 'FAILED',
      reasonCode: 'BOOKING_NOT_COMPLETED',
      bookingId: null,
      externalBookingId,
    });
    // The delivery records the answer it got: SUCCEEDED at its first attempt.
    const delivered = await eventually(async () => (await callbackTrail(g)).find((d) => d.status === 'SUCCEEDED'));
    expect(delivered).toMatchObject({ eventType: 'booking.failed', attempts: [expect.objectContaining({ attempt: 1 })] });
    expect((await entriesOf(g))[0]).toMatchObject({ status: 'RELEASED' });
    expect(await position(g)).toMatchObject({ exposure: 0, availableCredit: 50_000_00 });
    const replay = await book(g, o, { externalBookingId, callbackUrl: `${receiver.url}${path}` });
    expect(replay.body).toMatchObject({ status: 'ALREADY_EXISTS', bookingStatus: 'FAILED', bookingId: null, chargedAmount: 0 });
  });

  it('a late landing (X-Test-Scenario booking-late) turns FAILED into CONFIRMED and posts the charge', async ({ expect }) => {
    // prepare
    const g = await group();
    const o = await order(g, stay(world.instant));
    const path = `/cb/${uniqueId('late')}`;
    const externalBookingId = uniqueId('ext');

    // act
    const res = await book(g, o, { externalBookingId, callbackUrl: `${receiver.url}${path}` }, { 'X-Test-Scenario': 'booking-late' });

    // assess
    expect(res.status).toBe(202);
    // The record is the verdict: CONFIRMED inside the watch, with its failure kept, and both callbacks
    // published in that order. The bound is a stall bound, not a speed check: a look lost under a loaded
    // run is recovered by the sweeper (a minute's grace on a one-minute schedule), so it exceeds two
    // minutes. How soon a callback reaches the receiver is the delivery tests' business: only its order is checked.
    const row = await pollUntil(
      'the late landing',
      async () => {
        const r = await feedRow(g, externalBookingId);
        return r?.status === 'CONFIRMED' ? r : undefined;
      },
      { tries: 720 },
    );
    const booking = (await call('GET', `/v1/bookings/${row.bookingId}`, { key: g.apiKey })).body;
    const published = await pollUntil('the confirmed callback published', async () => {
      const b = (await call('GET', `/v1/bookings/${row.bookingId}`, { key: g.apiKey })).body as { callbacks: { eventType: string; eventId: string }[] };
      return b.callbacks.length === 2 ? b.callbacks : undefined;
    });
    expect(published.map((c) => c.eventType)).toEqual(['booking.failed', 'booking.confirmed']);
    expect(new Set(published.map((c) => c.eventId)).size).toBe(2);
    expect(booking).toMatchObject({ status: 'CONFIRMED', bookingId: row.bookingId, failure: { reasonCode: 'BOOKING_NOT_COMPLETED' } });
    // Whatever has been delivered is one of the two published events, and its occurredAt puts the failure first. Arrival order is
    // not promised (docs/callbacks.md: order by occurredAt): a failed callback whose first attempt stalls under a loaded run can
    // reach the receiver after the confirmation, as it did in a CI run.
    const received = receiver.requests.filter((r) => r.path === path).map((r) => r.body as { eventId: string; eventType: string; occurredAt: string });
    for (const r of received) expect(published).toContainEqual(expect.objectContaining({ eventId: r.eventId, eventType: r.eventType }));
    const occurred = new Map(received.map((r) => [r.eventType, r.occurredAt]));
    if (occurred.size === 2) expect(occurred.get('booking.failed')! < occurred.get('booking.confirmed')!).toBe(true);
    expect((await entriesOf(g))[0]).toMatchObject({ status: 'POSTED', bookingId: row.bookingId });
    expect((await position(g)).exposure).toBe(fromRupees(o.total));
    // vitest's default 30 s would end the test before its own bounds could.
  }, 480_000);
});

describe('races', () => {
  it('50 parallel bookings against a limit for 7 never exceed it', async () => {
    // prepare
    const probe = await group();
    const unit = (await order(probe, stay(world.instant))).total;
    const g = await group({ creditLimit: fromRupees(unit * 7 + unit / 2) });
    const orders = await Promise.all(Array.from({ length: 50 }, () => order(g, stay(world.instant))));

    // act
    const results = await Promise.all(orders.map((o) => book(g, o)));

    // assess
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 402)).toHaveLength(43);
    const pos = await position(g);
    expect(pos.exposure).toBe(fromRupees(unit * 7));
    expect(pos.availableCredit).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it('20 parallel identical requests make one booking and one charge', async () => {
    // prepare
    const g = await group();
    const o = await order(g, stay(world.instant));
    const body = { orderId: o.orderId, externalBookingId: uniqueId('ext'), acceptedTotal: o.total, primaryGuest: guest };

    // act
    const results = await Promise.all(Array.from({ length: 20 }, () => call('POST', '/v1/bookings', { key: g.apiKey, body })));

    // assess
    expect(results.every((r) => r.status === 200 || r.status === 202)).toBe(true);
    expect(new Set(results.map((r) => r.body.code)).size).toBe(1);
    expect(results.filter((r) => r.body.status === 'CREATED')).toHaveLength(1);
    expect(await entriesOf(g)).toHaveLength(1);
    expect((await position(g)).exposure).toBe(fromRupees(o.total));
  }, 60_000);
});

describe('cancellation', () => {
  it('quotes, then cancels with the policy refund, a REFUND entry, the units back and booking.cancelled; again is the same answer', async () => {
    // prepare
    const g = await group();
    const o = await order(g, stay(world.instant, '2027-03-07', '2027-03-08'));
    const path = `/cb/${uniqueId('cancel')}`;
    const booked = await book(g, o, { callbackUrl: `${receiver.url}${path}` });
    const bookingId = booked.body.bookingId as string;
    await receiver.waitFor(path, 1, 20_000);
    const availability = async () =>
      (await call('GET', `/v1/availability?listingIds=${world.instant}&from=2027-03-07&to=2027-03-07`, { key: g.apiKey })).body.data[0].properties.find(
        (p: any) => p.propertyId === world.propertyOf(world.instant),
      ).days[0].unitsAvailable;
    const unitsBooked = await availability();

    // act
    const quote = await call('GET', `/v1/bookings/${bookingId}/cancellation-quote`, { key: g.apiKey });
    const cancelled = await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey, body: { reason: 'Guest changed plans' } });
    const again = await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey });

    // assess
    expect(quote.status).toBe(200);
    expectContract(quote, 'getCancellationQuote');
    expect(quote.body).toMatchObject({ cancellable: true, refundPercentage: 100, refundAmount: o.total, chargedAmount: o.total, appliesUntil: '2027-02-28' });
    expect(cancelled.status).toBe(200);
    expectContract(cancelled, 'cancelBooking');
    expect(cancelled.body).toMatchObject({
      bookingId,
      status: 'CANCELLED',
      alreadyCancelled: false,
      cancellation: { refundPercentage: 100, refundAmount: o.total, reason: 'Guest changed plans' },
    });
    expect(again.body).toEqual({ ...cancelled.body, alreadyCancelled: true });
    const refund = (await entriesOf(g)).find((e) => e.type === 'REFUND');
    expect(refund).toMatchObject({ status: 'POSTED', amount: -fromRupees(o.total), bookingId });
    expect((await position(g)).exposure).toBe(0);
    const [, callback] = await receiver.waitFor(path, 2, 20_000);
    expect(callback!.body).toMatchObject({ eventType: 'booking.cancelled', status: 'CANCELLED', bookingId, reason: 'Guest changed plans' });
    expect(await availability()).toBe(unitsBooked + 1);
    const row = await feedRow(g, booked.body.externalBookingId);
    expect(row).toMatchObject({ status: 'CANCELLED', outstandingAmount: 0 });
  });

  it('409 for a stay that has begun; the quote says why and nothing changes', async () => {
    // prepare: a landed booking whose check-in is past, written straight into the table (no order can be made for a past date)
    const g = await group();
    const started = await seedNewBooking(g, { checkIn: '2026-11-01', checkOut: '2026-12-01' });

    // act
    const quote = await call('GET', `/v1/bookings/${started.bookingId}/cancellation-quote`, { key: g.apiKey });
    const res = await call('POST', `/v1/bookings/${started.bookingId}/cancel`, { key: g.apiKey });

    // assess
    expect(quote.body).toMatchObject({ cancellable: false, refundAmount: 0, reason: expect.stringContaining('2026-11-01') });
    expect(res.status).toBe(409);
    expectContract(res, 'cancelBooking');
    expect((await call('GET', `/v1/bookings/${started.bookingId}`, { key: g.apiKey })).body.status).toBe('CONFIRMED');
  });

  it('404 for another group’s booking, identical to an unknown id, on cancel and quote', async () => {
    const [g, other] = await Promise.all([group(), group()]);
    const theirs = await book(other, await order(other, stay(world.instant)));
    const foreign = await call('POST', `/v1/bookings/${theirs.body.bookingId}/cancel`, { key: g.apiKey });
    const unknown = await call('POST', '/v1/bookings/SIM-NOSUCHBOOKING/cancel', { key: g.apiKey });
    const quote = await call('GET', `/v1/bookings/${theirs.body.bookingId}/cancellation-quote`, { key: g.apiKey });
    expect([foreign.status, unknown.status, quote.status]).toEqual([404, 404, 404]);
    expect(foreign.body.message).toBe(unknown.body.message);
    expect((await feedRow(other, theirs.body.externalBookingId)).status).toBe('CONFIRMED');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, guest, order, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { controlFakeChannex, withOutage, type Outage } from '../support/fake-channex.ts';
import { pollUntil } from '../support/poll.ts';
import { call, newAgentGroup, stack, uniqueId, type GroupFixture } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

/*
 * Bookings out to Channex over HTTP on the shared stack: its listings are connected to
 * Channex (world file simulator.channelManager: channex), so the stack's Channex adapter
 * pushes their revisions to the fake Channex the global setup runs, while every other
 * test's listings stay on the simulator. The booking world sells 5,000 a night before GST.
 * Its "slow" listing's connection cannot modify; its "never" listing is refused by Channex.
 * Outages and refusals are per hotel, so no other test file's bookings see them.
 */
let world: BookingWorld;
let g: GroupFixture;
let receiver: Receiver;
const channex = (control: Parameters<typeof controlFakeChannex>[1]) => controlFakeChannex(stack().channexUrl, control);
const revisionsOf = async (hotelCode: string) => (await channex({ bookingsOf: hotelCode })).bookings;
const attemptsFor = async (hotelCode: string) => (await channex({ bookingsOf: hotelCode })).attempts;
const outage = <T>(mode: Outage, fn: () => Promise<T>) => withOutage(stack().channexUrl, world.instant, mode, fn);

beforeAll(async () => {
  receiver = await startReceiver();
  world = await seedBookingWorld({
    instant: { mode: 'CONFIRM_IMMEDIATELY', channelManager: 'channex' },
    slow: { mode: 'CONFIRM_IMMEDIATELY', channelManager: 'channex', cannotModify: true },
    never: { mode: 'CONFIRM_IMMEDIATELY', channelManager: 'channex' },
  });
  g = await newAgentGroup({ channelId: world.channelId });
}, 120_000);
afterAll(() => receiver?.close());

const detail = (bookingId: string) => call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey });
const statusOf = async (bookingId: string) => (await detail(bookingId)).body.status as string;
const settledAs = (bookingId: string, status: string) =>
  pollUntil(`booking ${bookingId} ${status}`, async () => ((await statusOf(bookingId)) === status ? true : undefined));

/** The booking's row in the partner feed, by our externalBookingId: a 202 PROCESSING answer carries no bookingId yet. */
const rowOf = async (externalBookingId: string) =>
  (await call('GET', `/v1/bookings?externalBookingIds=${externalBookingId}`, { key: g.apiKey })).body.data[0] as
    | { status: string; bookingId: string | null }
    | undefined;
const rowAs = (externalBookingId: string, status: string) =>
  pollUntil(`booking ${externalBookingId} ${status}`, async () => {
    const row = await rowOf(externalBookingId);
    return row?.status === status ? row : undefined;
  });

/** A booking over HTTP, once CONFIRMED: its bookingId (a 202 PROCESSING answer has none yet, so it is looked up in the feed). */
async function booked(listingId: string, checkIn: string, checkOut: string): Promise<string> {
  const externalBookingId = uniqueId('ext');
  const res = await book(g, await order(g, stay(listingId, checkIn, checkOut)), { externalBookingId });
  expect([200, 202]).toContain(res.status);
  return res.body.bookingId ?? (await rowAs(externalBookingId, 'CONFIRMED')).bookingId!;
}

/** The revisions of one reservation the fake accepted, once there are `count`. */
const revisions = (hotelCode: string, count: number, reservationId?: string) =>
  pollUntil(`${count} Channex revisions`, async () => {
    const all = (await revisionsOf(hotelCode)).filter((r) => reservationId === undefined || r.reservation_id === reservationId);
    return all.length >= count ? all : undefined;
  });

const nightsOf = (revision: Record<string, any>) =>
  revision.rooms.flatMap((r: { days: { date: string; price: string }[] }) => r.days.map((d) => [d.date, d.price]));

describe('Channex outbound over HTTP (the shared stack and its fake Channex)', () => {
  it('pushes a booking as a new revision, an amendment as modified, a failed amendment back as modified, and a cancellation as cancelled', async () => {
    const bookingId = await booked(world.instant, '2027-03-02', '2027-03-03');
    await settledAs(bookingId, 'CONFIRMED');
    const [created] = await revisions(world.instant, 1);
    const reservationId = created!.reservation_id;
    expect(created).toMatchObject({
      status: 'new',
      hotel_code: world.instant,
      arrival_date: '2027-03-02',
      departure_date: '2027-03-03',
      currency: 'INR',
      payment_collect: 'ota',
      customer: { name: guest.firstName, surname: guest.lastName, mail: guest.email },
    });
    expect(created!.guarantee).toBeUndefined();
    // Our own platform's booking: no ota_name (Channex requires it only for a third-party OTA's bookings).
    expect(created).not.toHaveProperty('ota_name');
    expect(nightsOf(created!)).toEqual([['2027-03-02', '5000.00']]);
    expect(created!.rooms[0]).toMatchObject({ room_type_code: world.propertyOf(world.instant), occupancy: { adults: 2, children: 0, infants: 0 } });

    const amended = await call('POST', `/v1/bookings/${bookingId}/amendments`, { key: g.apiKey, body: { checkOut: '2027-03-04' } });
    expect(amended.status).toBe(200);
    const [, modified] = await revisions(world.instant, 2, reservationId);
    expect(modified).toMatchObject({ status: 'modified', arrival_date: '2027-03-02', departure_date: '2027-03-04', customer: { surname: guest.lastName } });
    expect(nightsOf(modified!)).toEqual([
      ['2027-03-02', '5000.00'],
      ['2027-03-03', '5000.00'],
    ]);

    // The step after the channel fails: the amendment is compensated, Channex gets the stay as it was.
    const failed = await call('POST', `/v1/bookings/${bookingId}/amendments`, {
      key: g.apiKey,
      body: { checkOut: '2027-03-05' },
      headers: { 'X-Test-Scenario': 'amendment-fails' },
    });
    expect(failed.status).toBe(409);
    expect(failed.body.code).toBe('AMENDMENT_FAILED');
    const [, , tried, restored] = await revisions(world.instant, 4, reservationId);
    expect([tried!.status, tried!.departure_date, restored!.status, restored!.departure_date]).toEqual(['modified', '2027-03-05', 'modified', '2027-03-04']);
    expect(nightsOf(restored!)).toEqual(nightsOf(modified!));

    const cancelled = await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey });
    expect(cancelled.status).toBe(200);
    const [, , , , last] = await revisions(world.instant, 5, reservationId);
    expect(last).toMatchObject({ status: 'cancelled', arrival_date: '2027-03-02', departure_date: '2027-03-04', reservation_id: reservationId });
  }, 120_000);

  it("books once when Channex took the booking but its answer was lost: Channex's bookings list is read, and the booking is not pushed again", async () => {
    const externalBookingId = uniqueId('ext');
    // The fake keeps the booking and drops its answer once; a second `new` would be a second booking there.
    await channex({ outage: { hotelCode: world.instant, mode: 'answer-lost-once' } });
    const res = await book(g, await order(g, stay(world.instant, '2027-03-08', '2027-03-09')), { externalBookingId });
    expect([200, 202]).toContain(res.status);
    const landed = await rowAs(externalBookingId, 'CONFIRMED');
    const pushed = (await revisionsOf(world.instant)).filter((r) => r.arrival_date === '2027-03-08');
    expect(pushed.map((r) => r.status)).toEqual(['new']);
    expect((await channex({ readsOn: '2027-03-08' })).reads).toBeGreaterThanOrEqual(1);
    expect(await statusOf(landed.bookingId!)).toBe('CONFIRMED');
  }, 120_000);

  it('refuses an amendment Channex refuses with 409 CHANNEL_REFUSED and changes nothing', async () => {
    const bookingId = await booked(world.instant, '2027-03-09', '2027-03-10');
    const before = (await detail(bookingId)).body;
    await channex({ refuse: { hotelCode: world.instant, title: 'Rate plan is closed' } });
    let res;
    try {
      res = await call('POST', `/v1/bookings/${bookingId}/amendments`, { key: g.apiKey, body: { checkOut: '2027-03-11' } });
    } finally {
      await channex({ refuse: { hotelCode: world.instant, title: null } });
    }
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CHANNEL_REFUSED');
    expect(res.text).not.toContain('Rate plan is closed');
    const after = (await detail(bookingId)).body;
    expect(after).toMatchObject({ status: 'CONFIRMED', checkIn: before.checkIn, checkOut: before.checkOut, totalAmount: before.totalAmount });
    expect(after.amendments.map((a: { status: string }) => a.status)).toEqual(['REFUSED']);
    expect((await revisionsOf(world.instant)).filter((r) => r.arrival_date === '2027-03-09').map((r) => r.status)).toEqual(['new']);
  }, 120_000);

  // Last, side by side (docs/local-development.md, "Test tiers"): the outage waits out the real-time booking window and
  // the watch on this file's instant listing, and the two beside it touch only the never and slow listings (the fake's
  // outages and refusals are per hotel); every test that changes how Channex treats the instant listing runs before.
  it.concurrent('keeps a booking PROCESSING while Channex is down, fails it at the end of its window, and lands it late once Channex is back', async ({
    expect,
  }) => {
    const externalBookingId = uniqueId('ext');
    await outage('unavailable', async () => {
      const res = await book(g, await order(g, stay(world.instant, '2027-03-06', '2027-03-07')), { externalBookingId });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ status: 'PROCESSING', bookingStatus: 'PROCESSING', bookingId: null, externalBookingId });
      // The test stage's 4 s window closes with Channex still answering 503: FAILED, the workflow having asked again meanwhile.
      await rowAs(externalBookingId, 'FAILED');
      expect(await attemptsFor(world.instant)).toBeGreaterThan(1);
    });
    // The watch keeps pushing the stored revision (30 s on the test stage): it lands late, as one booking.
    const landed = await rowAs(externalBookingId, 'CONFIRMED');
    const pushed = (await revisionsOf(world.instant)).filter((r) => r.arrival_date === '2027-03-06');
    expect(pushed.map((r) => r.status)).toEqual(['new']);
    expect(pushed[0]).toMatchObject({ departure_date: '2027-03-07', customer: { surname: guest.lastName } });
    expect(landed.bookingId).toEqual(expect.any(String));
    expect(await statusOf(landed.bookingId!)).toBe('CONFIRMED');
  }, 120_000);

  it.concurrent("fails a booking Channex refuses at once with CHANNEL_REFUSED (booking.failed says so) and keeps Channex's words out of what the partner sees", async ({
    expect,
  }) => {
    await channex({ refuse: { hotelCode: world.never, title: 'Hotel is not mapped' } });
    const path = `/cb/${uniqueId('refused')}`;
    const externalBookingId = uniqueId('ext');
    const res = await book(g, await order(g, stay(world.never, '2027-03-02', '2027-03-03')), { externalBookingId, callbackUrl: `${receiver.url}${path}` });
    // Refused on the first push: CHANNEL_REFUSED (the window's end would say BOOKING_NOT_COMPLETED), one push only.
    expect([200, 202]).toContain(res.status);
    expect(res.body.bookingId).toBeNull();
    const [callback] = await receiver.waitFor(path, 1, 60_000);
    expect(callback!.body).toMatchObject({ eventType: 'booking.failed', status: 'FAILED', reasonCode: 'CHANNEL_REFUSED', externalBookingId, bookingId: null });
    expect(JSON.stringify(callback!.body)).not.toContain('Hotel is not mapped');
    expect(await revisionsOf(world.never)).toEqual([]);
    expect(await attemptsFor(world.never)).toBe(1);
    expect((await rowOf(externalBookingId))?.status).toBe('FAILED');
  }, 120_000);

  it.concurrent('answers CHANNEL_CANNOT_MODIFY on the quote and the amendment for a listing whose Channex connection cannot modify, and pushes nothing', async ({
    expect,
  }) => {
    const bookingId = await booked(world.slow, '2027-03-02', '2027-03-03');
    await settledAs(bookingId, 'CONFIRMED');
    const quote = await call('PATCH', `/v1/bookings/${bookingId}`, { key: g.apiKey, body: { checkOut: '2027-03-04' } });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ amendable: false, reason: 'CHANNEL_CANNOT_MODIFY' });
    const res = await call('POST', `/v1/bookings/${bookingId}/amendments`, { key: g.apiKey, body: { checkOut: '2027-03-04' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CHANNEL_CANNOT_MODIFY');
    expect((await detail(bookingId)).body).toMatchObject({ status: 'CONFIRMED', checkOut: '2027-03-03' });
    expect((await revisionsOf(world.slow)).map((r) => r.status)).toEqual(['new']);
  }, 120_000);
});

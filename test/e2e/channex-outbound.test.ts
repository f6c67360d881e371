import { beforeAll, describe, expect, it } from 'vitest';
import { book, guest, order, seedBookingWorld, stay, type BookingWorld } from '../support/booking-world.ts';
import { controlFakeChannex } from '../support/fake-channex.ts';
import { pollUntil } from '../support/poll.ts';
import { call, newAgentGroup, stack, type GroupFixture } from '../support/stack.ts';

/*
 * Bookings out to Channex over HTTP on the shared stack: its listings are connected to
 * Channex (world file simulator.channelManager: channex), so the stack's Channex adapter
 * pushes their revisions to the fake Channex the global setup runs, while every other
 * test's listings stay on the simulator. The booking world sells 5,000 a night before GST.
 * Its "slow" listing's connection cannot modify; its "never" listing is refused by Channex.
 */
let world: BookingWorld;
let g: GroupFixture;
const channex = (control: Parameters<typeof controlFakeChannex>[1]) => controlFakeChannex(stack().channexUrl, control);
const revisionsOf = (hotelCode: string) => channex({ bookingsOf: hotelCode });

beforeAll(async () => {
  world = await seedBookingWorld({
    instant: { mode: 'CONFIRM_IMMEDIATELY', channelManager: 'channex' },
    slow: { mode: 'CONFIRM_IMMEDIATELY', channelManager: 'channex', cannotModify: true },
    never: { mode: 'CONFIRM_IMMEDIATELY', channelManager: 'channex' },
  });
  g = await newAgentGroup({ channelId: world.channelId });
}, 120_000);

const detail = (bookingId: string) => call('GET', `/v1/bookings/${bookingId}`, { key: g.apiKey });
const statusOf = async (bookingId: string) => (await detail(bookingId)).body.status as string;
const settledAs = (bookingId: string, status: string) => pollUntil(`booking ${bookingId} ${status}`, async () => ((await statusOf(bookingId)) === status ? true : undefined));

/** A booking over HTTP; its bookingId once the answer is in (CONFIRMED at once, or PROCESSING). */
async function booked(listingId: string, checkIn: string, checkOut: string): Promise<string> {
  const res = await book(g, await order(g, stay(listingId, checkIn, checkOut)));
  expect([200, 202]).toContain(res.status);
  return res.body.bookingId;
}

/** The revisions of one reservation the fake accepted, once there are `count`. */
const revisions = (hotelCode: string, count: number, reservationId?: string) =>
  pollUntil(`${count} Channex revisions`, async () => {
    const all = (await revisionsOf(hotelCode)).filter((r) => reservationId === undefined || r.reservation_id === reservationId);
    return all.length >= count ? all : undefined;
  });

const nightsOf = (revision: Record<string, any>) => revision.rooms.flatMap((r: { days: { date: string; price: string }[] }) => r.days.map((d) => [d.date, d.price]));

describe('Channex outbound over HTTP (the shared stack and its fake Channex)', () => {
  it('pushes a booking as a new revision, an amendment as modified, a failed amendment back as modified, and a cancellation as cancelled', async () => {
    const bookingId = await booked(world.instant, '2027-03-02', '2027-03-03');
    await settledAs(bookingId, 'CONFIRMED');
    const [created] = await revisions(world.instant, 1);
    const reservationId = created!.reservation_id;
    expect(created).toMatchObject({ status: 'new', hotel_code: world.instant, arrival_date: '2027-03-02', departure_date: '2027-03-03', currency: 'INR', payment_collect: 'ota', customer: { name: guest.firstName, surname: guest.lastName, mail: guest.email } });
    expect(created!.guarantee).toBeUndefined();
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
    const failed = await call('POST', `/v1/bookings/${bookingId}/amendments`, { key: g.apiKey, body: { checkOut: '2027-03-05' }, headers: { 'X-Test-Scenario': 'amendment-fails' } });
    expect(failed.status).toBe(409);
    expect(failed.body.code).toBe('AMENDMENT_FAILED');
    const [, , tried, restored] = await revisions(world.instant, 4, reservationId);
    expect([tried!.status, tried!.departure_date, restored!.status, restored!.departure_date]).toEqual(['modified', '2027-03-05', 'modified', '2027-03-04']);
    expect(nightsOf(restored!)).toEqual(nightsOf(modified!));

    const cancelled = await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey });
    expect(cancelled.status).toBe(200);
    const [, , , , last] = await revisions(world.instant, 5, reservationId);
    expect(last).toMatchObject({ status: 'cancelled', arrival_date: '2027-03-02', departure_date: '2027-03-04', reservation_id: reservationId });
  });
});

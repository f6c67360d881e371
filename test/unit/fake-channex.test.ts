import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKINGS_PATH, NEW_BOOKING_PATH, startFakeChannex, type FakeChannex } from '../support/fake-channex.ts';
import { pushBookingExample } from '../support/open-channel-examples.ts';

/*
 * The fake Channex held to Channex's documented behaviour over HTTP (docs/conformance/channex.md):
 * the Open Channel page's own Push Booking example is accepted, each field the page marks
 * [required] is refused when missing (422, the API Reference's errors object), nothing is
 * de-duplicated, and the Bookings List answers with its documented filters and pagination.
 */
const KEY = 'open_channel_api_key';
const READ_KEY = 'user_api_key';
let channex: FakeChannex;

beforeAll(async () => {
  // No service behind it: these tests only push to the fake and read from it.
  channex = await startFakeChannex({
    outboundKey: KEY,
    providerCode: 'OpenChannel',
    serviceEndpoint: 'http://127.0.0.1:9',
    inboundKey: 'unused',
    userApiKey: READ_KEY,
  });
});
afterAll(() => channex?.close());

const push = async (body: unknown, key: string | null = KEY) => {
  const res = await fetch(`${channex.url}${NEW_BOOKING_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'api-key': key }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const list = async (query: string, key = READ_KEY) => {
  const res = await fetch(`${channex.url}${BOOKINGS_PATH}?${query}`, { headers: { 'user-api-key': key } });
  return { status: res.status, body: (await res.json()) as any };
};
const ofReservation = async (reservationId: string, arrival: string) =>
  (await list(`filter[arrival_date][gte]=${arrival}&filter[arrival_date][lte]=${arrival}&pagination[limit]=100`)).body.data.filter(
    (b: any) => b.attributes.ota_reservation_code === reservationId,
  );

describe('fake Channex: Push Booking API', () => {
  it("accepts the Open Channel page's Push Booking example as printed (card guarantee, deposits, a Fee service) and holds it as a booking", async () => {
    const res = await push(pushBookingExample('hotel-example', 'room-1', 'room-1:EP', 'example-1'));
    expect(res).toEqual({ status: 200, body: { meta: { message: 'Success' } } });
    const [held] = await ofReservation('example-1', '2019-05-09');
    expect(held).toMatchObject({ type: 'booking', attributes: { status: 'new', ota_name: 'OpenChannel', arrival_date: '2019-05-09', currency: 'GBP' } });
    expect(held.attributes.rooms[0].days).toEqual({ '2019-05-09': '100.00' });
  });

  it('refuses a push without the api-key (401) and each field the page marks [required] when missing (422 naming it)', async () => {
    expect(await push(pushBookingExample('h', 'r', 'r:EP', 'x'), null)).toEqual({
      status: 401,
      body: { errors: { code: 'unauthorized', title: 'Unauthorized' } },
    });
    for (const field of ['status', 'provider_code', 'hotel_code', 'arrival_date', 'departure_date', 'currency', 'rooms']) {
      const body = pushBookingExample('h', 'r', 'r:EP', `missing-${field}`);
      delete body.booking[field];
      const res = await push(body);
      expect(res.status, field).toBe(422);
      expect(res.body.errors).toMatchObject({ code: 'validation_error', title: 'Validation Error' });
      expect(JSON.stringify(res.body.errors.details), field).toContain(field);
    }
    const noSurname = pushBookingExample('h', 'r', 'r:EP', 'no-surname');
    delete noSurname.booking.customer.surname;
    expect((await push(noSurname)).status).toBe(422);
    const badService = pushBookingExample('h', 'r', 'r:EP', 'bad-service');
    badService.booking.services[0].excluded = 'yes';
    expect(JSON.stringify((await push(badService)).body.errors.details)).toContain('excluded is a boolean');
  });

  it('keeps a second `new` with the same reservation_id as a second booking (Channex documents no de-duplication); a modified revision updates the latest', async () => {
    const example = pushBookingExample('hotel-twice', 'r', 'r:EP', 'twice-1');
    example.booking.arrival_date = '2019-06-01';
    example.booking.departure_date = '2019-06-02';
    expect((await push(example)).status).toBe(200);
    expect((await push(example)).status).toBe(200);
    const twice = await ofReservation('twice-1', '2019-06-01');
    expect(twice).toHaveLength(2);
    expect(new Set(twice.map((b: any) => b.id)).size).toBe(2);
    expect((await push({ booking: { ...example.booking, status: 'modified', departure_date: '2019-06-03' } })).status).toBe(200);
    const after = await ofReservation('twice-1', '2019-06-01');
    expect(after.map((b: any) => [b.id, b.attributes.status, b.attributes.departure_date])).toEqual([
      [twice[0].id, 'new', '2019-06-02'],
      [twice[1].id, 'modified', '2019-06-03'],
    ]);
  });
});

describe('fake Channex: Bookings List', () => {
  it('filters by arrival_date, departure_date and inserted_at with the documented operators, pages 10 by default and at most 100, and refuses a wrong user-api-key', async () => {
    for (let i = 0; i < 12; i++) {
      const b = pushBookingExample('hotel-list', 'r', 'r:EP', `list-${i}`);
      b.booking.arrival_date = '2019-07-01';
      b.booking.departure_date = i < 3 ? '2019-07-02' : '2019-07-05';
      expect((await push(b)).status).toBe(200);
    }
    const day = 'filter[arrival_date][gte]=2019-07-01&filter[arrival_date][lte]=2019-07-01';
    const first = await list(day);
    expect(first.body.meta).toEqual({ page: 1, limit: 10, total: 12 });
    expect(first.body.data).toHaveLength(10);
    expect((await list(`${day}&pagination[page]=2`)).body.data.map((b: any) => b.attributes.ota_reservation_code)).toEqual(['list-10', 'list-11']);
    expect((await list('filter[arrival_date]=2019-07-01&filter[departure_date][lt]=2019-07-03')).body.meta.total).toBe(3);
    expect((await list('filter[arrival_date]=2019-07-01&filter[departure_date][not]=2019-07-02')).body.meta.total).toBe(9);
    expect((await list('filter[arrival_date][gt]=2019-07-01&filter[arrival_date][lt]=2019-07-02')).body.meta.total).toBe(0);
    expect((await list('filter[inserted_at][gte]=2000-01-01T00:00:00&filter[arrival_date]=2019-07-01')).body.meta.total).toBe(12);
    expect((await list('pagination[limit]=101')).status).toBe(400);
    expect(await list(day, 'wrong')).toEqual({ status: 401, body: { errors: { code: 'unauthorized', title: 'Unauthorized' } } });
  });
});

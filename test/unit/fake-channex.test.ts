import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKINGS_PATH, NEW_BOOKING_PATH, startFakeChannex, type FakeChannex } from '../support/fake-channex.ts';
import { pushBookingExample } from '../support/open-channel-examples.ts';
import { phpFixture } from '../support/php-fixtures.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

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

describe("fake Channex: the public PHP implementation's booking fixtures (test/fixtures/channex)", () => {
  it("replays the PHP implementation's booking fixtures: its valid booking is held, its invalid status and empty rooms refused naming the field", async () => {
    const valid = phpFixture('booking-from-array.json');
    expect((await push(valid.body)).status).toBe(200);
    expect(channex.held.at(-1)!.revision).toEqual(valid.body.booking);
    for (const [name, field] of [
      ['booking-invalid-status.json', 'status must be new, modified or cancelled'],
      ['booking-empty-rooms.json', 'rooms is required'],
    ] as const) {
      const refused = await push(phpFixture(name).body);
      expect(refused.status, name).toBe(422);
      expect(refused.body.errors.details.booking, name).toContain(field);
    }
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

describe('fake Channex: the changes it generates from a property it holds', () => {
  // Our side, as a recorder: its mapping_details lists a per_person plan, a per_room plan and a read_only plan.
  let ours: Receiver;
  let sender: FakeChannex;
  const mapping = {
    data: {
      type: 'mapping_details',
      attributes: {
        room_types: [
          {
            id: 'villa',
            title: 'Villa',
            rate_plans: [
              { id: 'villa:EP', title: 'Room only', sell_mode: 'per_person', max_persons: 3, currency: 'INR', read_only: false },
              { id: 'villa:FLAT', title: 'Flat', sell_mode: 'per_room', max_persons: 4, currency: 'INR', read_only: false },
              { id: 'villa:RO', title: 'Sold elsewhere', sell_mode: 'per_person', max_persons: 2, currency: 'INR', read_only: true },
            ],
          },
        ],
      },
    },
  };
  beforeAll(async () => {
    ours = await startReceiver();
    const json = (body: unknown) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    ours.respond('/cm/test_connection/', () => json({ success: true }));
    ours.respond('/cm/mapping_details/', () => json(mapping));
    ours.respond('/cm/changes/', () => json({ success: true, unique_id: 'u' }));
    sender = await startFakeChannex({ outboundKey: KEY, providerCode: 'OpenChannel', serviceEndpoint: `${ours.url}/cm`, inboundKey: 'inbound-key' });
    await sender.connect('H1', {
      window: { from: '2027-01-01', to: '2027-01-10' },
      countOfRooms: 10,
      rate: (_room, _plan, occupancy) => `${1000 * occupancy}.00`,
    });
  });
  afterAll(() => Promise.all([ours?.close(), sender?.close()]));

  it('maps what mapping_details lists after test_connection, signed with api-key and asking by hotel_code', () => {
    const gets = ours.requests.filter((r) => !r.path.startsWith('/cm/changes/'));
    expect(gets.map((r) => r.path)).toEqual(['/cm/test_connection/?hotel_code=H1', '/cm/mapping_details/?hotel_code=H1']);
    for (const r of gets) expect(r.headers['api-key']).toBe('inbound-key');
  });

  it("sends an operator's change as one changes_notification: per_person rates for each occupancy, paise kept, the plan's whole state in runs of equal days", async () => {
    const pushed = await sender.operator('H1').updateRatePlan('villa', 'villa:EP', '2027-01-02', '2027-01-04', { rates: { 1: '150.50' }, stop_sell: true });
    const received = ours.to('/cm/changes/').at(-1)!;
    expect(received.headers['api-key']).toBe('inbound-key');
    expect(received.body).toEqual({
      data: [{ type: 'changes_notification', attributes: { request_id: pushed!.requestId, hotel_code: 'H1', changes: pushed!.changes } }],
    });
    expect(pushed!.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(pushed!.changes).toEqual([
      {
        type: 'restriction_changes',
        attributes: {
          rate_plan_id: 'villa:EP',
          room_type_id: 'villa',
          date_from: '2027-01-02',
          date_to: '2027-01-04',
          rates: [
            { rate: '3000.00', currency: 'INR', fraction_size: 2, occupancy: 3 },
            { rate: '2000.00', currency: 'INR', fraction_size: 2, occupancy: 2 },
            { rate: '150.50', currency: 'INR', fraction_size: 2, occupancy: 1 },
          ],
          stop_sell: true,
          closed_to_arrival: false,
          closed_to_departure: false,
          min_stay_arrival: 1,
          min_stay_through: 1,
          max_stay: 0,
        },
      },
    ]);
    // A change across days that now differ comes as one change per run of equal days.
    const wider = await sender.operator('H1').updateRatePlan('villa', 'villa:EP', '2027-01-01', '2027-01-05', { min_stay_arrival: 2 });
    expect(wider!.changes.map((c) => [c.attributes.date_from, c.attributes.date_to, c.attributes.stop_sell])).toEqual([
      ['2027-01-01', '2027-01-01', false],
      ['2027-01-02', '2027-01-04', true],
      ['2027-01-05', '2027-01-05', false],
    ]);
  });

  it('sends a per_room plan its max_persons rate only, nothing for a read_only plan, and availability up to its own count of rooms', async () => {
    const flat = await sender.operator('H1').updateRatePlan('villa', 'villa:FLAT', '2027-01-03', '2027-01-03', { rates: { 4: '9000.00' } });
    expect(flat!.changes[0]!.attributes.rates).toEqual([{ rate: '9000.00', currency: 'INR', fraction_size: 2, occupancy: 4 }]);
    const before = ours.to('/cm/changes/').length;
    expect(await sender.operator('H1').updateRatePlan('villa', 'villa:RO', '2027-01-03', '2027-01-03', { stop_sell: true })).toBeUndefined();
    expect(ours.to('/cm/changes/').length).toBe(before);
    const avail = await sender.operator('H1').setAvailability('villa', '2027-01-06', '2027-01-07', 10);
    expect(avail.changes).toEqual([
      {
        type: 'availability_changes',
        attributes: { room_type_id: 'villa', rate_plan_id: 'villa:EP', date_from: '2027-01-06', date_to: '2027-01-07', availability: 10 },
      },
    ]);
    await expect(sender.operator('H1').setAvailability('villa', '2027-01-06', '2027-01-06', 11)).rejects.toThrow(/0\.\.10/);
    await expect(sender.operator('H1').updateRatePlan('villa', 'villa:EP', '2027-01-06', '2027-01-06', { rates: { 1: '150.5' } })).rejects.toThrow(
      /2 decimals/,
    );
  });
});

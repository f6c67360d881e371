import { randomUUID } from 'node:crypto';
import { ChannexProperty, type MappedRatePlan, type MappedRoom, type PlanDay, type PlanUpdate } from './fake-channex-property.ts';
import type { CallResult } from './stack.ts';
import { startReceiver, type ReceivedRequest, type Receiver } from './webhook-receiver.ts';

/**
 * A contract-faithful Channex on a local port, for tests. It plays both of Channex's sides
 * of the Open Channel API (docs.channex.io "For OTA → Open Channel API"; the copy in
 * github.com/gungcahyadipp/channex-open-channel, docs_channex.md):
 *
 * - it pushes ARI into the service as Channex does: `changes_notification`s POSTed to
 *   `<endpoint>/changes/` with the `api-key` header ("Changes API"), and calls
 *   `test_connection/` and `mapping_details/` with `?hotel_code=` ("Test Connection
 *   endpoint", "Mapping details endpoint"). A connected property (connect()) is mapped from our
 *   `mapping_details/` and keeps its own ARI; an operator's change of it (operator()) is sent as
 *   the notification Channex generates from that state (fake-channex-property.ts);
 * - it receives what the service pushes and records it: booking revisions at
 *   `/api/v1/channel_webhooks/open_channel/new_booking` ("Push Booking API") and full-sync
 *   requests at `…/request_full_sync` ("Request Full Sync"), both authenticated by `api-key`.
 *
 * Answers: the Open Channel page documents no answer body for a pushed booking; Channex's
 * API reference ("API Reference" → "Errors") says a success carries `data` or `meta` and an
 * error an `errors` object with `code` and `title`, 4xx for a request that cannot succeed
 * and 5xx for Channex's own trouble (retry). The fake answers in those shapes.
 *
 * Bookings: every accepted `new` revision is a booking of its own (Channex documents no
 * de-duplication of a repeated `new`, so the fake does none); a `modified` or `cancelled`
 * revision becomes the latest revision of the hotel's last booking with that reservation_id
 * ("Each Booking at Channex is a representation of latest known Booking Revision", Bookings
 * Collection). They are read back as Channex documents its Bookings List (docs.channex.io,
 * "API v.1 → Bookings Collection → Bookings List"): `GET /api/v1/bookings` signed by the
 * `user-api-key` header ("API Reference → Authentication"), filtered by
 * `filter[arrival_date|departure_date|inserted_at][eq|gt|gte|lt|lte|not]` ("Filter Examples";
 * "API Reference → Filtering data arguments") and paged by `pagination[page]`/`pagination[limit]`
 * (10 by default, at most 100: "API Reference → Pagination"); each booking carries
 * `ota_reservation_code`, the reservation code at the platform where it was made: ours.
 */
export const OPEN_CHANNEL_PATH = '/api/v1/channel_webhooks/open_channel';
export const NEW_BOOKING_PATH = `${OPEN_CHANNEL_PATH}/new_booking`;
export const FULL_SYNC_PATH = `${OPEN_CHANNEL_PATH}/request_full_sync`;
/** "Bookings Collection → Bookings List". */
export const BOOKINGS_PATH = '/api/v1/bookings';

/** Not Channex's: the tests' control of the shared fake (see control()). */
export const CONTROL_PATH = '/_fake/control';

/**
 * How Channex fails one hotel's pushes (per hotel, so a test's outage touches no other test):
 * `unavailable` answers 503 (Channex's trouble), `dropped` closes the connection unanswered
 * and keeps nothing (down, or a timeout before Channex read it), `answer-lost` keeps every
 * booking and then closes the connection (Channex has it, the sender cannot know), and
 * `answer-lost-once` does so for the next push only, then the outage ends. A second `new`
 * is a second booking (nothing documented makes it the same one): the sender must find out.
 */
export type Outage = 'unavailable' | 'dropped' | 'answer-lost' | 'answer-lost-once';

export interface FakeChannexControl {
  readonly down?: boolean;
  /** One hotel's outage starts (a mode) or ends (null). */
  readonly outage?: { readonly hotelCode: string; readonly mode: Outage | null };
  /** Channex starts refusing a hotel's pushes with this title (422), or stops (null). */
  readonly refuse?: { readonly hotelCode: string; readonly title: string | null };
  /** Answers the booking revisions accepted for this hotel, in order, and how many pushes it got. */
  readonly bookingsOf?: string;
  /** Answers how many Bookings List reads asked for this arrival date. */
  readsOn?: string;
}

/** Controls the fake at `url` (the shared stack's, in the global setup's process) over HTTP. */
export async function controlFakeChannex(
  url: string,
  control: FakeChannexControl,
): Promise<{ bookings: Record<string, any>[]; attempts: number; reads: number }> {
  const res = await fetch(`${url}${CONTROL_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(control) });
  if (res.status !== 200) throw new Error(`fake Channex control answered ${res.status}`);
  return (await res.json()) as { bookings: Record<string, any>[]; attempts: number; reads: number };
}

/** Runs `fn` while one hotel's pushes fail as `mode` on the fake at `url`; the outage ends however `fn` ends. */
export async function withOutage<T>(url: string, hotelCode: string, mode: Outage, fn: () => Promise<T>): Promise<T> {
  await controlFakeChannex(url, { outage: { hotelCode, mode } });
  try {
    return await fn();
  } finally {
    await controlFakeChannex(url, { outage: { hotelCode, mode: null } });
  }
}

export interface FakeChannexOptions {
  /** The key the service must send (our channel's Open Channel API key). */
  readonly outboundKey: string;
  /** The provider_code the service must send ("OpenChannel" under test, per the page). */
  readonly providerCode: string;
  /** The service's inbound base URL (`…/channel-manager/channex`) and the key Channex sends it. */
  readonly serviceEndpoint: string;
  readonly inboundKey: string;
  /** The key of Channex's own API (`user-api-key`) the service reads bookings with. */
  readonly userApiKey?: string;
}

export type ChangeBody = { type: 'availability_changes' | 'restriction_changes'; attributes: Record<string, unknown> };

/** The service's answer to a notification, as `call` answers (so expectContract can check it), with what was sent. */
export interface Pushed extends CallResult<any> {
  readonly requestId: string;
  /** The changes the notification carried. */
  readonly changes: readonly ChangeBody[];
}

/** What the user sets up in Channex for a property before mapping it to our hotel_code. */
export interface PropertySetup {
  /** The dates the property holds ARI for (full syncs stream them all). */
  readonly window: { readonly from: string; readonly to: string };
  /** Channex's count of rooms per room type (ours may differ): one number for all, or per room type id. */
  readonly countOfRooms: number | Readonly<Record<string, number>>;
  /** Each mapped plan's first rate for an occupancy, as a decimal string. */
  readonly rate: (room: string, plan: string, occupancy: number) => string;
  /** A rate plan's currency in Channex (by its id) when it is not the one our mapping_details names. */
  readonly currencyOf?: Readonly<Record<string, string>>;
  /**
   * Mappings made earlier onto ids our mapping_details no longer lists (a room or rate plan removed
   * on our side): a room of its own, or more rate plans of a listed room.
   */
  readonly earlierMapping?: readonly MappedRoom[];
}

/** An operator's hand on a connected property in Channex: each change is POSTed as Channex sends it. */
export interface ChannexOperator {
  setAvailability(room: string, from: string, to: string, availability: number): Promise<Pushed>;
  /** Undefined for a read_only plan: Channex sends no updates for it. */
  updateRatePlan(room: string, plan: string, from: string, to: string, update: PlanUpdate): Promise<Pushed | undefined>;
}

export interface FakeChannex {
  readonly url: string;
  /** Every booking revision the service pushed and the fake accepted, in order. */
  readonly bookings: ReceivedRequest[];
  /** Channex's bookings, each as its latest revision (what the Bookings List answers). */
  readonly held: readonly HeldBooking[];
  /** Every request the fake received, whatever it answered. */
  readonly requests: ReceivedRequest[];
  /** While down, every push is answered 503 (Channex's trouble: the sender retries). */
  setDown(down: boolean): void;
  /** One hotel's outage (see Outage); null ends it. */
  setOutage(hotelCode: string, mode: Outage | null): void;
  /** Hotels whose bookings Channex refuses (a 422 with Channex's errors object); null stops it. */
  refuseHotel(hotelCode: string, title: string | null): void;
  /** The request_id of each notification a full sync has streamed so far, oldest first (what the service's inbox records). */
  readonly fullSyncRequestIds: readonly string[];
  /**
   * Maps a property as a Channex user does: test_connection/, then every room type and rate plan
   * mapping_details/ lists (throws unless both answer 200). Its ARI starts from `setup`.
   */
  connect(hotelCode: string, setup: PropertySetup): Promise<ChannexProperty>;
  /** An operator changing a connected property's ARI in Channex. */
  operator(hotelCode: string): ChannexOperator;
  /** POSTs one changes notification as given: for bodies Channex would not generate (malformed, unknown hotel, repeats). */
  pushChanges(hotelCode: string, changes: readonly ChangeBody[], requestId?: string): Promise<Pushed>;
  /** POSTs a body as given (for malformed and oversized pushes). */
  pushRaw(body: string, key?: string | null): Promise<CallResult<any>>;
  get(endpoint: 'test_connection' | 'mapping_details', hotelCode: string, key?: string | null): Promise<{ status: number; body: any }>;
  waitForBookings(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A booking as Channex keeps it: its id, the hotel it was pushed for, and its latest revision. */
export interface HeldBooking {
  readonly id: string;
  readonly hotelCode: string;
  revision: Record<string, any>;
  revisionId: string;
  readonly insertedAt: string;
}

/** A Bookings List item, in the fields of the page's success example that a pushed revision gives. */
function listItem(b: HeldBooking, propertyId: string) {
  const r = b.revision;
  return {
    type: 'booking',
    id: b.id,
    attributes: {
      id: b.id,
      property_id: propertyId,
      revision_id: b.revisionId,
      ota_reservation_code: r.reservation_id ?? b.id,
      ota_name: r.ota_name ?? null,
      status: r.status,
      arrival_date: r.arrival_date,
      departure_date: r.departure_date,
      currency: r.currency,
      customer: r.customer,
      services: r.services ?? [],
      rooms: (r.rooms ?? []).map((room: any) => ({
        checkin_date: r.arrival_date,
        checkout_date: r.departure_date,
        occupancy: room.occupancy,
        days: Object.fromEntries((room.days ?? []).map((d: any) => [d.date, String(d.price)])),
      })),
      inserted_at: b.insertedAt,
    },
  };
}

const FILTER_FIELDS: Readonly<Record<string, (b: HeldBooking) => string>> = {
  arrival_date: (b) => b.revision.arrival_date,
  departure_date: (b) => b.revision.departure_date,
  inserted_at: (b) => b.insertedAt,
};
const OPERATORS: Readonly<Record<string, (a: string, v: string) => boolean>> = {
  eq: (a, v) => v.split(',').includes(a),
  not: (a, v) => a !== v,
  gt: (a, v) => a > v,
  gte: (a, v) => a >= v,
  lt: (a, v) => a < v,
  lte: (a, v) => a <= v,
};

/** "Bookings List" with its documented filters and pagination; undefined for a query Channex documents no answer to. */
function bookingsList(held: readonly HeldBooking[], query: URLSearchParams, propertyOf: (hotel: string) => string) {
  let matching = [...held];
  for (const [key, value] of query) {
    const m = /^filter\[(\w+)\](?:\[(\w+)\])?$/.exec(key);
    if (!m) continue;
    const field = FILTER_FIELDS[m[1]!];
    const op = OPERATORS[m[2] ?? 'eq'];
    if (!field || !op) return undefined;
    matching = matching.filter((b) => op(field(b), value));
  }
  const page = Number(query.get('pagination[page]') ?? '1');
  const limit = Number(query.get('pagination[limit]') ?? '10');
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit < 1 || limit > 100) return undefined;
  return {
    data: matching.slice((page - 1) * limit, page * limit).map((b) => listItem(b, propertyOf(b.hotelCode))),
    meta: { page, limit, total: matching.length },
  };
}

/** The fields "Push Booking API" → "Field description" marks [required], checked as Channex would. */
function bookingProblems(body: any): string[] {
  const b = body?.booking;
  if (!b || typeof b !== 'object') return ['booking is required'];
  const problems: string[] = [];
  const need = (cond: boolean, what: string) => (cond ? undefined : problems.push(what));
  need(['new', 'modified', 'cancelled'].includes(b.status), 'status must be new, modified or cancelled');
  for (const f of ['provider_code', 'hotel_code', 'arrival_date', 'departure_date', 'currency'])
    need(typeof b[f] === 'string' && b[f].length > 0, `${f} is required`);
  need(/^\d{4}-\d{2}-\d{2}$/.test(b.arrival_date) && /^\d{4}-\d{2}-\d{2}$/.test(b.departure_date), 'arrival_date and departure_date are YYYY-MM-DD');
  need(/^[A-Z]{3}$/.test(b.currency ?? ''), 'currency is ISO 4217');
  need(b.payment_collect === undefined || ['ota', 'property'].includes(b.payment_collect), 'payment_collect is ota or property');
  need(typeof b.customer?.surname === 'string' && b.customer.surname.length > 0 && b.customer.surname.length <= 255, 'customer.surname is required');
  need(Array.isArray(b.rooms) && b.rooms.length > 0, 'rooms is required');
  for (const [i, r] of (Array.isArray(b.rooms) ? b.rooms : []).entries()) {
    need(typeof r.room_type_code === 'string', `rooms[${i}].room_type_code is required`);
    need(
      ['adults', 'children', 'infants'].every((k) => Number.isInteger(r.occupancy?.[k])),
      `rooms[${i}].occupancy needs adults, children, infants`,
    );
    need(Array.isArray(r.days) && r.days.length > 0, `rooms[${i}].days is required`);
    for (const [j, d] of (Array.isArray(r.days) ? r.days : []).entries()) {
      need(
        /^\d{4}-\d{2}-\d{2}$/.test(d.date) && (typeof d.price === 'string' || Number.isInteger(d.price)) && typeof d.rate_plan_code === 'string',
        `rooms[${i}].days[${j}] needs date, price, rate_plan_code`,
      );
    }
  }
  for (const [i, s] of (Array.isArray(b.services) ? b.services : []).entries()) {
    need(['Meal', 'Fee', 'Extra'].includes(s.type), `services[${i}].type is Meal, Fee or Extra`);
    need(['Per stay', 'Per night', 'Per person', 'Per person per night'].includes(s.price_mode), `services[${i}].price_mode`);
    for (const f of ['total_price', 'price_per_unit', 'name']) need(typeof s[f] === 'string', `services[${i}].${f} is required`);
    for (const f of ['persons', 'nights']) need(Number.isInteger(s[f]), `services[${i}].${f} is required`);
    need(s.excluded === undefined || typeof s.excluded === 'boolean', `services[${i}].excluded is a boolean`);
  }
  return problems;
}

const answer = (status: number, body: string) => ({ status, headers: { 'content-type': 'application/json' }, body });
const errors = (code: string, title: string, details?: Record<string, unknown>) => JSON.stringify({ errors: { code, title, ...(details ? { details } : {}) } });

export async function startFakeChannex(opts: FakeChannexOptions): Promise<FakeChannex> {
  const receiver: Receiver = await startReceiver();
  const bookings: ReceivedRequest[] = [];
  const refused = new Map<string, string>();
  const outages = new Map<string, Outage>();
  const held: HeldBooking[] = [];
  /** Channex's property id per hotel_code (the mapping's other side). */
  const properties = new Map<string, string>();
  const propertyOf = (hotel: string) => properties.get(hotel) ?? properties.set(hotel, randomUUID()).get(hotel)!;
  const connected = new Map<string, ChannexProperty>();
  const fullSyncRequestIds: string[] = [];
  let down = false;
  const refuseHotel = (hotelCode: string, title: string | null) => void (title === null ? refused.delete(hotelCode) : refused.set(hotelCode, title));
  const setOutage = (hotelCode: string, mode: Outage | null) => void (mode ? outages.set(hotelCode, mode) : outages.delete(hotelCode));

  const push = async (body: string, key: string | null | undefined) => {
    const res = await fetch(`${opts.serviceEndpoint}/changes/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'api-key': key ?? opts.inboundKey }) },
      body,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  };
  const pushChanges = async (hotelCode: string, changes: readonly ChangeBody[], requestId: string = randomUUID()) => {
    const body = { data: [{ type: 'changes_notification', attributes: { request_id: requestId, hotel_code: hotelCode, changes } }] };
    return { ...(await push(JSON.stringify(body), undefined)), requestId, changes };
  };
  const get = async (endpoint: 'test_connection' | 'mapping_details', hotelCode: string, key?: string | null) => {
    const res = await fetch(`${opts.serviceEndpoint}/${endpoint}/?hotel_code=${encodeURIComponent(hotelCode)}`, {
      headers: key === null ? {} : { 'api-key': key ?? opts.inboundKey },
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const connect = async (hotelCode: string, setup: PropertySetup) => {
    const test = await get('test_connection', hotelCode);
    if (test.status !== 200 || test.body?.success !== true) throw new Error(`fake Channex: test_connection for ${hotelCode} answered ${test.status}`);
    const mapping = await get('mapping_details', hotelCode);
    if (mapping.status !== 200) throw new Error(`fake Channex: mapping_details for ${hotelCode} answered ${mapping.status}`);
    const rooms: MappedRoom[] = mapping.body.data.attributes.room_types.map((r: any) => ({
      id: r.id,
      countOfRooms: typeof setup.countOfRooms === 'number' ? setup.countOfRooms : setup.countOfRooms[r.id]!,
      ratePlans: r.rate_plans.map(
        (p: any): MappedRatePlan => ({
          id: p.id,
          sellMode: p.sell_mode,
          maxPersons: p.max_persons,
          currency: setup.currencyOf?.[p.id] ?? p.currency,
          readOnly: p.read_only,
        }),
      ),
    }));
    const initial = (room: MappedRoom, plan: MappedRatePlan): PlanDay => ({
      rates: Object.fromEntries(Array.from({ length: plan.maxPersons }, (_, i) => [i + 1, setup.rate(room.id, plan.id, i + 1)])),
      stop_sell: false,
      closed_to_arrival: false,
      closed_to_departure: false,
      min_stay_arrival: 1,
      min_stay_through: 1,
      max_stay: 0,
    });
    for (const earlier of setup.earlierMapping ?? []) {
      const listed = rooms.findIndex((r) => r.id === earlier.id);
      if (listed < 0) rooms.push(earlier);
      else rooms[listed] = { ...rooms[listed]!, ratePlans: [...rooms[listed]!.ratePlans, ...earlier.ratePlans] };
    }
    const property = new ChannexProperty(hotelCode, rooms, setup.window, initial);
    connected.set(hotelCode, property);
    return property;
  };
  const propertyNamed = (hotelCode: string) => {
    const property = connected.get(hotelCode);
    if (!property) throw new Error(`fake Channex: ${hotelCode} is not connected`);
    return property;
  };
  const operator = (hotelCode: string): ChannexOperator => ({
    setAvailability: async (room, from, to, availability) => pushChanges(hotelCode, propertyNamed(hotelCode).setAvailability(room, from, to, availability)),
    async updateRatePlan(room, plan, from, to, update) {
      const changes = propertyNamed(hotelCode).updateRatePlan(room, plan, from, to, update);
      return changes.length === 0 ? undefined : pushChanges(hotelCode, changes);
    },
  });

  receiver.respond(NEW_BOOKING_PATH, (req) => {
    if (down) return answer(503, errors('service_unavailable', 'Service Unavailable'));
    if (req.headers['api-key'] !== opts.outboundKey) return answer(401, errors('unauthorized', 'Unauthorized'));
    const problems = bookingProblems(req.body);
    if (problems.length > 0) return answer(422, errors('validation_error', 'Validation Error', { booking: problems }));
    if (req.body.booking.provider_code !== opts.providerCode)
      return answer(422, errors('validation_error', 'Validation Error', { provider_code: ['is unknown'] }));
    const b = req.body.booking;
    const outage = outages.get(b.hotel_code);
    if (outage === 'unavailable') return answer(503, errors('service_unavailable', 'Service Unavailable'));
    if (outage === 'dropped') return { status: 0, drop: true };
    const refusal = refused.get(b.hotel_code);
    if (refusal) return answer(422, errors('validation_error', refusal));
    bookings.push(req);
    propertyOf(b.hotel_code);
    const earlier =
      b.status === 'new' || !b.reservation_id
        ? undefined
        : held.findLast((h) => h.hotelCode === b.hotel_code && h.revision.reservation_id === b.reservation_id);
    if (earlier) Object.assign(earlier, { revision: b, revisionId: randomUUID() });
    else held.push({ id: randomUUID(), hotelCode: b.hotel_code, revision: b, revisionId: randomUUID(), insertedAt: new Date().toISOString().slice(0, 19) });
    if (outage === 'answer-lost-once') setOutage(b.hotel_code, null);
    if (outage === 'answer-lost' || outage === 'answer-lost-once') return { status: 0, drop: true };
    // The Push Booking section documents no answer body; the API Reference says a success carries `data` or `meta`: the fake sends only `meta`.
    return answer(200, JSON.stringify({ meta: { message: 'Success' } }));
  });
  receiver.respond(BOOKINGS_PATH, (req) => {
    if (down) return answer(503, errors('service_unavailable', 'Service Unavailable'));
    if (!opts.userApiKey || req.headers['user-api-key'] !== opts.userApiKey) return answer(401, errors('unauthorized', 'Unauthorized'));
    const list = bookingsList(held, new URL(req.path, receiver.url).searchParams, propertyOf);
    return list ? answer(200, JSON.stringify(list)) : answer(400, errors('bad_request', 'Bad Request'));
  });
  receiver.respond(FULL_SYNC_PATH, (req) => {
    if (down) return answer(503, errors('service_unavailable', 'Service Unavailable'));
    if (req.headers['api-key'] !== opts.outboundKey) return answer(401, errors('unauthorized', 'Unauthorized'));
    const hotel = req.body?.hotel_code;
    const state = connected.get(hotel)?.fullState();
    if (req.body?.provider_code !== opts.providerCode || !state)
      return answer(422, errors('validation_error', 'Validation Error', { hotel_code: ['is not connected'] }));
    // Channex answers, then streams the property's whole state as ordinary changes notifications.
    const requestId = randomUUID();
    fullSyncRequestIds.push(requestId);
    setTimeout(() => void pushChanges(hotel, state, requestId), 50);
    return answer(200, JSON.stringify({ meta: { message: 'Full sync requested' } }));
  });

  // The test's hand on a fake that runs in another process (the shared stack's, started by the
  // global setup): what it received for a hotel, and Channex going down or refusing a hotel.
  receiver.respond(CONTROL_PATH, (req) => {
    const c = (req.body ?? {}) as FakeChannexControl;
    if (c.down !== undefined) down = c.down;
    if (c.outage) setOutage(c.outage.hotelCode, c.outage.mode);
    if (c.refuse) refuseHotel(c.refuse.hotelCode, c.refuse.title);
    const hotel = c.bookingsOf;
    const ofHotel = (r: ReceivedRequest) => r.body?.booking?.hotel_code === hotel;
    return answer(
      200,
      JSON.stringify({
        bookings: hotel === undefined ? [] : bookings.filter(ofHotel).map((b) => b.body.booking),
        attempts: hotel === undefined ? 0 : receiver.to(NEW_BOOKING_PATH).filter(ofHotel).length,
        reads:
          c.readsOn === undefined
            ? 0
            : receiver.requests.filter(
                (r) => r.path.split('?')[0] === BOOKINGS_PATH && new URL(r.path, receiver.url).searchParams.get('filter[arrival_date][gte]') === c.readsOn,
              ).length,
      }),
    );
  });

  return {
    url: receiver.url,
    bookings,
    held,
    requests: receiver.requests,
    setDown: (value) => (down = value),
    setOutage,
    refuseHotel,
    fullSyncRequestIds,
    connect,
    operator,
    pushChanges,
    pushRaw: (body, key) => push(body, key),
    get,
    async waitForBookings(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (bookings.length < count) {
        if (Date.now() > deadline) throw new Error(`fake Channex: ${bookings.length} of ${count} bookings after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return bookings.slice(0, count);
    },
    close: () => receiver.close(),
  };
}

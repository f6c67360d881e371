import { randomUUID } from 'node:crypto';
import { startReceiver, type ReceivedRequest, type Receiver } from './webhook-receiver.ts';

/**
 * A contract-faithful Channex on a local port, for tests. It plays both of Channex's sides
 * of the Open Channel API (docs.channex.io "For OTA → Open Channel API"; the copy in
 * github.com/gungcahyadipp/channex-open-channel, docs_channex.md):
 *
 * - it pushes ARI into the service as Channex does: `changes_notification`s POSTed to
 *   `<endpoint>/changes/` with the `api-key` header ("Changes API"), and calls
 *   `test_connection/` and `mapping_details/` with `?hotel_code=` ("Test Connection
 *   endpoint", "Mapping details endpoint");
 * - it receives what the service pushes and records it: booking revisions at
 *   `/api/v1/channel_webhooks/open_channel/new_booking` ("Push Booking API") and full-sync
 *   requests at `…/request_full_sync` ("Request Full Sync"), both authenticated by `api-key`.
 *
 * Answers: the Open Channel page documents no answer body for a pushed booking; Channex's
 * API reference ("API Reference" → "Errors") says a success carries `data` or `meta` and an
 * error an `errors` object with `code` and `title`, 4xx for a request that cannot succeed
 * and 5xx for Channex's own trouble (retry). The fake answers in those shapes.
 */
export const OPEN_CHANNEL_PATH = '/api/v1/channel_webhooks/open_channel';
export const NEW_BOOKING_PATH = `${OPEN_CHANNEL_PATH}/new_booking`;
export const FULL_SYNC_PATH = `${OPEN_CHANNEL_PATH}/request_full_sync`;

/** Not Channex's: the tests' control of the shared fake (see control()). */
export const CONTROL_PATH = '/_fake/control';

export interface FakeChannexControl {
  readonly down?: boolean;
  readonly refuse?: { readonly hotelCode: string; readonly title: string };
  /** Answers the booking revisions accepted for this hotel, in order. */
  readonly bookingsOf?: string;
}

/** Controls the fake at `url` (the shared stack's, in the global setup's process) over HTTP. */
export async function controlFakeChannex(url: string, control: FakeChannexControl): Promise<Record<string, any>[]> {
  const res = await fetch(`${url}${CONTROL_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(control) });
  if (res.status !== 200) throw new Error(`fake Channex control answered ${res.status}`);
  return ((await res.json()) as { bookings: Record<string, any>[] }).bookings;
}

export interface FakeChannexOptions {
  /** The key the service must send (our channel's Open Channel API key). */
  readonly outboundKey: string;
  /** The provider_code the service must send ("OpenChannel" under test, per the page). */
  readonly providerCode: string;
  /** The service's inbound base URL (`…/channel-manager/channex`) and the key Channex sends it. */
  readonly serviceEndpoint: string;
  readonly inboundKey: string;
}

export type ChangeBody = { type: 'availability_changes' | 'restriction_changes'; attributes: Record<string, unknown> };

export interface FakeChannex {
  readonly url: string;
  /** Every booking revision the service pushed and the fake accepted, in order. */
  readonly bookings: ReceivedRequest[];
  /** Every request the fake received, whatever it answered. */
  readonly requests: ReceivedRequest[];
  /** While down, every push is answered 503 (Channex's trouble: the sender retries). */
  setDown(down: boolean): void;
  /** Hotels whose bookings Channex refuses (a 422 with Channex's errors object). */
  refuseHotel(hotelCode: string, title: string): void;
  /** The property's state Channex sends on a full sync, per hotel. */
  setFullSyncState(hotelCode: string, changes: readonly ChangeBody[]): void;
  /** POSTs one changes notification to the service as Channex does; returns the answer. */
  pushChanges(hotelCode: string, changes: readonly ChangeBody[], requestId?: string): Promise<{ status: number; body: any; requestId: string }>;
  /** POSTs a body as given (for malformed and oversized pushes). */
  pushRaw(body: string, key?: string | null): Promise<{ status: number; body: any }>;
  get(endpoint: 'test_connection' | 'mapping_details', hotelCode: string, key?: string | null): Promise<{ status: number; body: any }>;
  waitForBookings(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** The fields "Push Booking API" → "Field description" marks [required], checked as Channex would. */
function bookingProblems(body: any): string[] {
  const b = body?.booking;
  if (!b || typeof b !== 'object') return ['booking is required'];
  const problems: string[] = [];
  const need = (cond: boolean, what: string) => (cond ? undefined : problems.push(what));
  need(['new', 'modified', 'cancelled'].includes(b.status), 'status must be new, modified or cancelled');
  for (const f of ['provider_code', 'hotel_code', 'arrival_date', 'departure_date', 'currency']) need(typeof b[f] === 'string' && b[f].length > 0, `${f} is required`);
  need(/^\d{4}-\d{2}-\d{2}$/.test(b.arrival_date) && /^\d{4}-\d{2}-\d{2}$/.test(b.departure_date), 'arrival_date and departure_date are YYYY-MM-DD');
  need(/^[A-Z]{3}$/.test(b.currency ?? ''), 'currency is ISO 4217');
  need(b.payment_collect === undefined || ['ota', 'property'].includes(b.payment_collect), 'payment_collect is ota or property');
  need(typeof b.customer?.surname === 'string' && b.customer.surname.length > 0 && b.customer.surname.length <= 255, 'customer.surname is required');
  need(b.guarantee === undefined, 'guarantee (card data) is not expected from a channel that collects on credit');
  need(Array.isArray(b.rooms) && b.rooms.length > 0, 'rooms is required');
  for (const [i, r] of (Array.isArray(b.rooms) ? b.rooms : []).entries()) {
    need(typeof r.room_type_code === 'string', `rooms[${i}].room_type_code is required`);
    need(['adults', 'children', 'infants'].every((k) => Number.isInteger(r.occupancy?.[k])), `rooms[${i}].occupancy needs adults, children, infants`);
    need(Array.isArray(r.days) && r.days.length > 0, `rooms[${i}].days is required`);
    for (const [j, d] of (Array.isArray(r.days) ? r.days : []).entries()) {
      need(/^\d{4}-\d{2}-\d{2}$/.test(d.date) && (typeof d.price === 'string' || Number.isInteger(d.price)) && typeof d.rate_plan_code === 'string', `rooms[${i}].days[${j}] needs date, price, rate_plan_code`);
    }
  }
  for (const [i, s] of (Array.isArray(b.services) ? b.services : []).entries()) {
    need(['Meal', 'Fee', 'Extra'].includes(s.type), `services[${i}].type is Meal, Fee or Extra`);
    need(['Per stay', 'Per night', 'Per person', 'Per person per night'].includes(s.price_mode), `services[${i}].price_mode`);
    for (const f of ['total_price', 'price_per_unit', 'name']) need(typeof s[f] === 'string', `services[${i}].${f} is required`);
    for (const f of ['persons', 'nights']) need(Number.isInteger(s[f]), `services[${i}].${f} is required`);
  }
  return problems;
}

const answer = (status: number, body: string) => ({ status, headers: { 'content-type': 'application/json' }, body });
const errors = (code: string, title: string, details: Record<string, unknown> = {}) => JSON.stringify({ errors: { code, title, details } });

export async function startFakeChannex(opts: FakeChannexOptions): Promise<FakeChannex> {
  const receiver: Receiver = await startReceiver();
  const bookings: ReceivedRequest[] = [];
  const refused = new Map<string, string>();
  const fullSync = new Map<string, readonly ChangeBody[]>();
  let down = false;

  const push = async (body: string, key: string | null | undefined) => {
    const res = await fetch(`${opts.serviceEndpoint}/changes/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'api-key': key ?? opts.inboundKey }) },
      body,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const pushChanges = async (hotelCode: string, changes: readonly ChangeBody[], requestId: string = randomUUID()) => {
    const body = { data: [{ type: 'changes_notification', attributes: { request_id: requestId, hotel_code: hotelCode, changes } }] };
    return { ...(await push(JSON.stringify(body), undefined)), requestId };
  };

  receiver.respond(NEW_BOOKING_PATH, (req) => {
    if (down) return answer(503, errors('service_unavailable', 'Service Unavailable'));
    if (req.headers['api-key'] !== opts.outboundKey) return answer(401, errors('unauthorized', 'Unauthorized'));
    const problems = bookingProblems(req.body);
    if (problems.length > 0) return answer(422, errors('validation_error', 'Validation Error', { booking: problems }));
    if (req.body.booking.provider_code !== opts.providerCode) return answer(422, errors('validation_error', 'Validation Error', { provider_code: ['is unknown'] }));
    const refusal = refused.get(req.body.booking.hotel_code);
    if (refusal) return answer(422, errors('validation_error', refusal));
    bookings.push(req);
    return answer(200, JSON.stringify({ data: { type: 'booking_revision', id: randomUUID(), attributes: { status: req.body.booking.status, reservation_id: req.body.booking.reservation_id } } }));
  });
  receiver.respond(FULL_SYNC_PATH, (req) => {
    if (down) return answer(503, errors('service_unavailable', 'Service Unavailable'));
    if (req.headers['api-key'] !== opts.outboundKey) return answer(401, errors('unauthorized', 'Unauthorized'));
    const hotel = req.body?.hotel_code;
    if (req.body?.provider_code !== opts.providerCode || !fullSync.has(hotel)) return answer(422, errors('validation_error', 'Validation Error', { hotel_code: ['is not connected'] }));
    // Channex answers, then streams the property's whole state as ordinary changes notifications.
    setTimeout(() => void pushChanges(hotel, fullSync.get(hotel)!), 50);
    return answer(200, JSON.stringify({ meta: { message: 'Full sync requested' } }));
  });

  // The test's hand on a fake that runs in another process (the shared stack's, started by the
  // global setup): what it received for a hotel, and Channex going down or refusing a hotel.
  receiver.respond(CONTROL_PATH, (req) => {
    const c = (req.body ?? {}) as FakeChannexControl;
    if (c.down !== undefined) down = c.down;
    if (c.refuse) refused.set(c.refuse.hotelCode, c.refuse.title);
    const hotel = c.bookingsOf;
    return answer(200, JSON.stringify({ bookings: hotel === undefined ? [] : bookings.filter((b) => b.body.booking.hotel_code === hotel).map((b) => b.body.booking) }));
  });

  return {
    url: receiver.url,
    bookings,
    requests: receiver.requests,
    setDown: (value) => (down = value),
    refuseHotel: (hotelCode, title) => refused.set(hotelCode, title),
    setFullSyncState: (hotelCode, changes) => fullSync.set(hotelCode, changes),
    pushChanges,
    pushRaw: (body, key) => push(body, key),
    async get(endpoint, hotelCode, key) {
      const res = await fetch(`${opts.serviceEndpoint}/${endpoint}/?hotel_code=${encodeURIComponent(hotelCode)}`, { headers: key === null ? {} : { 'api-key': key ?? opts.inboundKey } });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
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

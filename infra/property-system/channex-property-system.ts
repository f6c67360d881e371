import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { eachDate, addDays } from '../../domain/catalogue/calendar.ts';
import { DEFAULT_SIMULATOR, type SimulatorBehaviour } from '../../domain/catalogue/simulator.ts';
import { DomainError, ServiceUnavailableError } from '../../domain/errors.ts';
import type { Guest } from '../../domain/bookings/booking.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import type {
  ChannelStay,
  ModificationRequest,
  ModificationResult,
  PropertySystem,
  ReservationRequest,
  ReservationState,
} from '../../domain/ports/property-system.ts';
import { apportion } from '../../domain/pricing/rounding.ts';
import type { SelectedProperty } from '../../domain/pricing/index.ts';
import { ratePlanId } from '../../domain/channel-manager/channex.ts';
import { isConditionFailure } from '../dynamo/client.ts';
import { channexBookingEntity, channexRevisionEntity } from '../dynamo/entities/property-system.ts';
import { keys } from '../dynamo/keys.ts';
import { logger } from '../logger.ts';

export interface ChannexSettings {
  /** https://secure-staging.channex.io (staging) or https://secure.channex.io: "Push Booking API". */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly providerCode: string;
  readonly timeoutMs?: number;
  /**
   * Channex's own API, to read its bookings ("Bookings Collection → Bookings List"): a key made in
   * Channex's user profile, sent as `user-api-key` ("API Reference → Authentication"), and the host
   * it is read from (https://staging.channex.io or https://app.channex.io; the base URL when unset).
   * Without the key, a booking whose push went unanswered is not pushed again (see land()).
   */
  readonly userApiKey?: string;
  readonly apiUrl?: string;
}

/** The booking as last pushed to Channex, and whether Channex has it. */
interface ChannexBooking {
  readonly bookingRef: string;
  readonly listingId: string;
  readonly booking: Record<string, unknown>;
  readonly landed: boolean;
  readonly refusal?: string;
  readonly cancelled?: boolean;
  /** The last push got no answer at all (connection lost, timed out): Channex may hold the booking. */
  readonly unanswered?: boolean;
}

type Answer =
  | { kind: 'accepted' }
  | { kind: 'refused'; message: string }
  /** `answered: false`: no answer came back, so whether Channex took the revision is unknown. */
  | { kind: 'unavailable'; message: string; answered: boolean };

const rupees = (paise: number): string => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;

/** `n` split as evenly as whole numbers go, the remainder to the first parts. */
const spread = (n: number, parts: number): number[] => Array.from({ length: parts }, (_, i) => Math.floor(n / parts) + (i < n % parts ? 1 : 0));

/**
 * "Push Booking API" body (docs.channex.io Open Channel API, "Push Booking API" and its
 * "Field description"): our booking id as reservation_id (so a repeat is one booking),
 * INR, collected by us (payment_collect ota, no guarantee: we sell on credit, no card
 * data), the primary guest as customer, one room per unit with its occupancy and a
 * per-night price and rate plan, meals and services as `services`.
 */
export function bookingBody(
  status: 'new' | 'modified' | 'cancelled',
  providerCode: string,
  r: { bookingRef: string; listingId: string; checkIn: string; checkOut: string; selectedProperties: readonly SelectedProperty[]; stay?: ChannelStay },
  guest: Guest | undefined,
): Record<string, unknown> {
  const stay: ChannelStay = r.stay ?? { mealPlan: 'EP', adults: 1, children: 0, infants: 0, roomsAmount: 0, mealsAmount: 0, servicesAmount: 0 };
  const units = r.selectedProperties.flatMap((s) => Array.from({ length: s.quantity }, () => s.propertyId));
  const nights = [...eachDate(r.checkIn, addDays(r.checkOut, -1))];
  const prices = apportion(
    stay.roomsAmount,
    units.flatMap(() => nights.map(() => 1)),
  );
  const adults = spread(stay.adults, units.length);
  const children = spread(stay.children, units.length);
  const infants = spread(stay.infants, units.length);
  const services = [
    ...(stay.mealsAmount > 0 ? [{ type: 'Meal', name: 'Meals', amount: stay.mealsAmount }] : []),
    ...(stay.servicesAmount > 0 ? [{ type: 'Extra', name: 'Value-added services', amount: stay.servicesAmount }] : []),
    // The rooms' day prices hold the stay alone; meals and services are sold on top of them, so they are
    // `excluded` ("Booking Services (Extras)": true adds them to the booking's total; the default leaves the total unaffected).
  ].map((s) => ({
    excluded: true,
    type: s.type,
    total_price: rupees(s.amount),
    price_per_unit: rupees(s.amount),
    price_mode: 'Per stay',
    persons: stay.adults + stay.children,
    nights: nights.length,
    name: s.name,
  }));
  return {
    status,
    provider_code: providerCode,
    hotel_code: r.listingId,
    reservation_id: r.bookingRef,
    arrival_date: r.checkIn,
    departure_date: r.checkOut,
    currency: 'INR',
    payment_collect: 'ota',
    payment_type: 'bank_transfer',
    ...(guest ? { customer: customerOf(guest) } : {}),
    rooms: units.map((propertyId, i) => ({
      index: i,
      room_type_code: propertyId,
      occupancy: { adults: adults[i], children: children[i], infants: infants[i] },
      ...(i === 0 && guest ? { guests: [{ name: guest.firstName, surname: guest.lastName ?? guest.firstName }] } : {}),
      days: nights.map((date, n) => ({ date, price: rupees(prices[i * nights.length + n]!), rate_plan_code: ratePlanId(propertyId, stay.mealPlan) })),
    })),
    services,
  };
}

/** "Customer Fields": surname is required; country only as an ISO alpha-2 code. */
function customerOf(g: Guest): Record<string, unknown> {
  return {
    name: g.firstName,
    surname: g.lastName ?? g.firstName,
    ...(g.email ? { mail: g.email } : {}),
    ...(g.phone ? { phone: g.phone.slice(0, 32) } : {}),
    ...(g.city ? { city: g.city } : {}),
    ...(g.countryCode && /^[A-Z]{2}$/.test(g.countryCode) ? { country: g.countryCode } : {}),
  };
}

/**
 * The property system on Channex (PROPERTY_SYSTEM=channex): each reserve, modify, cancel and
 * restore is a booking revision pushed to Channex's Open Channel. Answers map onto the port:
 * 2xx accepted (CONFIRMED, or the change applied); 4xx refused (a reservation is REFUSED and
 * the booking FAILS at once with CHANNEL_REFUSED; a change is CHANNEL_REFUSED), Channex's message kept on
 * the record and logged for operators; 5xx and timeouts leave it PENDING for the workflow's
 * retries (a cancellation answers 503, to be retried). Each booking's last pushed body is
 * one item (CHANNEX#BOOKING#<ref>), each change's answer another (its idempotency record).
 */
export class ChannexPropertySystem implements PropertySystem {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly clock: Clock,
    private readonly settings: ChannexSettings,
  ) {}

  async reserve(request: ReservationRequest): Promise<ReservationState> {
    const existing = await this.read(request.bookingRef);
    if (existing) return this.land(existing);
    return this.land({
      bookingRef: request.bookingRef,
      listingId: request.listingId,
      booking: bookingBody('new', this.settings.providerCode, request, request.primaryGuest),
      landed: false,
    });
  }

  /**
   * A booking Channex could not take yet (down, timed out) is pushed again at every look of
   * the workflow, the watch after its window included: it lands, late if need be, when Channex
   * is back. A refused one stays refused (the same body would be refused again).
   */
  async status(bookingRef: string): Promise<ReservationState> {
    const existing = await this.read(bookingRef);
    return existing ? this.land(existing) : { state: 'PENDING', checkAgainAt: null };
  }

  private async land(record: ChannexBooking): Promise<ReservationState> {
    // The booking is known to Channex by our reservation_id: the page documents no id in the push's answer.
    if (record.landed) return { state: 'CONFIRMED', bookingId: record.bookingRef };
    if (record.refusal) return { state: 'REFUSED', reason: record.refusal };
    if (record.cancelled) return { state: 'PENDING', checkAgainAt: null };
    if (record.unanswered) {
      // A push whose answer was lost may have landed: a second `new` would be a second booking at
      // Channex (it documents no de-duplication), so Channex is asked first, through its Bookings List.
      const held = await this.holds(record);
      if (held === undefined) return { state: 'PENDING', checkAgainAt: null };
      if (held) {
        await this.save({ ...record, landed: true, unanswered: false });
        return { state: 'CONFIRMED', bookingId: record.bookingRef };
      }
    }
    const answer = await this.push(record.booking);
    const next: ChannexBooking = {
      ...record,
      landed: answer.kind === 'accepted',
      unanswered: answer.kind === 'unavailable' && !answer.answered,
      ...(answer.kind === 'refused' ? { refusal: answer.message } : {}),
    };
    // Kept even while Channex is unavailable: the body to push again, and where the booking went (RoutedPropertySystem).
    await this.save(next);
    if (answer.kind === 'refused') {
      logger.error('Channex refused a booking; it fails with CHANNEL_REFUSED', {
        bookingRef: record.bookingRef,
        listingId: record.listingId,
        channex: answer.message,
      });
      return { state: 'REFUSED', reason: answer.message };
    }
    return next.landed ? { state: 'CONFIRMED', bookingId: record.bookingRef } : { state: 'PENDING', checkAgainAt: null };
  }

  private async save(record: ChannexBooking): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...keys.channexBooking(record.bookingRef), entity: 'ChannexBooking', ...record, at: this.clock.now().toISOString() },
      }),
    );
  }

  /**
   * Whether Channex holds the booking, from its Bookings List (docs.channex.io, "API v.1 →
   * Bookings Collection → Bookings List"): the bookings arriving on the booking's arrival date
   * (the page's "Filter By Arrival Date" example), page by page ("API Reference → Pagination",
   * at most 100 a page), looking for our reservation_id as `ota_reservation_code` (the reservation
   * code at the platform where the booking was made). Undefined when Channex cannot be asked (no
   * read key, no answer, an error): the caller then pushes nothing and asks again at its next look.
   */
  private async holds(record: ChannexBooking): Promise<boolean | undefined> {
    const { userApiKey, apiUrl, baseUrl, timeoutMs } = this.settings;
    const context = { bookingRef: record.bookingRef, listingId: record.listingId };
    if (!userApiKey) {
      logger.warn('A Channex booking push went unanswered and no Channex read key is set: not pushed again until an operator checks', context);
      return undefined;
    }
    const arrival = String(record.booking.arrival_date);
    for (let page = 1; ; page++) {
      const query = `filter[arrival_date][gte]=${arrival}&filter[arrival_date][lte]=${arrival}&pagination[page]=${page}&pagination[limit]=100`;
      let body: { data?: { attributes?: { ota_reservation_code?: string } }[]; meta?: { total?: number } };
      try {
        const res = await fetch(`${(apiUrl ?? baseUrl).replace(/\/$/, '')}/api/v1/bookings?${query}`, {
          headers: { accept: 'application/json', 'user-api-key': userApiKey },
          signal: AbortSignal.timeout(timeoutMs ?? 5000),
        });
        if (!res.ok) {
          logger.warn('Channex did not answer the bookings read; the unanswered booking is not pushed again yet', { ...context, status: res.status });
          return undefined;
        }
        body = (await res.json()) as typeof body;
      } catch (err) {
        logger.warn('Channex did not answer the bookings read; the unanswered booking is not pushed again yet', { ...context, error: (err as Error).name });
        return undefined;
      }
      const items = body.data ?? [];
      if (items.some((b) => b.attributes?.ota_reservation_code === record.bookingRef)) return true;
      if (items.length === 0 || page * 100 >= (body.meta?.total ?? 0)) return false;
    }
  }

  async cancel(bookingRef: string, at: string): Promise<void> {
    const existing = await this.read(bookingRef);
    if (!existing?.landed || existing.cancelled) return;
    const answer = await this.push({ ...existing.booking, status: 'cancelled' });
    if (answer.kind === 'unavailable') throw new ServiceUnavailableError(30);
    if (answer.kind === 'refused') throw new DomainError('CHANNEL_REFUSED', `The channel manager refused the cancellation: ${answer.message}`);
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: keys.channexBooking(bookingRef),
        UpdateExpression: 'SET cancelled = :t, cancelledAt = :at',
        ExpressionAttributeValues: { ':t': true, ':at': at },
      }),
    );
  }

  /** The listing's connection setting, from the world file's `simulator.cannotModify` (docs/channel-manager.md). */
  async canModify(listingId: string): Promise<boolean> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.simulator(listingId) }));
    return !((out.Item as SimulatorBehaviour | undefined) ?? DEFAULT_SIMULATOR).cannotModify;
  }

  async modify(request: ModificationRequest): Promise<ModificationResult> {
    const key = keys.channexRevision(request.bookingRef, request.key);
    const earlier = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    if (earlier.Item) return earlier.Item.result as ModificationResult;
    const existing = await this.read(request.bookingRef);
    const guest = existing?.booking.customer as { name: string; surname: string } | undefined;
    const booking = {
      ...bookingBody('modified', this.settings.providerCode, request, guest ? { firstName: guest.name, lastName: guest.surname } : undefined),
      ...(existing?.booking.customer ? { customer: existing.booking.customer } : {}),
    };
    const answer = await this.push(booking);
    if (answer.kind === 'unavailable') throw new ServiceUnavailableError(30);
    let result: ModificationResult = { accepted: true };
    if (answer.kind === 'refused') {
      // Channex's words describe the property's Channex setup, for operators (log + this record); the partner gets ours (docs/decisions.md).
      if (request.kind === 'amend') {
        result = { accepted: false, reasonCode: 'CHANNEL_REFUSED', reason: "The property's channel manager refused the change." };
        logger.error('Channex refused an amendment', { bookingRef: request.bookingRef, listingId: request.listingId, channex: answer.message });
      }
      // A restore puts back what Channex held before; a refusal of it needs an operator, not a retry.
      else
        logger.error('Channex refused restoring a stay; the reservation there needs an operator', { bookingRef: request.bookingRef, channex: answer.message });
    }
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...key,
            entity: 'ChannexRevision',
            result,
            ...(answer.kind === 'refused' ? { refusal: answer.message } : {}),
            at: this.clock.now().toISOString(),
          },
          ConditionExpression: channexRevisionEntity.conditions.isNew,
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return (await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }))).Item!.result as ModificationResult;
    }
    if (answer.kind === 'accepted') {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.channexBooking(request.bookingRef),
          UpdateExpression: 'SET booking = :b',
          ExpressionAttributeValues: { ':b': booking },
        }),
      );
    }
    return result;
  }

  /**
   * The last pushed body keeps the guest as Channex's customer and as the first room's guest
   * (bookingBody); both become the marker, and a later revision (only a restore could follow
   * an ended stay) pushes the marker. Channex's own copy is the property's, erased under the
   * property's agreement with Channex, not by this service.
   */
  async forgetGuest(bookingRef: string, marker: Guest): Promise<void> {
    const existing = await this.read(bookingRef);
    if (!existing) return;
    const rooms = Array.isArray(existing.booking.rooms) ? (existing.booking.rooms as Record<string, unknown>[]) : [];
    const booking = {
      ...existing.booking,
      ...(existing.booking.customer ? { customer: customerOf(marker) } : {}),
      rooms: rooms.map((room) => (room.guests ? { ...room, guests: [{ name: marker.firstName, surname: marker.lastName ?? marker.firstName }] } : room)),
    };
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: keys.channexBooking(bookingRef),
        UpdateExpression: 'SET booking = :b',
        ConditionExpression: channexBookingEntity.conditions.exists,
        ExpressionAttributeValues: { ':b': booking },
      }),
    );
  }

  /** One revision POSTed; the answer classified as the API reference's "Errors" section describes the status codes. */
  private async push(booking: Record<string, unknown>): Promise<Answer> {
    let res: Response;
    try {
      res = await fetch(`${this.settings.baseUrl.replace(/\/$/, '')}/api/v1/channel_webhooks/open_channel/new_booking`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'api-key': this.settings.apiKey },
        body: JSON.stringify({ booking }),
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? 5000),
      });
    } catch (err) {
      return { kind: 'unavailable', message: (err as Error).name, answered: false };
    }
    const text = await res.text().catch(() => '');
    // Only an error's body is read ("API Reference": errors carry `errors`); the push's 2xx answer body is not documented, so nothing is taken from it.
    let json: { errors?: { title?: string; details?: unknown } } | undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (res.ok) return { kind: 'accepted' };
    const message = `${res.status} ${json?.errors?.title ?? res.statusText}${json?.errors?.details ? ` ${JSON.stringify(json.errors.details)}` : ''}`.slice(
      0,
      1000,
    );
    // 408 and 429 are Channex asking to come back later; every other 4xx is a refusal a retry cannot change.
    if (res.status >= 500 || res.status === 408 || res.status === 429) return { kind: 'unavailable', message, answered: true };
    return { kind: 'refused', message };
  }

  private async read(bookingRef: string): Promise<ChannexBooking | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.channexBooking(bookingRef), ConsistentRead: true }));
    return out.Item as ChannexBooking | undefined;
  }
}

/** Channex's full sync ("Request Full Sync"): the property streams its whole ARI to changes/ afterwards. */
export async function requestFullSync(
  settings: Omit<ChannexSettings, 'baseUrl'> & { readonly apiUrl: string },
  hotelCode: string,
): Promise<{ status: number; body: string }> {
  const res = await fetch(`${settings.apiUrl.replace(/\/$/, '')}/api/v1/channel_webhooks/open_channel/request_full_sync`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': settings.apiKey },
    body: JSON.stringify({ provider_code: settings.providerCode, hotel_code: hotelCode }),
    signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
  });
  return { status: res.status, body: await res.text() };
}

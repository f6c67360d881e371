import { TEST_OPERATOR, testOrigin } from './audit-origin.ts';
import { applyAmendment, type AmendmentReply } from '../../domain/bookings/amend-booking.ts';
import type { AmendmentCommand } from '../../domain/bookings/amendment.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import { cancelBooking, type CancelResult } from '../../domain/bookings/cancel-booking.ts';
import { placeBooking } from '../../domain/bookings/place-booking.ts';
import { createOrder } from '../../domain/orders/manage-orders.ts';
import { importWorld } from '../../domain/world/import-world.ts';
import type { WorldInput } from '../../domain/world/world-schema.ts';
import { adminDeps, amendingDeps, bookingDeps, groupServices, orderDeps, type Services } from '../../infra/container.ts';
import { fixtureWorld } from './catalogue-fixture.ts';
import { GST_SLABS } from './order-world.ts';
import { call, principalOf, testServices, uniqueId, type GroupFixture } from './stack.ts';

export interface BookingWorld {
  readonly channelId: string;
  /** Confirms at once (the simulator's default). */
  readonly instant: string;
  /** CONFIRM_AFTER 1,500 s in the world file: 1.5 s at the test stage's TIME_SCALE of 1000. */
  readonly slow: string;
  /** NEVER_CONFIRM in the world file: every booking fails when its window closes. */
  readonly never: string;
  readonly propertyOf: (listingId: string) => string;
}

/**
 * The meals and services every listing of the booking world offers (ids are per listing):
 * breakfast at 400 an adult, daily housekeeping at 600 a night (PER_NIGHT), an airport
 * transfer at 3,500 a ride (PER_UNIT).
 */
export const BOOKING_ADD_ONS = {
  breakfast: { mealId: 'breakfast', adultPrice: 400 },
  housekeeping: { vasId: 'housekeeping', variantId: 'standard', price: 600 },
  transfer: { vasId: 'transfer', variantId: 'suv', price: 3_500 },
} as const;

const { breakfast, housekeeping, transfer } = BOOKING_ADD_ONS;
const ADD_ONS = {
  meals: [{ mealId: breakfast.mealId, name: 'Breakfast', mealType: 'BREAKFAST' as const, adultPrice: breakfast.adultPrice, childPrice: 200 }],
  vas: [
    {
      vasId: housekeeping.vasId,
      name: 'Daily housekeeping',
      pricing: 'PER_NIGHT' as const,
      variants: [{ variantId: housekeeping.variantId, name: 'Standard', price: housekeeping.price }],
    },
    {
      vasId: transfer.vasId,
      name: 'Airport transfer',
      pricing: 'PER_UNIT' as const,
      variants: [{ variantId: transfer.variantId, name: 'SUV', price: transfer.price }],
    },
  ],
};

/**
 * A channel with three listings whose property-system behaviour comes from the world
 * file (each replaceable, e.g. a listing whose channel manager refuses changes), 100 units a night (so many bookings can share a night), the fixture's Flexible
 * plan (full refund up to 7 days before check-in), BOOKING_ADD_ONS and the GST slabs pricing needs.
 */
type Behaviour = {
  mode: 'CONFIRM_IMMEDIATELY' | 'CONFIRM_AFTER' | 'NEVER_CONFIRM';
  confirmAfterSeconds?: number;
  refusesChanges?: boolean;
  cannotModify?: boolean;
  channelManager?: 'channex';
};

/** The booking world's file (see seedBookingWorld): what an import stores, for a store in memory as for DynamoDB. */
export function bookingWorldInput(overrides: Partial<Record<'instant' | 'slow' | 'never', Behaviour>> = {}): { world: BookingWorld; input: WorldInput } {
  const { ids, ...world } = fixtureWorld(uniqueId('b').slice(2));
  const behaviour: Record<string, Behaviour> = {
    [ids.onlyA]: overrides.instant ?? { mode: 'CONFIRM_IMMEDIATELY' },
    [ids.both]: overrides.slow ?? { mode: 'CONFIRM_AFTER', confirmAfterSeconds: 1_500 },
    [ids.onlyB]: overrides.never ?? { mode: 'NEVER_CONFIRM' },
  };
  const catalogue = world.catalogue!;
  return {
    world: { channelId: ids.channelA, instant: ids.onlyA, slow: ids.both, never: ids.onlyB, propertyOf: (listingId) => `${listingId}-p1` },
    input: {
      ...world,
      catalogue: {
        ...catalogue,
        listings: catalogue.listings!.map((l) => ({
          ...l,
          ...ADD_ONS,
          channelIds: [ids.channelA],
          simulator: behaviour[l.id],
          properties: l.properties.map((p) => ({ ...p, quantity: 100 })),
        })),
        inventory: catalogue.inventory!.map((i) => (i.stopSell ? i : { ...i, quantity: 100 })),
      },
      gst: { slabTables: [GST_SLABS] },
    },
  };
}

export async function seedBookingWorld(
  overrides: Partial<Record<'instant' | 'slow' | 'never', Behaviour>> = {},
  svc: Services = testServices(),
): Promise<BookingWorld> {
  const { world, input } = bookingWorldInput(overrides);
  await importWorld({ ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue }, input, { allowPlaintextKeys: true });
  return world;
}

/** One unit of the listing's first suite for two adults; 5,000 a night + 5 % GST = 5,250 a night. */
export const stay = (listingId: string, checkIn = '2027-03-02', checkOut = '2027-03-03') => ({
  listingId,
  checkIn,
  checkOut,
  adults: 2,
  selectedProperties: [{ propertyId: `${listingId}-p1`, quantity: 1 }],
});

export const guest = { firstName: 'Asha', lastName: 'Rao', email: 'asha.rao@example.com', phone: '+91 98200 12345' };

/** Creates an order and returns its id and grand total (rupees). */
export async function order(group: GroupFixture, body: unknown): Promise<{ orderId: string; total: number }> {
  const res = await call('POST', '/v1/orders', { key: group.apiKey, body });
  if (res.status !== 200) throw new Error(`order not created: ${res.status} ${res.text}`);
  return { orderId: res.body.orderId, total: res.body.summary.grandTotal };
}

/** POST /v1/bookings for an order at its total, with a fresh externalBookingId unless given. */
export function book(group: GroupFixture, o: { orderId: string; total: number }, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return call('POST', '/v1/bookings', {
    key: group.apiKey,
    headers,
    body: { orderId: o.orderId, externalBookingId: uniqueId('ext'), acceptedTotal: o.total, primaryGuest: guest, ...extra },
  });
}

/**
 * A fixture booking made through the domain, as POST /v1/orders then POST /v1/bookings make
 * it (the group's test clock included), for tests that need a booking but are not about
 * booking over HTTP. No synchronous wait: the booking is as the gate and the workflow's first
 * look leave it, which for a CONFIRM_IMMEDIATELY listing is CONFIRMED; a slower one is left
 * PROCESSING to the worker, as the HTTP call would leave it after its wait.
 */
export async function placeStay(group: GroupFixture, listingId: string, checkIn?: string, checkOut?: string, svc: Services = testServices()): Promise<Booking> {
  const principal = principalOf(group);
  const own = await groupServices(svc, group.agentGroupId);
  const placed = await createOrder(orderDeps(own), principal, { request: stay(listingId, checkIn, checkOut) });
  const reply = await placeBooking(
    { ...bookingDeps(own), syncWaitMs: 0 },
    principal,
    {
      orderId: placed.orderId,
      externalBookingId: uniqueId('ext'),
      acceptedTotal: placed.pricing.summary.grandTotal,
      primaryGuest: guest,
      additionalGuests: [],
    },
    testOrigin(group.keyId),
  );
  return reply.booking;
}

/**
 * Cancels a landed booking through the domain (`cancelBooking` on the group's services, its
 * test clock included), as POST /v1/bookings/{bookingId}/cancel does, for tests that need a
 * cancelled booking but are not about cancelling over HTTP.
 */
export async function cancelStay(group: GroupFixture, bookingId: string, svc: Services = testServices()): Promise<CancelResult> {
  const own = await groupServices(svc, group.agentGroupId);
  return cancelBooking(bookingDeps(own), principalOf(group), bookingId, undefined, testOrigin(group.keyId));
}

/**
 * Amends a landed booking through the domain (`applyAmendment` on the group's services, its
 * test clock included), as POST /v1/bookings/{bookingId}/amendments does, for tests that need
 * an amended booking but are not about amending over HTTP.
 */
export async function amendStay(group: GroupFixture, bookingId: string, cmd: AmendmentCommand, svc: Services = testServices()): Promise<AmendmentReply> {
  const own = await groupServices(svc, group.agentGroupId);
  return applyAmendment(amendingDeps(own), principalOf(group), bookingId, cmd, testOrigin(group.keyId));
}

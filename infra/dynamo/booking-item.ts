import type { Booking } from '../../domain/bookings/booking.ts';
import { keys } from './keys.ts';

/**
 * A booking as a table item: the record plus its keys. The feed index moves with every
 * change (updatedAt); the open-work index is present only while `nextCheckAt` is set, so
 * a settled booking drops out of the sweeper's reads.
 */
export function bookingItem(b: Booking): Record<string, unknown> {
  return {
    ...keys.booking(b.agentGroupId, b.bookingRef),
    ...keys.bookingFeedIndex(b.agentGroupId, b.updatedAt, b.bookingRef),
    ...(b.nextCheckAt ? keys.openBookingIndex(b.nextCheckAt, b.agentGroupId, b.bookingRef) : {}),
    entity: 'Booking',
    ...b,
  };
}

const KEY_ATTRIBUTES = new Set(['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'entity']);

/** Fields added after bookings were first stored, with what an older item means by their absence. */
const defaults = (b: Record<string, unknown>) => ({
  chargedTotal: b.amount,
  invoicedIn: [],
  lastAmendment: null,
  amendingId: null,
});

export function bookingOf(item: Record<string, unknown>): Booking {
  const stored = Object.fromEntries(Object.entries(item).filter(([k]) => !KEY_ATTRIBUTES.has(k)));
  return { ...defaults(stored), ...stored } as unknown as Booking;
}

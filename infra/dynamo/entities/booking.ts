import type { Booking } from '../../../domain/bookings/booking.ts';
import { isGuestDataErased, stayEndedOn } from '../../../domain/guests/guest-erasure.ts';
import { ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/** Named conditions on a booking (placeholders: `#version` → version, and those named at each). */
export const bookingConditions = {
  /** Booking refs are random UUIDs; the guard turns an impossible collision into a refusal instead of an overwrite. */
  isNew: ITEM_IS_NEW,
  /** Every booking write is computed from one version and lands only on it (`:version`). */
  atVersion: '#version = :version',
  /** An invoice's mark is taken off only from the place it was read at (`:id` the invoice). */
  invoicedAt: (index: number) => `invoicedIn[${index}] = :id`,
  /** The backfill indexes an old settled booking only while it is on no second index (neither open work nor already erasable). */
  notOnSecondIndex: 'attribute_not_exists(GSI2PK)',
  /** A booking is marked once per invoice (`:id`): a retried step finds it marked and changes nothing, version included. */
  notYetMarked: 'attribute_exists(PK) AND NOT contains(invoicedIn, :id)',
} as const;

/* The BookingAlias item (PK = GROUP#<g>, SK = BOOKINGID#<property-system id>): the booking a property-system id names. */
export const bookingAliasEntity = {
  name: 'BookingAlias',
  key: keys.bookingAlias,
  conditions: {
    /** Written once; rewriting it for the same booking (`:ref`, a rerun) is harmless, for another one impossible. */
    free: 'attribute_not_exists(PK) OR bookingRef = :ref',
  },
} as const;

/**
 * GSI2 of a booking: the open-work index while `nextCheckAt` is set, so a settled booking
 * drops out of the sweeper's reads; once settled, the erasure index by the date its stay
 * ended, until its guest data is erased (then neither).
 */
export function secondIndexOf(b: Booking): Record<string, string> {
  if (b.nextCheckAt) return keys.openBookingIndex(b.nextCheckAt, b.agentGroupId, b.bookingRef);
  const endedOn = stayEndedOn(b);
  return endedOn && !isGuestDataErased(b) ? keys.guestErasureIndex(endedOn, b.agentGroupId, b.bookingRef) : {};
}

/** A booking as a table item: the record plus its keys. The feed index moves with every change (updatedAt). */
export function bookingItem(b: Booking): Record<string, unknown> {
  return {
    ...keys.booking(b.agentGroupId, b.bookingRef),
    ...keys.bookingFeedIndex(b.agentGroupId, b.updatedAt, b.bookingRef),
    ...secondIndexOf(b),
    entity: 'Booking',
    ...b,
  };
}

/**
 * The transaction item replacing `previous` by `next`: next.version must be previous.version + 1,
 * and the Put lands only while the stored booking is still at previous.version (every booking
 * write is computed from one version and lands only on it).
 */
export function bookingPutAtVersion(table: string, previous: Booking, next: Booking) {
  if (next.version !== previous.version + 1)
    throw new RangeError(`booking ${previous.bookingRef}: version ${previous.version} can only become ${previous.version + 1}`);
  return {
    Put: {
      TableName: table,
      Item: bookingItem(next),
      ConditionExpression: bookingConditions.atVersion,
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': previous.version },
    },
  };
}

/**
 * Attributes of the item that are not the booking's: its keys, and `scenario`, which bookings
 * stored before the sandbox scenarios moved to the simulator carry (docs/decisions/sandbox.md).
 */
const NOT_BOOKING_ATTRIBUTES = new Set(['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'entity', 'scenario']);

/** Fields added after bookings were first stored, with what an older item means by their absence. */
const defaults = (b: Record<string, unknown>) => ({
  chargedTotal: b.amount,
  invoicedIn: [],
  lastAmendment: null,
  amendingId: null,
});

export function bookingOf(item: Record<string, unknown>): Booking {
  const stored = Object.fromEntries(Object.entries(item).filter(([k]) => !NOT_BOOKING_ATTRIBUTES.has(k)));
  return { ...defaults(stored), ...stored } as unknown as Booking;
}

/** The Booking item: PK = GROUP#<g>, SK = BOOKING#<bookingRef>; on GSI1 (the feed) always, on GSI2 while open or until erased. */
export const bookingEntity = {
  name: 'Booking',
  key: keys.booking,
  toItem: bookingItem,
  fromItem: bookingOf,
  conditions: bookingConditions,
} as const;

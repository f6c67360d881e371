import * as v from 'valibot';
import type { BookingCheck } from '../domain/ports/booking-store.ts';
import { parseMessage } from './json-message.ts';

/**
 * The booking workflow queue's message body: which booking to look at, for which due time.
 * The booking itself stays in the table.
 */
export const BookingCheckMessageSchema = v.strictObject({
  v: v.literal(1),
  agentGroupId: v.pipe(v.string(), v.minLength(1)),
  bookingRef: v.pipe(v.string(), v.minLength(1)),
  dueAt: v.pipe(v.string(), v.isoTimestamp()),
});

export const encodeBookingCheck = (c: BookingCheck): string => JSON.stringify({ v: 1, agentGroupId: c.agentGroupId, bookingRef: c.bookingRef, dueAt: c.dueAt });

/** The check in a message body, or undefined when the body is not one of ours. */
export function decodeBookingCheck(body: string): BookingCheck | undefined {
  const message = parseMessage(BookingCheckMessageSchema, body);
  return message && { agentGroupId: message.agentGroupId, bookingRef: message.bookingRef, dueAt: message.dueAt };
}

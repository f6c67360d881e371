import { randomUUID } from 'node:crypto';
import type { BookingCallbackOutcome } from '../../domain/deliveries/booking-callback.ts';
import { uniqueId, type GroupFixture } from './stack.ts';

/** A booking.confirmed outcome of a fresh booking of `group`, to `callbackUrl`; a new event id each call. */
export const callbackOutcome = (
  group: Pick<GroupFixture, 'agentGroupId' | 'partnerId'>,
  callbackUrl: string,
  overrides: Partial<BookingCallbackOutcome> = {},
): BookingCallbackOutcome => ({
  eventId: randomUUID(),
  eventType: 'booking.confirmed',
  agentGroupId: group.agentGroupId,
  partnerId: group.partnerId,
  bookingRef: uniqueId('bk'),
  callbackUrl,
  occurredAt: new Date().toISOString(),
  status: 'CONFIRMED',
  externalBookingId: uniqueId('ext'),
  bookingId: uniqueId('pms'),
  reasonCode: null,
  reason: null,
  ...overrides,
});

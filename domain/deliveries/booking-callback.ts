import type { Minor } from '../money.ts';
import type { BookingFailure } from '../bookings/booking.ts';

/**
 * The booking outcomes pushed to a booking's callbackUrl (docs/callbacks.md).
 * PROCESSING is never pushed; booking.amended repeats once per applied amendment.
 */
export const BOOKING_CALLBACK_EVENT_TYPES = ['booking.confirmed', 'booking.failed', 'booking.cancelled', 'booking.amended'] as const;
export type BookingCallbackEventType = (typeof BOOKING_CALLBACK_EVENT_TYPES)[number];

/** One outcome to tell a partner about, as the booking workflow hands it to the delivery engine. */
export interface BookingCallbackOutcome {
  /**
   * Stable for this outcome of this booking (the workflow derives it from the booking and
   * the event type), so a workflow step that runs twice publishes one delivery, and every
   * retry carries the same X-Service-Event-Id.
   */
  readonly eventId: string;
  readonly eventType: BookingCallbackEventType;
  readonly agentGroupId: string;
  /** The partner owning the group: deliveries are stored and listed per partner. */
  readonly partnerId: string;
  /** The service's own booking id: the booking's deliveries are listed by it. Never sent. */
  readonly bookingRef: string;
  readonly callbackUrl: string;
  readonly occurredAt: string;
  readonly status: 'CONFIRMED' | 'FAILED' | 'CANCELLED';
  readonly externalBookingId: string;
  readonly bookingId: string | null;
  readonly reasonCode: BookingFailure['reasonCode'] | null;
  readonly reason: string | null;
  /** booking.amended only (docs/callbacks.md): the amendment and the stay and totals it left, in paise. */
  readonly amendment?: {
    readonly amendmentId: string;
    readonly checkIn: string;
    readonly checkOut: string;
    readonly previousTotal: Minor;
    readonly newTotal: Minor;
  };
}

/**
 * The AAD a group's callback signing secret is sealed under: binding the group id means a
 * sealed secret copied onto another group's record fails to open.
 */
export const callbackSecretContext = (agentGroupId: string): string => `callback:${agentGroupId}`;

import type { CatalogueEventType } from '../webhooks/event-types.ts';
import type { BookingCallbackEventType } from './booking-callback.ts';

/**
 * A delivery is the outbox record of one notification to one receiver: it exists before
 * any message is queued, and every attempt is written onto it. SQS only ever carries
 * "attempt N of delivery D is due now".
 */
export const DELIVERY_KINDS = ['webhook', 'callback'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** How one attempt ended, as the outbound sender reports it. */
export const ATTEMPT_OUTCOMES = ['success', 'permanent', 'retryable', 'redirect', 'blocked'] as const;
export type AttemptOutcomeKind = (typeof ATTEMPT_OUTCOMES)[number];

export interface DeliveryAttempt {
  readonly attempt: number;
  /** When the request started (ISO 8601 UTC). */
  readonly at: string;
  readonly outcome: AttemptOutcomeKind;
  readonly statusCode?: number;
  readonly error?: string;
  readonly durationMs: number;
}

/** What a delivery notifies: a catalogue change (webhooks) or a booking outcome (callbacks). */
export type DeliveryEventType = CatalogueEventType | BookingCallbackEventType;

interface DeliveryBase {
  readonly deliveryId: string;
  readonly partnerId: string;
  /** The event this notifies; equals the payload's dedupKey for catalogue webhooks and eventId for booking callbacks. */
  readonly eventId: string;
  /** The exact body sent, so retries and resends put identical bytes on the wire (and under the signature). */
  readonly payload: string;
  readonly status: DeliveryStatus;
  readonly attempts: readonly DeliveryAttempt[];
  /** Due time of the next attempt while PENDING; null once the delivery is final. */
  readonly nextAttemptAt: string | null;
  /** Why a FAILED delivery stopped, in words an operator can pass on. */
  readonly failureReason: string | null;
  /** The delivery this one re-sends, when a partner or operator asked for a resend. */
  readonly resendOf: string | null;
  /** Times the sweeper re-queued it since the last recorded attempt (its message was lost). */
  readonly requeues: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A catalogue webhook: sent to a registered endpoint, whose settings (URL, auth, timeout, maxAttempts) are read at each attempt. */
export interface WebhookDelivery extends DeliveryBase {
  readonly kind: 'webhook';
  readonly endpointId: string;
  readonly eventType: CatalogueEventType;
}

/**
 * A booking callback: no endpoint registry, so the delivery itself carries where it goes
 * (the booking's callbackUrl) and whose secret signs it (the agent group's).
 */
export interface CallbackDelivery extends DeliveryBase {
  readonly kind: 'callback';
  readonly eventType: BookingCallbackEventType;
  readonly agentGroupId: string;
  /** The service's own booking id; the booking's deliveries are listed by it. */
  readonly bookingRef: string;
  readonly callbackUrl: string;
}

export type Delivery = WebhookDelivery | CallbackDelivery;

/** Longest error text kept on an attempt; receivers' error bodies are not ours to archive. */
export const MAX_ATTEMPT_ERROR_LENGTH = 500;

/** What a partner (and the admin tool) sees of a delivery. */
export interface DeliveryView {
  readonly deliveryId: string;
  /** Null for a booking callback, which has no endpoint. */
  readonly endpointId: string | null;
  readonly eventId: string;
  readonly eventType: DeliveryEventType;
  readonly status: DeliveryStatus;
  readonly payload: unknown;
  readonly attempts: readonly DeliveryAttempt[];
  readonly nextAttemptAt: string | null;
  readonly failureReason: string | null;
  readonly resendOf: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Booking callbacks only: where it goes and for which booking (absent on webhooks, so their view is unchanged). */
  readonly callback?: { readonly agentGroupId: string; readonly bookingRef: string; readonly callbackUrl: string };
}

export function deliveryView(d: Delivery): DeliveryView {
  return {
    deliveryId: d.deliveryId,
    endpointId: d.kind === 'webhook' ? d.endpointId : null,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    payload: JSON.parse(d.payload) as unknown,
    attempts: d.attempts.map((a) => ({ ...a })),
    nextAttemptAt: d.nextAttemptAt,
    failureReason: d.failureReason,
    resendOf: d.resendOf,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    ...(d.kind === 'callback' ? { callback: { agentGroupId: d.agentGroupId, bookingRef: d.bookingRef, callbackUrl: d.callbackUrl } } : {}),
  };
}

import * as v from 'valibot';
import { BOOKING_FAILURE_REASONS } from '../../domain/bookings/booking.ts';
import { BOOKING_CALLBACK_EVENT_TYPES } from '../../domain/deliveries/booking-callback.ts';
import { CALLBACK_HEADERS, SIGNATURE_TOLERANCE_SECONDS } from '../../events/booking-callback.ts';
import { WEBHOOK_HEADERS } from '../../events/catalogue-webhook.ts';
import type { AnySchema } from '../http/route.ts';
import { DateTimeSchema } from './common.ts';
import { CatalogueNotificationSchema } from './deliveries.ts';

/**
 * What the service sends to partners rather than answers: the catalogue webhook and the
 * booking callback. The OpenAPI document lists them under `webhooks`; a unit test parses the
 * bodies events/ really builds with these schemas, so the reference cannot drift from the wire.
 */
export const BookingCallbackSchema = v.strictObject({
  eventId: v.pipe(v.string(), v.description('Stable for this outcome of this booking; equals X-Service-Event-Id. Deduplicate on it.')),
  eventType: v.pipe(
    v.picklist(BOOKING_CALLBACK_EVENT_TYPES),
    v.description('booking.confirmed, booking.failed, booking.cancelled or booking.amended (one per amendment applied).'),
  ),
  event: v.pipe(v.picklist(BOOKING_CALLBACK_EVENT_TYPES), v.description('The same value as eventType; read whichever your code expects.')),
  occurredAt: v.pipe(DateTimeSchema, v.description('Order outcomes of one booking by this, not by arrival.')),
  status: v.pipe(v.picklist(['CONFIRMED', 'FAILED', 'CANCELLED']), v.description("The booking's status with this outcome (CONFIRMED for booking.amended).")),
  externalBookingId: v.pipe(v.string(), v.description('The id you sent when booking.')),
  bookingId: v.pipe(v.nullable(v.string()), v.description('The id you address the booking by; null when it never landed.')),
  reasonCode: v.pipe(
    v.nullable(v.picklist(BOOKING_FAILURE_REASONS)),
    v.description(
      "Only on booking.failed: BOOKING_NOT_COMPLETED (the booking window closed unconfirmed) or CHANNEL_REFUSED (the property's channel manager refused the reservation).",
    ),
  ),
  reason: v.pipe(v.nullable(v.string()), v.description('Words for a human.')),
});

export const CatalogueWebhookSchema = v.strictObject({ ...CatalogueNotificationSchema.entries });

export interface OutboundHeader {
  readonly name: string;
  readonly description: string;
}

export interface OutboundMessage {
  readonly name: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly headers: readonly OutboundHeader[];
  readonly schema: AnySchema;
  /** How the service treats each class of answer from the receiver. */
  readonly answers: Readonly<Record<'2XX' | '4XX' | '5XX', string>>;
}

export const OUTBOUND_MESSAGES: readonly OutboundMessage[] = [
  {
    name: 'catalogueChange',
    operationId: 'catalogueWebhook',
    summary: 'Catalogue webhook (to each registered endpoint)',
    description: [
      'A thin notification that something your channel sells changed; re-fetch the current state with the read API.',
      'Sent to every active endpoint registered with `POST /api/webhooks/endpoints` whose `eventTypes` include the type.',
      'Delivery is at least once: deduplicate on `dedupKey`. Every retry and resend sends the same bytes.',
      '',
      '`X-Webhook-Signature` (when the endpoint has a signing secret) is base64 of HMAC-SHA256 over the raw body bytes, keyed with the signing secret; compare in constant time before parsing.',
      "`Authorization` carries the endpoint's Basic or Bearer secret when its `authType` says so, and the endpoint's static headers are added.",
      '',
      "Retries: about 0 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h and 6 h after the event (±10 %), up to the endpoint's `maxAttempts`. Redirects are never followed. See docs/webhooks.md.",
    ].join('\n'),
    headers: [
      { name: WEBHOOK_HEADERS.id, description: "Equals the body's dedupKey." },
      { name: WEBHOOK_HEADERS.attempt, description: '1 for the first attempt, then 2, 3, …' },
      { name: WEBHOOK_HEADERS.signature, description: "base64 HMAC-SHA256 of the raw body, keyed with the endpoint's signing secret; only when one is set." },
    ],
    schema: CatalogueWebhookSchema,
    answers: {
      '2XX': 'Stored; done. Answer once the event is safely stored and do the work afterwards.',
      '4XX': 'A permanent contract error: not retried, recorded as failed.',
      '5XX': 'Retried on the schedule above (as are a timeout, a connection error and a 3xx).',
    },
  },
  {
    name: 'bookingOutcome',
    operationId: 'bookingCallback',
    summary: "Booking callback (to the booking's callbackUrl)",
    description: [
      'The terminal outcome of a booking created with a `callbackUrl`: `booking.confirmed`, `booking.failed` or `booking.cancelled`.',
      'One booking can produce more than one (confirmed then cancelled; failed then a late confirmation).',
      '`GET /v1/bookings?updatedSince=…` stays the system of record if a callback never arrives.',
      '',
      `\`${CALLBACK_HEADERS.signature}\` is \`t=<unix seconds>,v1=<64 lowercase hex>\`: HMAC-SHA256 over the bytes \`<t>.<raw body>\`, keyed with your agent group's callback signing secret (shown once, when the key was issued).`,
      `Reject a \`t\` more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from your clock and compare \`v1\` in constant time. Each retry is signed afresh.`,
      '',
      'Retries: about 0, 1 min, 5 min, 15 min, 1 h 15 min and 4 h 15 min after the outcome (±10 %), six attempts, then recorded as permanently failed. See docs/callbacks.md.',
    ].join('\n'),
    headers: [
      { name: CALLBACK_HEADERS.eventId, description: "Equals the body's eventId; the same on every retry." },
      { name: CALLBACK_HEADERS.signature, description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`; new on every attempt.' },
    ],
    schema: BookingCallbackSchema,
    answers: {
      '2XX': 'Stored; done.',
      '4XX': 'A failure like any other: retried (unlike catalogue webhooks, a 404 or 410 is retried too).',
      '5XX': 'Retried on the schedule above (as are a timeout, a connection error and a 3xx).',
    },
  },
];

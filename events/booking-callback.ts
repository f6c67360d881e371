import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BookingCallbackEventType, BookingCallbackOutcome } from '../domain/deliveries/booking-callback.ts';
import { toRupees } from '../domain/money.ts';

/**
 * The booking callback as it leaves the service (docs/callbacks.md): the JSON body, its two headers, and the signature. docs/callbacks.md gives partners
 * the same recipe; verifyCallbackSignature is that recipe in TypeScript.
 */

export const CALLBACK_HEADERS = {
  /** Equals the body's eventId; the same on every retry of one outcome. */
  eventId: 'X-Service-Event-Id',
  /** `t=<unix-seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">`, fresh on every attempt. */
  signature: 'X-Service-Signature',
} as const;

/** How old a signature timestamp may be before a receiver rejects it (docs/callbacks.md's recipe says 300 s). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The wire body: the outcome's public fields, plus `event` carrying the same value as
 * `eventType` (the contract gives two body shapes and a receiver may read either).
 */
export type BookingCallbackBody = Pick<
  BookingCallbackOutcome,
  'eventId' | 'eventType' | 'occurredAt' | 'status' | 'externalBookingId' | 'bookingId' | 'reasonCode' | 'reason'
> & {
  readonly event: BookingCallbackEventType;
  /** booking.amended only, rupees (docs/callbacks.md). */
  readonly amendmentId?: string;
  readonly checkIn?: string;
  readonly checkOut?: string;
  readonly previousTotal?: number;
  readonly newTotal?: number;
};

/**
 * The body, with exactly these fields in a fixed order. It is built once per outcome and
 * stored on the delivery, so every retry sends the same bytes; only the signature header
 * changes between attempts.
 */
export function bookingCallbackBody(o: BookingCallbackOutcome): string {
  const body: BookingCallbackBody = {
    eventId: o.eventId,
    eventType: o.eventType,
    event: o.eventType,
    occurredAt: new Date(o.occurredAt).toISOString(),
    status: o.status,
    externalBookingId: o.externalBookingId,
    bookingId: o.bookingId,
    reasonCode: o.reasonCode,
    reason: o.reason,
    ...(o.amendment && {
      amendmentId: o.amendment.amendmentId,
      checkIn: o.amendment.checkIn,
      checkOut: o.amendment.checkOut,
      previousTotal: toRupees(o.amendment.previousTotal),
      newTotal: toRupees(o.amendment.newTotal),
    }),
  };
  return JSON.stringify(body);
}

const hmacHex = (t: number, rawBody: string | Buffer, secret: string): string => createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');

/** The `X-Service-Signature` value for `rawBody` signed at `t` (unix seconds). */
export function signCallback(rawBody: string | Buffer, signingSecret: string, t: number): string {
  if (!Number.isSafeInteger(t) || t < 0) throw new RangeError(`t must be whole unix seconds, got ${t}`);
  return `t=${t},v1=${hmacHex(t, rawBody, signingSecret)}`;
}

/** Exactly `t=<digits>,v1=<64 lowercase hex>`: anything else is not a signature of ours, so it is rejected rather than guessed at. */
const SIGNATURE_HEADER = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/;

export type SignatureCheck =
  | { readonly ok: true; readonly t: number }
  | { readonly ok: false; readonly reason: 'missing' | 'malformed' | 'stale' | 'future' | 'mismatch' };

/**
 * The receiver's check: parse the header strictly, reject a timestamp more than
 * `toleranceSeconds` away from `nowSeconds` (older: a replay; newer: a clock that cannot
 * be trusted), recompute the HMAC over `<t>.<raw body>` and compare in constant time.
 * Verify each request on its own: t (and so v1) differs between retries.
 */
export function checkCallbackSignature(
  rawBody: string | Buffer,
  signingSecret: string,
  header: string | undefined,
  nowSeconds: number,
  toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  const match = SIGNATURE_HEADER.exec(header);
  if (!match) return { ok: false, reason: 'malformed' };
  const t = Number(match[1]);
  if (nowSeconds - t > toleranceSeconds) return { ok: false, reason: 'stale' };
  if (t - nowSeconds > toleranceSeconds) return { ok: false, reason: 'future' };
  const expected = Buffer.from(hmacHex(t, rawBody, signingSecret), 'hex');
  const given = Buffer.from(match[2]!, 'hex');
  // Both are 32 bytes by the pattern above; timingSafeEqual still insists, and says nothing about where they differ.
  if (!timingSafeEqual(given, expected)) return { ok: false, reason: 'mismatch' };
  return { ok: true, t };
}

/** True only when `checkCallbackSignature` accepts the request. */
export const verifyCallbackSignature = (
  rawBody: string | Buffer,
  signingSecret: string,
  header: string | undefined,
  nowSeconds: number,
  toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): boolean => checkCallbackSignature(rawBody, signingSecret, header, nowSeconds, toleranceSeconds).ok;

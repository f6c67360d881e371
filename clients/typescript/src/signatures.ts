import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './generated/openapi.ts';

/** The body of a catalogue webhook (`inventory.changed`, `rate.changed`, …) as the service sends it. */
export type CatalogueWebhook = webhooks['catalogueChange']['post']['requestBody']['content']['application/json'];
/** The body of a booking callback (`booking.confirmed`, `booking.failed`, …) as the service sends it. */
export type BookingCallback = webhooks['bookingOutcome']['post']['requestBody']['content']['application/json'];

/** A callback signed further than this from the receiver's clock is refused (a replay, or a clock not to be trusted). */
export const CALLBACK_TOLERANCE_SECONDS = 300;

/** Exactly `t=<digits>,v1=<64 lowercase hex>`; anything else is refused rather than guessed at. */
const CALLBACK_SIGNATURE = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/;

type RawBody = string | Uint8Array;

const bytes = (raw: RawBody): Buffer => (typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));

/**
 * True when `X-Webhook-Signature` is the base64 HMAC-SHA256 of the raw body under the endpoint's
 * signing secret, compared in constant time. Pass the body exactly as received, before parsing.
 */
export function verifyWebhookSignature(rawBody: RawBody, signature: string | null | undefined, signingSecret: string): boolean {
  if (!signature) return false;
  const expected = createHmac('sha256', signingSecret).update(bytes(rawBody)).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * True when `X-Service-Signature` (`t=<unix seconds>,v1=<hex>`) is the HMAC-SHA256 of `<t>.<raw body>`
 * under the callback signing secret and `t` is within 300 seconds of `nowSeconds`. Every retry is
 * signed afresh, so verify each request on its own.
 */
export function verifyCallbackSignature(
  rawBody: RawBody,
  signature: string | null | undefined,
  signingSecret: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): boolean {
  const match = CALLBACK_SIGNATURE.exec(signature ?? '');
  if (!match) return false;
  const t = Number(match[1]);
  if (Math.abs(nowSeconds - t) > CALLBACK_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', signingSecret).update(`${t}.`).update(bytes(rawBody)).digest();
  return timingSafeEqual(Buffer.from(match[2]!, 'hex'), expected);
}

/** Thrown by `parseWebhook` and `parseCallback` when the signature does not verify: answer 401. */
export class SignatureError extends Error {
  override readonly name = 'SignatureError';
}

/** Verifies a catalogue webhook, then parses it: the typed body, or a SignatureError. */
export function parseWebhook(rawBody: RawBody, signature: string | null | undefined, signingSecret: string): CatalogueWebhook {
  if (!verifyWebhookSignature(rawBody, signature, signingSecret)) throw new SignatureError('X-Webhook-Signature does not match the body');
  return JSON.parse(bytes(rawBody).toString('utf8')) as CatalogueWebhook;
}

/** Verifies a booking callback, then parses it: the typed body, or a SignatureError. */
export function parseCallback(rawBody: RawBody, signature: string | null | undefined, signingSecret: string, nowSeconds?: number): BookingCallback {
  if (!verifyCallbackSignature(rawBody, signature, signingSecret, nowSeconds))
    throw new SignatureError('X-Service-Signature does not match the body or is outside the 300-second tolerance');
  return JSON.parse(bytes(rawBody).toString('utf8')) as BookingCallback;
}

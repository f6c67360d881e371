import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CatalogueNotification } from '../domain/deliveries/catalogue-event.ts';

/**
 * The catalogue webhook as it leaves the service (docs/webhooks.md): a thin JSON notification, its headers, and its signature.
 */

export const WEBHOOK_HEADERS = {
  signature: 'X-Webhook-Signature',
  id: 'X-Webhook-Id',
  attempt: 'X-Webhook-Attempt',
} as const;

/**
 * The body, with exactly the contract's fields in a fixed order. It is built once per event
 * and stored on the delivery, so every retry and resend sends the same bytes.
 */
export function catalogueWebhookBody(n: CatalogueNotification): string {
  return JSON.stringify({
    eventType: n.eventType,
    entityType: n.entityType,
    entityId: n.entityId,
    fromDate: n.fromDate,
    toDate: n.toDate,
    occurredAt: n.occurredAt,
    dedupKey: n.dedupKey,
  });
}

/** `X-Webhook-Signature`: base64 of HMAC-SHA256 over the raw body bytes, keyed with the endpoint's signing secret. */
export function signWebhookBody(rawBody: string | Buffer, signingSecret: string): string {
  return createHmac('sha256', signingSecret).update(rawBody).digest('base64');
}

/** The receiver's check, in constant time; what we document for partners and use in tests. */
export function verifyWebhookSignature(rawBody: string | Buffer, signingSecret: string, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, signingSecret), 'base64');
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

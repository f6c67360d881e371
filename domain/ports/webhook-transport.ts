import type { AttemptOutcomeKind, CallbackDelivery, Delivery } from '../deliveries/delivery.ts';
import type { WebhookEndpoint } from '../webhooks/endpoint.ts';

export interface TransportResult {
  readonly outcome: AttemptOutcomeKind;
  readonly statusCode?: number;
  readonly error?: string;
  readonly durationMs: number;
}

/**
 * Puts one attempt of a delivery on the wire to its endpoint: auth and signature headers,
 * the outbound guard, the endpoint's timeout. Never throws for the receiver's trouble;
 * the result says what happened.
 */
export interface WebhookTransport {
  send(endpoint: WebhookEndpoint, delivery: Delivery, attempt: number): Promise<TransportResult>;
}

/**
 * Puts one attempt of a booking callback on the wire to its callbackUrl: a fresh
 * timestamp and signature each attempt under the group's signing secret (handed over
 * still sealed; only the adapter opens it), the outbound guard, the callback timeout.
 * Never throws for the receiver's trouble.
 */
export interface CallbackTransport {
  send(delivery: CallbackDelivery, sealedSigningSecret: string): Promise<TransportResult>;
}

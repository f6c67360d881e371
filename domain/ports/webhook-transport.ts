import type { AttemptOutcomeKind, Delivery } from '../deliveries/delivery.ts';
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

import type { Delivery } from '../../domain/deliveries/delivery.ts';
import type { WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import { secretContext } from '../../domain/webhooks/manage-endpoints.ts';
import type { TransportResult, WebhookTransport } from '../../domain/ports/webhook-transport.ts';
import { signWebhookBody, WEBHOOK_HEADERS } from '../../events/catalogue-webhook.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { sendGuarded, type AttemptOutcome, type SendOptions } from './guarded-sender.ts';
import type { OutboundPolicy } from './outbound-guard.ts';

/**
 * The headers of one attempt: the endpoint's static headers first, so nothing a partner
 * registered can displace ours (names we set are also refused at registration), then
 * auth per authType, the HMAC signature whenever a signing secret is configured, and the
 * event identity.
 */
export function webhookHeaders(endpoint: WebhookEndpoint, delivery: Delivery, attempt: number, secrets: Pick<SecretBox, 'open'>): Record<string, string> {
  const headers: Record<string, string> = { ...endpoint.headers, 'Content-Type': 'application/json' };
  const authSecret = endpoint.authSecretSealed ? secrets.open(endpoint.authSecretSealed, secretContext(endpoint.id, 'auth')) : null;
  if (endpoint.authType === 'Basic' && authSecret) headers.Authorization = `Basic ${Buffer.from(authSecret, 'utf8').toString('base64')}`;
  if (endpoint.authType === 'Bearer' && authSecret) headers.Authorization = `Bearer ${authSecret}`;
  if (endpoint.signingSecretSealed) {
    headers[WEBHOOK_HEADERS.signature] = signWebhookBody(delivery.payload, secrets.open(endpoint.signingSecretSealed, secretContext(endpoint.id, 'signing')));
  }
  headers[WEBHOOK_HEADERS.id] = delivery.eventId;
  headers[WEBHOOK_HEADERS.attempt] = String(attempt);
  return headers;
}

/** What the domain keeps of the sender's outcome: the attempt record's fields, nothing of the response body. */
export const toTransportResult = (result: AttemptOutcome): TransportResult => ({
  outcome: result.outcome,
  ...(result.statusCode === undefined ? {} : { statusCode: result.statusCode }),
  ...(result.error === undefined ? {} : { error: result.error }),
  durationMs: result.durationMs,
});

/** Catalogue webhooks over the guarded sender: the stage's outbound policy, the endpoint's timeout. */
export class GuardedWebhookTransport implements WebhookTransport {
  constructor(
    private readonly secrets: Pick<SecretBox, 'open'>,
    private readonly policy: OutboundPolicy,
    private readonly options: SendOptions = {},
  ) {}

  async send(endpoint: WebhookEndpoint, delivery: Delivery, attempt: number): Promise<TransportResult> {
    const result = await sendGuarded(
      {
        url: endpoint.url,
        method: 'POST',
        headers: webhookHeaders(endpoint, delivery, attempt, this.secrets),
        body: delivery.payload,
        timeoutMs: endpoint.timeoutSeconds * 1000,
      },
      this.policy,
      this.options,
    );
    return toTransportResult(result);
  }
}

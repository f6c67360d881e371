import { CALLBACK_TIMEOUT_SECONDS } from '../../domain/deliveries/attempt-delivery.ts';
import { callbackSecretContext } from '../../domain/deliveries/booking-callback.ts';
import type { CallbackDelivery } from '../../domain/deliveries/delivery.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import type { CallbackTransport, TransportResult } from '../../domain/ports/webhook-transport.ts';
import { CALLBACK_HEADERS, signCallback } from '../../events/booking-callback.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { sendGuarded, type SendOptions } from './guarded-sender.ts';
import { toTransportResult } from './webhook-transport.ts';
import type { OutboundPolicy } from './outbound-guard.ts';

/**
 * The headers of one callback attempt. The timestamp is taken now, not at publish: a
 * receiver rejects signatures older than a few minutes, and retries run for hours.
 */
export function callbackHeaders(delivery: CallbackDelivery, signingSecret: string, now: Date): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [CALLBACK_HEADERS.eventId]: delivery.eventId,
    [CALLBACK_HEADERS.signature]: signCallback(delivery.payload, signingSecret, Math.floor(now.getTime() / 1000)),
  };
}

/** Booking callbacks over the guarded sender: the stage's outbound policy, CALLBACK_TIMEOUT_SECONDS. */
export class GuardedCallbackTransport implements CallbackTransport {
  constructor(
    private readonly secrets: Pick<SecretBox, 'open'>,
    private readonly policy: OutboundPolicy,
    private readonly clock: Clock,
    private readonly options: SendOptions = {},
  ) {}

  async send(delivery: CallbackDelivery, sealedSigningSecret: string): Promise<TransportResult> {
    const secret = this.secrets.open(sealedSigningSecret, callbackSecretContext(delivery.agentGroupId));
    const result = await sendGuarded(
      {
        url: delivery.callbackUrl,
        method: 'POST',
        headers: callbackHeaders(delivery, secret, this.clock.now()),
        body: delivery.payload,
        timeoutMs: CALLBACK_TIMEOUT_SECONDS * 1000,
      },
      this.policy,
      this.options,
    );
    return toTransportResult(result);
  }
}

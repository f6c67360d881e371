import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../domain/deliveries/delivery.ts';
import type { WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import { secretContext } from '../../domain/webhooks/manage-endpoints.ts';
import { catalogueWebhookBody, signWebhookBody, verifyWebhookSignature } from '../../events/catalogue-webhook.ts';
import { decodeDeliveryMessage, encodeDeliveryMessage } from '../../events/delivery-message.ts';
import { SecretBox } from '../../infra/crypto/secret-box.ts';
import { webhookHeaders } from '../../infra/http/webhook-transport.ts';

const NOTIFICATION = {
  eventType: 'rate.changed',
  entityType: 'rate',
  entityId: 'prop-42',
  fromDate: '2026-04-01',
  toDate: '2026-04-05',
  occurredAt: '2026-03-01T10:00:00.000Z',
  dedupKey: '6f1c1b8e-8a44-4c5b-9a55-3f2a0c1f9d10',
} as const;

/** The receiver's recipe from docs/webhooks.md, written without any of our code. */
const independentSignature = (rawBody: string, secret: string): string =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(rawBody, 'utf8')).digest('base64');

describe('Function: catalogueWebhookBody', () => {
  it('carries exactly the contract fields, in the documented order', () => {
    const body = catalogueWebhookBody(NOTIFICATION);

    expect(Object.keys(JSON.parse(body))).toEqual(['eventType', 'entityType', 'entityId', 'fromDate', 'toDate', 'occurredAt', 'dedupKey']);
    expect(JSON.parse(body)).toEqual(NOTIFICATION);
  });

  it('keeps null date windows as explicit nulls', () => {
    const body = JSON.parse(catalogueWebhookBody({ ...NOTIFICATION, eventType: 'listing.updated', entityType: 'listing', fromDate: null, toDate: null }));

    expect(body).toMatchObject({ fromDate: null, toDate: null });
  });
});

describe('Function: signWebhookBody', () => {
  it('is base64 HMAC-SHA256 of the raw body, as an independent implementation computes it', () => {
    const body = catalogueWebhookBody(NOTIFICATION);
    const secret = 'whsec_0123456789abcdef';

    expect(signWebhookBody(body, secret)).toBe(independentSignature(body, secret));
  });

  it('signs non-ASCII bodies over their UTF-8 bytes', () => {
    const body = catalogueWebhookBody({ ...NOTIFICATION, entityId: 'villa-ಮೈಸೂರು' });

    expect(signWebhookBody(body, 'whsec_0123456789abcdef')).toBe(independentSignature(body, 'whsec_0123456789abcdef'));
  });

  it('verifies its own signature and rejects a changed body, another secret or a missing header', () => {
    const body = catalogueWebhookBody(NOTIFICATION);
    const signature = signWebhookBody(body, 'whsec_0123456789abcdef');

    expect(verifyWebhookSignature(body, 'whsec_0123456789abcdef', signature)).toBe(true);
    expect(verifyWebhookSignature(body.replace('prop-42', 'prop-43'), 'whsec_0123456789abcdef', signature)).toBe(false);
    expect(verifyWebhookSignature(body, 'whsec_fedcba9876543210', signature)).toBe(false);
    expect(verifyWebhookSignature(body, 'whsec_0123456789abcdef', undefined)).toBe(false);
  });
});

describe('Function: webhookHeaders', () => {
  const box = new SecretBox(randomBytes(32));
  const endpoint = (overrides: Partial<WebhookEndpoint>): WebhookEndpoint => ({
    id: 'ep-1',
    partnerId: 'partner-1',
    channelId: 'chan-1',
    url: 'https://93.184.216.34/hook',
    description: null,
    authType: 'None',
    authSecretSealed: null,
    signingSecretSealed: null,
    eventTypes: null,
    headers: { 'X-Partner-Env': 'prod' },
    maxAttempts: 8,
    timeoutSeconds: 10,
    status: 'ACTIVE',
    createdAt: NOTIFICATION.occurredAt,
    updatedAt: NOTIFICATION.occurredAt,
    ...overrides,
  });
  const delivery = { payload: catalogueWebhookBody(NOTIFICATION), eventId: NOTIFICATION.dedupKey } as Delivery;

  it('sends JSON, the static headers, the event id and the attempt number', () => {
    const headers = webhookHeaders(endpoint({}), delivery, 3, box);

    expect(headers).toEqual({ 'X-Partner-Env': 'prod', 'Content-Type': 'application/json', 'X-Webhook-Id': NOTIFICATION.dedupKey, 'X-Webhook-Attempt': '3' });
  });

  it('sends Basic as base64 of user:password', () => {
    const headers = webhookHeaders(
      endpoint({ authType: 'Basic', authSecretSealed: box.seal('hooks:pa55:word', secretContext('ep-1', 'auth')) }),
      delivery,
      1,
      box,
    );

    expect(headers.Authorization).toBe(`Basic ${Buffer.from('hooks:pa55:word').toString('base64')}`);
  });

  it('sends Bearer with the token as given', () => {
    const headers = webhookHeaders(
      endpoint({ authType: 'Bearer', authSecretSealed: box.seal('tok_abc.def', secretContext('ep-1', 'auth')) }),
      delivery,
      1,
      box,
    );

    expect(headers.Authorization).toBe('Bearer tok_abc.def');
  });

  it('signs whenever a signing secret is configured, whatever the authType', () => {
    const sealed = box.seal('whsec_0123456789abcdef', secretContext('ep-1', 'signing'));

    const hmac = webhookHeaders(endpoint({ authType: 'HMAC', signingSecretSealed: sealed }), delivery, 1, box);
    const bearer = webhookHeaders(
      endpoint({ authType: 'Bearer', authSecretSealed: box.seal('tok', secretContext('ep-1', 'auth')), signingSecretSealed: sealed }),
      delivery,
      1,
      box,
    );

    expect(hmac['X-Webhook-Signature']).toBe(independentSignature(delivery.payload, 'whsec_0123456789abcdef'));
    expect(hmac.Authorization).toBeUndefined();
    expect(bearer['X-Webhook-Signature']).toBe(hmac['X-Webhook-Signature']);
  });

  it('cannot open a secret sealed for another endpoint', () => {
    const foreign = box.seal('whsec_0123456789abcdef', secretContext('ep-2', 'signing'));

    expect(() => webhookHeaders(endpoint({ authType: 'HMAC', signingSecretSealed: foreign }), delivery, 1, box)).toThrow();
  });
});

describe('Delivery queue message', () => {
  it('round-trips a command and refuses anything else', () => {
    const command = { kind: 'webhook', partnerId: 'p-1', deliveryId: 'd-1', attempt: 2 } as const;

    expect(decodeDeliveryMessage(encodeDeliveryMessage(command))).toEqual(command);
    expect(decodeDeliveryMessage('not json')).toBeUndefined();
    expect(decodeDeliveryMessage(JSON.stringify({ ...command, v: 1, attempt: 0 }))).toBeUndefined();
    expect(decodeDeliveryMessage(JSON.stringify({ ...command, v: 1, extra: true }))).toBeUndefined();
  });
});

import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueEvent } from '../../domain/deliveries/catalogue-event.ts';
import { publishCatalogueEvents } from '../../domain/deliveries/publish-catalogue-events.ts';
import { deliveryDeps } from '../../infra/container.ts';
import { expectContract } from '../support/contract.ts';
import { call, newPartner, stack, testServices, uniqueId, type PartnerFixture } from '../support/stack.ts';
import { startReceiver, type ReceivedRequest, type Receiver } from '../support/webhook-receiver.ts';

/*
 * Catalogue webhooks end to end: endpoints registered over HTTP, events published into
 * the stack's queue, and serverless offline's worker (serverless-offline-sqs polling
 * fauxqs) delivering to a real receiver on 127.0.0.1. The test stage runs with
 * TIME_SCALE=1000, so retries follow each other within seconds.
 */
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
});

/** The receiver's check from docs/webhooks.md, with nothing of ours: base64 HMAC-SHA256 of the raw body. */
const hmacOf = (raw: Buffer, secret: string): string => createHmac('sha256', secret).update(raw).digest('base64');

/** A partner on a channel of its own, so no other test's endpoints receive its events. */
const partner = () => newPartner({ channelId: uniqueId('chan') });

async function register(p: PartnerFixture, path: string, fields: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/webhooks/endpoints', { key: p.apiKey, body: { url: `${receiver.url}${path}`, timeoutSeconds: 5, ...fields } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

const rateChanged = (p: PartnerFixture, overrides: Partial<CatalogueEvent> = {}): CatalogueEvent => ({
  eventType: 'rate.changed',
  entityType: 'rate',
  entityId: uniqueId('prop'),
  fromDate: '2026-06-01',
  toDate: '2026-06-07',
  occurredAt: new Date().toISOString(),
  channelIds: [p.channelId],
  ...overrides,
});

const publish = (...events: CatalogueEvent[]) => publishCatalogueEvents(deliveryDeps(testServices()), events);

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const deliveriesOf = (p: PartnerFixture, endpointId: string, query = '') =>
  call('GET', `/api/webhooks/endpoints/${endpointId}/deliveries${query}`, { key: p.apiKey });

/** The endpoint's deliveries once none is PENDING any more. */
const settled = (p: PartnerFixture, endpointId: string) =>
  eventually(
    () => deliveriesOf(p, endpointId),
    (res) => res.status === 200 && res.body.data.length > 0 && res.body.data.every((d: { status: string }) => d.status !== 'PENDING'),
  );

const onlyRequest = async (path: string): Promise<ReceivedRequest> => (await receiver.waitFor(path, 1))[0]!;

// Each test has a partner on a channel of its own and receiver paths no other test uses, and the slow ones wait
// on the stack's retries or a quiet spell: they run side by side (docs/local-development.md, "Test tiers").
describe.concurrent('Catalogue webhook delivery', () => {
  it('signs with HMAC-SHA256 over the raw body, and sends the event id, attempt and static headers', async ({ expect }) => {
    // prepare
    const p = await partner();
    const secret = 'whsec_e2e_signing_secret_01';
    await register(p, '/hmac', { authType: 'HMAC', signingSecret: secret, headers: { 'X-Partner-Env': 'staging', 'X-Tenant': 'acme' } });
    const event = rateChanged(p);

    // act
    await publish(event);
    const req = await onlyRequest('/hmac');

    // assess
    expect(req.headers['x-webhook-signature']).toBe(hmacOf(req.rawBody, secret));
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-partner-env']).toBe('staging');
    expect(req.headers['x-tenant']).toBe('acme');
    expect(req.headers['x-webhook-attempt']).toBe('1');
    expect(req.headers['x-webhook-id']).toBe(req.body.dedupKey);
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toEqual({
      eventType: 'rate.changed',
      entityType: 'rate',
      entityId: event.entityId,
      fromDate: '2026-06-01',
      toDate: '2026-06-07',
      occurredAt: event.occurredAt,
      dedupKey: expect.any(String),
    });
  });

  it('sends Basic and Bearer credentials as registered', async ({ expect }) => {
    // prepare
    const p = await partner();
    await register(p, '/basic', { authType: 'Basic', authSecret: 'hook-user:s3cret' });
    await register(p, '/bearer', { authType: 'Bearer', authSecret: 'tok_e2e_bearer_123' });

    // act
    await publish(rateChanged(p));
    const [basic, bearer] = await Promise.all([onlyRequest('/basic'), onlyRequest('/bearer')]);

    // assess
    expect(basic.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:s3cret').toString('base64')}`);
    expect(bearer.headers.authorization).toBe('Bearer tok_e2e_bearer_123');
    expect(basic.headers['x-webhook-signature']).toBeUndefined();
  });

  it('retries after a 5xx with the same bytes and dedupKey, and records every attempt', async ({ expect }) => {
    // prepare
    const p = await partner();
    const path = '/flaky';
    receiver.respond(path, (_req, nth) => (nth < 2 ? { status: 503, body: 'busy' } : { status: 200 }));
    const ep = await register(p, path, { maxAttempts: 4, signingSecret: 'whsec_e2e_signing_secret_02' });

    // act
    await publish(rateChanged(p));
    const requests = await receiver.waitFor(path, 3, 30_000);
    const log = await settled(p, ep.id);

    // assess
    expect(requests.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(requests.map((r) => r.rawBody.toString('utf8'))).size).toBe(1);
    expect(new Set(requests.map((r) => r.headers['x-webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((r) => r.headers['x-webhook-signature'])).size).toBe(1);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({
      status: 'SUCCEEDED',
      eventId: requests[0]!.body.dedupKey,
      attempts: [
        { attempt: 1, outcome: 'retryable', statusCode: 503 },
        { attempt: 2, outcome: 'retryable', statusCode: 503 },
        { attempt: 3, outcome: 'success', statusCode: 200 },
      ],
    });
    for (const a of log.body.data[0].attempts) expect(a.durationMs).toEqual(expect.any(Number));
  });

  it('gives up after maxAttempts of 5xx and records the delivery FAILED', async ({ expect }) => {
    // prepare
    const p = await partner();
    const path = '/down';
    receiver.respond(path, () => ({ status: 500 }));
    const ep = await register(p, path, { maxAttempts: 2 });

    // act
    await publish(rateChanged(p));
    await receiver.waitFor(path, 2, 30_000);
    const log = await settled(p, ep.id);

    // assess
    expect(log.body.data[0]).toMatchObject({ status: 'FAILED', nextAttemptAt: null, attempts: [{ statusCode: 500 }, { statusCode: 500 }] });
    expect(log.body.data[0].failureReason).toContain('2 attempts');
  });

  it('does not retry after a 4xx', async ({ expect }) => {
    // prepare
    const p = await partner();
    const path = '/rejects';
    receiver.respond(path, () => ({ status: 422, body: '{"error":"bad"}' }));
    const ep = await register(p, path);

    // act
    await publish(rateChanged(p));
    await onlyRequest(path);
    const log = await settled(p, ep.id);
    await new Promise((r) => setTimeout(r, 3000));

    // assess
    expect(receiver.to(path)).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ status: 'FAILED', attempts: [{ attempt: 1, outcome: 'permanent', statusCode: 422 }] });
  });

  it('treats a 3xx as a failure and never follows it', async ({ expect }) => {
    // prepare
    const p = await partner();
    const path = '/moved';
    receiver.respond(path, () => ({ status: 302, headers: { Location: `${receiver.url}/redirect-target` } }));
    const ep = await register(p, path);

    // act
    await publish(rateChanged(p));
    await onlyRequest(path);
    const log = await settled(p, ep.id);
    await new Promise((r) => setTimeout(r, 2000));

    // assess
    expect(receiver.to('/redirect-target')).toHaveLength(0);
    expect(receiver.to(path)).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ status: 'FAILED', attempts: [{ outcome: 'redirect', statusCode: 302 }] });
  });

  it('signs the next delivery with a signing secret rotated by PUT', async ({ expect }) => {
    // prepare
    const p = await partner();
    const path = '/rotated';
    const ep = await register(p, path, { authType: 'HMAC', signingSecret: 'whsec_e2e_old_secret_000' });
    const put = await call('PUT', `/api/webhooks/endpoints/${ep.id}`, { key: p.apiKey, body: { signingSecret: 'whsec_e2e_new_secret_111' } });
    expect(put.status).toBe(200);

    // act
    await publish(rateChanged(p));
    const req = await onlyRequest(path);

    // assess
    expect(req.headers['x-webhook-signature']).toBe(hmacOf(req.rawBody, 'whsec_e2e_new_secret_111'));
    expect(req.headers['x-webhook-signature']).not.toBe(hmacOf(req.rawBody, 'whsec_e2e_old_secret_000'));
  });

  it('delivers only the event types an endpoint subscribed to', async ({ expect }) => {
    // prepare
    const p = await partner();
    await register(p, '/listings-only', { eventTypes: ['listing.updated'] });

    // act
    await publish(rateChanged(p), {
      eventType: 'listing.updated',
      entityType: 'listing',
      entityId: 'listing-1',
      fromDate: null,
      toDate: null,
      occurredAt: new Date().toISOString(),
      channelIds: [p.channelId],
    });
    await receiver.waitFor('/listings-only', 1);
    await new Promise((r) => setTimeout(r, 2000));

    // assess
    expect(receiver.to('/listings-only').map((r) => r.body.eventType)).toEqual(['listing.updated']);
  });
});

describe('GET /api/webhooks/endpoints/{id}/deliveries', () => {
  it('pages newest first with a signed cursor and filters by outcome', async () => {
    // prepare
    const p = await partner();
    const path = '/log';
    receiver.respond(path, (req) => ({ status: req.body.entityId.endsWith('bad') ? 400 : 200 }));
    const ep = await register(p, path);
    await publish(rateChanged(p, { entityId: 'prop-1-ok' }));
    await receiver.waitFor(path, 1);
    await publish(rateChanged(p, { entityId: 'prop-2-bad' }));
    await receiver.waitFor(path, 2);
    await eventually(
      () => deliveriesOf(p, ep.id),
      (res) => res.body.data.length === 2 && res.body.data.every((d: { status: string }) => d.status !== 'PENDING'),
    );

    // act
    const first = await deliveriesOf(p, ep.id, '?size=1');
    const second = await deliveriesOf(p, ep.id, `?size=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    const failed = await deliveriesOf(p, ep.id, '?outcome=FAILED');

    // assess
    expect(first.body.data.map((d: any) => d.payload.entityId)).toEqual(['prop-2-bad']);
    expect(second.body.data.map((d: any) => d.payload.entityId)).toEqual(['prop-1-ok']);
    expect(failed.body.data.map((d: any) => d.payload.entityId)).toEqual(['prop-2-bad']);
    expect(failed.body.nextCursor).toBeNull();
  });

  it.each([
    ['?size=101', 'size'],
    ['?size=0', 'size'],
    ['?outcome=LOST', 'outcome'],
    ['?cursor=not-a-cursor', 'cursor'],
    ['?colour=blue', 'colour'],
  ])('answers %s with a 400 naming %s', async (query, param) => {
    const p = await partner();
    const ep = await register(p, '/never');

    const res = await deliveriesOf(p, ep.id, query);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param });
  });

  it('refuses a cursor minted for another partner or another filter', async () => {
    // prepare
    const p = await partner();
    const path = '/cursors';
    const ep = await register(p, path);
    await publish(rateChanged(p), rateChanged(p));
    await receiver.waitFor(path, 2);
    const page = await deliveriesOf(p, ep.id, '?size=1');
    const cursor = encodeURIComponent(page.body.nextCursor);
    const other = await partner();
    const otherEp = await register(other, '/cursors-other');

    // act
    const otherFilter = await deliveriesOf(p, ep.id, `?size=1&outcome=FAILED&cursor=${cursor}`);
    const otherPartner = await deliveriesOf(other, otherEp.id, `?size=1&cursor=${cursor}`);
    const tampered = await deliveriesOf(p, ep.id, `?size=1&cursor=${cursor.slice(0, -2)}AA`);

    // assess
    for (const res of [otherFilter, otherPartner, tampered]) expect(res.body).toMatchObject({ status: 400, param: 'cursor' });
  });

  it("answers 404 for another partner's endpoint", async () => {
    const owner = await partner();
    const ep = await register(owner, '/private');
    const stranger = await partner();

    const res = await deliveriesOf(stranger, ep.id);

    expect(res.status).toBe(404);
  });
});

describe('POST /api/webhooks/deliveries/{id}/resend', () => {
  it('sends the same payload and dedupKey again as a new delivery', async () => {
    // prepare
    const p = await partner();
    const path = '/resend';
    receiver.respond(path, (_req, nth) => ({ status: nth === 0 ? 410 : 200 }));
    const ep = await register(p, path, { signingSecret: 'whsec_e2e_signing_secret_03' });
    await publish(rateChanged(p));
    const [original] = (await settled(p, ep.id)).body.data;

    // act
    const res = await call('POST', `/api/webhooks/deliveries/${original.deliveryId}/resend`, { key: p.apiKey });
    const requests = await receiver.waitFor(path, 2);
    const log = await settled(p, ep.id);

    // assess
    expect(res.status).toBe(202);
    expectContract(res, 'resendWebhookDelivery');
    expectContract(log, 'listWebhookDeliveries');
    expect(res.body).toMatchObject({ status: 'PENDING', resendOf: original.deliveryId, eventId: original.eventId, attempts: [] });
    expect(res.body.deliveryId).not.toBe(original.deliveryId);
    expect(requests[1]!.rawBody.equals(requests[0]!.rawBody)).toBe(true);
    expect(requests[1]!.headers['x-webhook-id']).toBe(requests[0]!.headers['x-webhook-id']);
    expect(log.body.data.map((d: any) => d.status)).toEqual(['SUCCEEDED', 'FAILED']);
  });

  it("answers 404 for another partner's delivery, like a missing one", async () => {
    // prepare
    const owner = await partner();
    const ep = await register(owner, '/resend-private');
    await publish(rateChanged(owner));
    const [delivery] = (await settled(owner, ep.id)).body.data;
    const stranger = await partner();

    // act
    const foreign = await call('POST', `/api/webhooks/deliveries/${delivery.deliveryId}/resend`, { key: stranger.apiKey });
    const missing = await call('POST', `/api/webhooks/deliveries/${crypto.randomUUID()}/resend`, { key: stranger.apiKey });

    // assess
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(missing.body.message);
  });
});

describe('GET /api/changes', () => {
  it("returns the channel's events oldest first and a cursor to poll with", async () => {
    // prepare
    const p = await partner();
    const a = rateChanged(p, { entityId: 'prop-a' });
    const b = rateChanged(p, { entityId: 'prop-b', eventType: 'inventory.changed', entityType: 'inventory' });
    await publish(a);
    await publish(b);

    // act
    const first = await call('GET', '/api/changes?size=1', { key: p.apiKey });
    const second = await call('GET', `/api/changes?size=1&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key: p.apiKey });
    const caughtUp = await call('GET', `/api/changes?cursor=${encodeURIComponent(second.body.nextCursor)}`, { key: p.apiKey });
    await publish(rateChanged(p, { entityId: 'prop-c' }));
    const later = await call('GET', `/api/changes?cursor=${encodeURIComponent(caughtUp.body.nextCursor)}`, { key: p.apiKey });

    // assess
    expectContract(second, 'listChanges');
    expect(first.body.data.map((c: any) => c.entityId)).toEqual(['prop-a']);
    expect(second.body.data).toEqual([
      expect.objectContaining({
        entityId: 'prop-b',
        eventType: 'inventory.changed',
        fromDate: '2026-06-01',
        dedupKey: expect.any(String),
        recordedAt: expect.any(String),
      }),
    ]);
    expect(caughtUp.body.data).toEqual([]);
    expect(caughtUp.body.nextCursor).toEqual(expect.any(String));
    expect(later.body.data.map((c: any) => c.entityId)).toEqual(['prop-c']);
  });

  it("shows a partner only its own channel's changes", async () => {
    const p = await partner();
    const other = await partner();
    await publish(rateChanged(other, { entityId: 'elsewhere' }));

    const res = await call('GET', '/api/changes', { key: p.apiKey });

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('Sweeper', () => {
  it('can be invoked by hand through the offline Lambda port', async () => {
    const res = await fetch(`http://127.0.0.1:${stack().lambdaPort}/2015-03-31/functions/partner-distribution-test-sweepDeliveries/invocations`, {
      method: 'POST',
      body: '{}',
    });

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ requeued: expect.any(Number), abandoned: expect.any(Number), notQueued: 0 });
  });
});

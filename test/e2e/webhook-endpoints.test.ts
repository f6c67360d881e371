import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { expectContract } from '../support/contract.ts';
import { call, newPartner, testServices } from '../support/stack.ts';

const PUBLIC_URL = 'https://93.184.216.34/hooks/catalogue';
const SECRET = 'whsec_test_signing_secret_0001';

async function create(key: string, body: Record<string, unknown>) {
  return call('POST', '/api/webhooks/endpoints', { key, body });
}

describe('POST /api/webhooks/endpoints', () => {
  it('creates an active endpoint and never echoes a secret', async () => {
    const p = await newPartner();
    const res = await create(p.apiKey, {
      url: PUBLIC_URL,
      authType: 'HMAC',
      signingSecret: SECRET,
      eventTypes: ['rate.changed'],
      headers: { 'X-Partner-Env': 'prod' },
    });
    expect(res.status).toBe(201);
    expectContract(res, 'createWebhookEndpoint');
    expect(res.body).toMatchObject({
      url: PUBLIC_URL,
      authType: 'HMAC',
      signingSecretConfigured: true,
      authSecretConfigured: false,
      eventTypes: ['rate.changed'],
      headers: { 'X-Partner-Env': 'prod' },
      maxAttempts: 8,
      status: 'ACTIVE',
    });
    expect(res.text).not.toContain(SECRET);
  });

  it('stores secrets encrypted, not in plaintext', async () => {
    const p = await newPartner();
    const res = await create(p.apiKey, { url: PUBLIC_URL, authType: 'Bearer', authSecret: 'bearer-token-plain-123', signingSecret: SECRET });
    const db = createDocumentClient(testServices().config);
    const raw = await db.send(new GetCommand({ TableName: testServices().config.tableName, Key: keys.webhookEndpoint(p.partnerId, res.body.id) }));
    const stored = JSON.stringify(raw.Item);
    expect(stored).not.toContain('bearer-token-plain-123');
    expect(stored).not.toContain(SECRET);
    expect(raw.Item?.authSecretSealed).toMatch(/^v1\./);
  });

  it.each([
    [{ url: PUBLIC_URL, authType: 'HMAC' }, 'signingSecret'],
    [{ url: PUBLIC_URL, authType: 'Basic' }, 'authSecret'],
    [{ url: PUBLIC_URL, authType: 'Basic', authSecret: 'no-colon' }, 'authSecret'],
    [{ url: PUBLIC_URL, authType: 'Bearer' }, 'authSecret'],
    [{ url: PUBLIC_URL, authType: 'Digest' }, 'authType'],
    [{ url: PUBLIC_URL, eventTypes: ['booking.confirmed'] }, 'eventTypes[0]'],
    [{ url: PUBLIC_URL, eventTypes: [] }, 'eventTypes'],
    [{ url: PUBLIC_URL, maxAttempts: 0 }, 'maxAttempts'],
    [{ url: PUBLIC_URL, maxAttempts: 16 }, 'maxAttempts'],
    [{ url: PUBLIC_URL, headers: { Authorization: 'x' } }, 'headers.Authorization'],
    [{ url: PUBLIC_URL, signingSecret: 'short' }, 'signingSecret'],
    [{ url: PUBLIC_URL, colour: 'blue' }, 'colour'],
    [{ authType: 'None' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'https://10.1.2.3/hook' }, 'url'],
    [{ url: 'https://[::ffff:169.254.169.254]/latest' }, 'url'],
    [{ url: 'http://93.184.216.34/hook' }, 'url'],
    [{ url: 'https://user:pw@93.184.216.34/hook' }, 'url'],
  ])('rejects %j with a 400 naming %s', async (body, param) => {
    const p = await newPartner();
    const res = await create(p.apiKey, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', param });
    expect(res.body.message).toContain(param.split(/[.[]/)[0]);
  });

  it('answers malformed JSON and a wrong content type with a 400 in the error shape', async () => {
    const p = await newPartner();
    const malformed = await call('POST', '/api/webhooks/endpoints', { key: p.apiKey, rawBody: '{"url": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'MALFORMED_JSON', param: 'body', path: '/api/webhooks/endpoints' });
    const wrongType = await call('POST', '/api/webhooks/endpoints', {
      key: p.apiKey,
      rawBody: JSON.stringify({ url: PUBLIC_URL }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', param: 'Content-Type' });
  });

  it('refuses the endpoint past the per-partner maximum with 409', async () => {
    const p = await newPartner();
    const created = await Promise.all(Array.from({ length: 20 }, () => create(p.apiKey, { url: PUBLIC_URL })));
    expect(
      created.map((r) => r.status),
      created.map((r) => r.text.slice(0, 200)).join('\n'),
    ).toEqual(Array(20).fill(201));
    const extra = await create(p.apiKey, { url: PUBLIC_URL });
    expect(extra.status).toBe(409);
    expect(extra.body.code).toBe('CONFLICT');
  });
});

describe('GET, PUT and DELETE /api/webhooks/endpoints/{id}', () => {
  it('keeps a secret when PUT omits it and rotates it when PUT sends one', async () => {
    const p = await newPartner();
    const { body: made } = await create(p.apiKey, { url: PUBLIC_URL, authType: 'HMAC', signingSecret: SECRET });
    const renamed = await call('PUT', `/api/webhooks/endpoints/${made.id}`, { key: p.apiKey, body: { description: 'prod receiver', maxAttempts: 3 } });
    expect(renamed.body).toMatchObject({});
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expectContract(renamed, 'updateWebhookEndpoint');
    expect(renamed.body).toMatchObject({ description: 'prod receiver', maxAttempts: 3, signingSecretConfigured: true, authType: 'HMAC' });

    const db = createDocumentClient(testServices().config);
    const read = async () =>
      (await db.send(new GetCommand({ TableName: testServices().config.tableName, Key: keys.webhookEndpoint(p.partnerId, made.id) }))).Item
        ?.signingSecretSealed as string;
    const before = await read();
    const rotated = await call('PUT', `/api/webhooks/endpoints/${made.id}`, { key: p.apiKey, body: { signingSecret: 'whsec_rotated_secret_000002' } });
    expect(rotated.status).toBe(200);
    const after = await read();
    expect(after).not.toBe(before);
    expect(testServices().secrets.open(after, `webhook:${made.id}:signing`)).toBe('whsec_rotated_secret_000002');
  });

  it('refuses to clear the signing secret of an HMAC endpoint', async () => {
    const p = await newPartner();
    const { body: made } = await create(p.apiKey, { url: PUBLIC_URL, authType: 'HMAC', signingSecret: SECRET });
    const res = await call('PUT', `/api/webhooks/endpoints/${made.id}`, { key: p.apiKey, body: { signingSecret: null } });
    expect(res.status).toBe(400);
    expect(res.body.param).toBe('signingSecret');
  });

  it('drops the auth secret when the scheme changes to None', async () => {
    const p = await newPartner();
    const { body: made } = await create(p.apiKey, { url: PUBLIC_URL, authType: 'Basic', authSecret: 'user:pass' });
    const res = await call('PUT', `/api/webhooks/endpoints/${made.id}`, { key: p.apiKey, body: { authType: 'None' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ authType: 'None', authSecretConfigured: false });
  });

  it("reports another partner's endpoint exactly like a missing one", async () => {
    const owner = await newPartner();
    const other = await newPartner();
    const { body: made } = await create(owner.apiKey, { url: PUBLIC_URL });
    const missingId = '00000000-0000-4000-8000-000000000000';
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const body = method === 'PUT' ? { description: 'x' } : undefined;
      const foreign = await call(method, `/api/webhooks/endpoints/${made.id}`, { key: other.apiKey, body });
      const missing = await call(method, `/api/webhooks/endpoints/${missingId}`, { key: other.apiKey, body });
      expect(foreign.status).toBe(404);
      const strip = (b: Record<string, unknown>) => ({ ...b, timestamp: undefined, path: undefined });
      expect(strip(foreign.body)).toEqual(strip(missing.body));
    }
    const list = await call('GET', '/api/webhooks/endpoints', { key: other.apiKey });
    expect(list.body.data).toEqual([]);
    const own = await call('GET', `/api/webhooks/endpoints/${made.id}`, { key: owner.apiKey });
    expect(own.status).toBe(200);
    expectContract(own, 'getWebhookEndpoint');
  });

  it('deletes with 204, after which the endpoint is gone from get and list', async () => {
    const p = await newPartner();
    const { body: made } = await create(p.apiKey, { url: PUBLIC_URL });
    const del = await call('DELETE', `/api/webhooks/endpoints/${made.id}`, { key: p.apiKey });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await call('GET', `/api/webhooks/endpoints/${made.id}`, { key: p.apiKey })).status).toBe(404);
    expect((await call('GET', '/api/webhooks/endpoints', { key: p.apiKey })).body.data).toEqual([]);
    expect((await call('DELETE', `/api/webhooks/endpoints/${made.id}`, { key: p.apiKey })).status).toBe(404);
  });

  it('rejects an id that is not a UUID with a 400 naming id', async () => {
    const p = await newPartner();
    const res = await call('GET', '/api/webhooks/endpoints/not-a-uuid', { key: p.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.param).toBe('id');
  });

  it('lists the partner endpoints oldest first', async () => {
    const p = await newPartner();
    const a = await create(p.apiKey, { url: PUBLIC_URL, description: 'first' });
    const b = await create(p.apiKey, { url: PUBLIC_URL, description: 'second' });
    const list = await call('GET', '/api/webhooks/endpoints', { key: p.apiKey });
    expectContract(list, 'listWebhookEndpoints');
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([a.body.id, b.body.id]);
  });
});

describe('GET /api/webhooks/event-types', () => {
  it('lists the four catalogue event types', async () => {
    const p = await newPartner();
    const res = await call('GET', '/api/webhooks/event-types', { key: p.apiKey });
    expect(res.status).toBe(200);
    expectContract(res, 'listWebhookEventTypes');
    expect(res.body.data.map((e: { eventType: string }) => e.eventType)).toEqual(['listing.updated', 'property.updated', 'inventory.changed', 'rate.changed']);
  });
});

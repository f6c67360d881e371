import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, newAgentGroup, newPartner } from '../support/stack.ts';

const PUBLIC_URL = 'https://93.184.216.34/hooks/idempotent';
const endpointBody = { url: PUBLIC_URL, signingSecret: 'whsec_test_signing_secret_0001', eventTypes: ['rate.changed'] };
const createEndpoint = (apiKey: string, idempotencyKey: string, body: unknown = endpointBody) =>
  call('POST', '/api/webhooks/endpoints', { key: apiKey, body, headers: { 'Idempotency-Key': idempotencyKey } });
const endpointIds = async (apiKey: string): Promise<string[]> =>
  (await call('GET', '/api/webhooks/endpoints', { key: apiKey })).body.data.map((e: { id: string }) => e.id);

/** Idempotency-Key over HTTP on the offline stack, its keys in DynamoDB Local (docs/idempotency.md). */
describe('Idempotency-Key', () => {
  it('six concurrent registrations with one key make one endpoint; every other answer is its replay or 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => createEndpoint(p.apiKey, key)));

    const fresh = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    expect(fresh, JSON.stringify(answers.map((a) => [a.status, a.body]))).toHaveLength(1);
    const id = fresh[0]!.body.id as string;
    for (const a of answers.filter((x) => x !== fresh[0])) {
      if (a.status === 201) {
        expect(a.headers.get('idempotent-replayed')).toBe('true');
        expect(a.body).toEqual(fresh[0]!.body);
      } else {
        expect(a.status).toBe(409);
        expect(a.body).toMatchObject({ code: 'CONFLICT', reasonCode: 'IDEMPOTENCY_KEY_IN_USE', param: 'Idempotency-Key' });
      }
    }
    expect(await endpointIds(p.apiKey)).toEqual([id]);

    // A retry after the race replays the first answer; the body's key order does not make it another request.
    const retry = await createEndpoint(p.apiKey, key, { eventTypes: ['rate.changed'], signingSecret: endpointBody.signingSecret, url: PUBLIC_URL });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(fresh[0]!.body);
    expect(await endpointIds(p.apiKey)).toEqual([id]);
  });

  it('the same key with another body is a 409 naming the header, and registers nothing', async () => {
    const p = await newPartner();
    const key = randomUUID();
    expect((await createEndpoint(p.apiKey, key)).status).toBe(201);
    const other = await createEndpoint(p.apiKey, key, { ...endpointBody, url: 'https://93.184.216.34/hooks/another' });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'CONFLICT', reasonCode: 'IDEMPOTENCY_KEY_REUSED', param: 'Idempotency-Key' });
    expect(other.body.message).toContain('Idempotency-Key');
    expect(await endpointIds(p.apiKey)).toHaveLength(1);
  });

  it("another partner's use of the same key is its own: it registers its own endpoint", async () => {
    const [a, b] = [await newPartner(), await newPartner()];
    const key = randomUUID();
    const first = await createEndpoint(a.apiKey, key);
    const second = await createEndpoint(b.apiKey, key);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.id).not.toBe(first.body.id);
    expect(await endpointIds(b.apiKey)).toEqual([second.body.id]);
  });

  it('a malformed key is a 400 naming the header; without the header every request creates', async () => {
    const p = await newPartner();
    const bad = await createEndpoint(p.apiKey, 'x'.repeat(256));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'Idempotency-Key' });
    expect(await endpointIds(p.apiKey)).toEqual([]);
  });

  it('on /v1 too: an agent group retrying a finance contact with its key gets the contact it created', async () => {
    const g = await newAgentGroup();
    const key = randomUUID();
    const body = { email: `ap-${randomUUID().slice(0, 6)}@acme.example.in`, name: 'Accounts' };
    const [x, y] = await Promise.all([0, 1].map(() => call('POST', '/v1/finance-contacts', { key: g.apiKey, body, headers: { 'Idempotency-Key': key } })));
    const created = [x!, y!].find((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null)!;
    expect(created, JSON.stringify([x!.body, y!.body])).toBeDefined();
    const again = await call('POST', '/v1/finance-contacts', { key: g.apiKey, body, headers: { 'Idempotency-Key': key } });
    expect(again.status).toBe(created.status);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(created.body);
    expect((await call('GET', '/v1/finance-contacts', { key: g.apiKey })).body.data).toHaveLength(1);
  });
});

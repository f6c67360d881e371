import { createHmac, randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueEvent } from '../../domain/deliveries/catalogue-event.ts';
import { publishCatalogueEvents } from '../../domain/deliveries/publish-catalogue-events.ts';
import { parseConfig } from '../../infra/config.ts';
import { buildServices, deliveryDeps } from '../../infra/container.ts';
import { SecretBox } from '../../infra/crypto/secret-box.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { startOffline, type OfflineServer } from '../../scripts/local-stack.ts';
import { privateQueues } from '../support/private-queues.ts';
import { seedNewBooking } from '../support/booking-seed.ts';
import { basicAuth, call, newAgentGroup, newPartner, stack, testServices, uniqueId, type GroupFixture, type PartnerFixture } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

/*
 * A key rotation on the local stack: the test stack's offline runs with the keys from before
 * the rotation (K1, S1); a second offline on the same table runs as the stage does after
 * `stage rotate-keys` and a deploy, with CURSOR_KEY=K2,K1 and SECRETS_KEY=S2,S1. Cursors and
 * sealed secrets made before still work there; what it makes uses the new keys.
 */
const key = (): string => randomBytes(32).toString('base64');
const CURSOR_NEW = key();
const SECRETS_NEW = key();

let rotated: OfflineServer;
let rotatedEnv: Record<string, string>;
let receiver: Receiver;
let group: GroupFixture;
let partner: PartnerFixture;
const OLD_SIGNING_SECRET = 'whsec_sealed-before-the-rotation-0001';

const box = (k: string) => new SecretBox(Buffer.from(k, 'base64'));

async function rotatedCall(method: string, path: string, apiKey: string, body?: unknown) {
  const res = await fetch(`${rotated.baseUrl}${path}`, {
    method,
    headers: { authorization: basicAuth(apiKey), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  receiver = await startReceiver();
  // Before the rotation: bookings to page through, an endpoint whose secrets the test stack sealed under S1.
  group = await newAgentGroup();
  await Promise.all(Array.from({ length: 3 }, (_, i) => seedNewBooking(group, { updatedAt: `2027-01-0${i + 1}T00:00:00.000Z` })));
  partner = await newPartner({ channelId: uniqueId('chan') });
  const created = await call('POST', '/api/webhooks/endpoints', {
    key: partner.apiKey,
    body: { url: `${receiver.url}/old`, timeoutSeconds: 5, signingSecret: OLD_SIGNING_SECRET, authType: 'Bearer', authSecret: 'auth-sealed-before-0001' },
  });
  expect(created.status, created.text).toBe(201);

  // After: the same table, its own queues so its workers never take the test stack's messages.
  const { env } = stack();
  rotatedEnv = {
    ...env,
    STAGE: 'local',
    CURSOR_KEY: `${CURSOR_NEW},${env.CURSOR_KEY}`,
    SECRETS_KEY: `${SECRETS_NEW},${env.SECRETS_KEY}`,
    ...(await privateQueues(env.SQS_ENDPOINT!, 'rot')),
    ESBUILD_PREBUILT: '.esbuild',
    // The test stack's sweepers own the shared table's pending work; this one only answers requests and drains its own queues.
    SCHEDULES_ENABLED: 'false',
  };
  rotated = await startOffline({ stage: 'local', env: rotatedEnv });
  // A second offline bundles every function again: minutes on two shared cores.
}, 600_000);

afterAll(async () => {
  await rotated?.stop();
  await receiver?.close();
});

describe('key rotation on the local stack', () => {
  it('a cursor issued before the rotation still pages; a new one is signed with the new key only', async () => {
    const first = await call('GET', '/v1/bookings?size=1', { key: group.apiKey });
    expect(first.status).toBe(200);
    const before: string = first.body.nextCursor;
    const expected = await call('GET', `/v1/bookings?size=1&cursor=${encodeURIComponent(before)}`, { key: group.apiKey });

    const after = await rotatedCall('GET', `/v1/bookings?size=1&cursor=${encodeURIComponent(before)}`, group.apiKey);

    expect(after.status).toBe(200);
    expect(after.body.data).toEqual(expected.body.data);
    const issuedAfter: string = after.body.nextCursor;
    expect(issuedAfter).toEqual(expect.any(String));
    // The stack still on the old key alone refuses it: it is not signed with K1.
    const onOldKey = await call('GET', `/v1/bookings?size=1&cursor=${encodeURIComponent(issuedAfter)}`, { key: group.apiKey });
    expect(onOldKey.status).toBe(400);
    expect(onOldKey.body.param).toBe('cursor');
    expect((await rotatedCall('GET', `/v1/bookings?size=1&cursor=${encodeURIComponent(issuedAfter)}`, group.apiKey)).status).toBe(200);
  });

  it('a webhook secret sealed before the rotation still signs deliveries sent by the rotated stack', async () => {
    const event: CatalogueEvent = {
      eventType: 'rate.changed',
      entityType: 'rate',
      entityId: uniqueId('prop'),
      fromDate: '2027-06-01',
      toDate: '2027-06-07',
      occurredAt: new Date().toISOString(),
      channelIds: [partner.channelId],
    };
    // Published onto the rotated stack's own delivery queue; its worker opens the S1-sealed secrets with the S2,S1 ring.
    await publishCatalogueEvents(deliveryDeps(buildServices(parseConfig(rotatedEnv))), [event]);

    const [delivered] = await receiver.waitFor('/old', 1, 60_000);

    expect(delivered!.headers['x-webhook-signature']).toBe(createHmac('sha256', OLD_SIGNING_SECRET).update(delivered!.rawBody).digest('base64'));
    // The auth secret, sealed under S1 too, went out as the endpoint's Authorization header.
    expect(delivered!.headers.authorization).toBe('Bearer auth-sealed-before-0001');
  });

  it('a secret sealed after the rotation uses the new key only', async () => {
    const created = await rotatedCall('POST', '/api/webhooks/endpoints', partner.apiKey, {
      url: `${receiver.url}/new`,
      timeoutSeconds: 5,
      signingSecret: 'whsec_sealed-after-the-rotation-0002',
    });
    expect(created.status).toBe(201);

    const svc = testServices();
    const item = await createDocumentClient(svc.config).send(
      new GetCommand({ TableName: svc.config.tableName, Key: keys.webhookEndpoint(partner.partnerId, created.body.id) }),
    );
    const sealed: string = item.Item!.signingSecretSealed;
    const context = `webhook:${created.body.id}:signing`;
    expect(box(SECRETS_NEW).open(sealed, context)).toBe('whsec_sealed-after-the-rotation-0002');
    expect(() => box(stack().env.SECRETS_KEY!).open(sealed, context)).toThrow();
  });
});

import { createHmac } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncCatalogue } from '../../domain/sync/sync-catalogue.ts';
import { syncDeps } from '../../infra/container.ts';
import { seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { call, stack, testServices } from '../support/stack.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

const SECRET = 'whsec_sync_e2e_secret_0001';
let fx: CatalogueFixture;
let receiver: Receiver;

beforeAll(async () => {
  [fx, receiver] = await Promise.all([seedCatalogue(), startReceiver()]);
  for (const [partner, path] of [
    [fx.partnerA, '/a'],
    [fx.partnerB, '/b'],
  ] as const) {
    const res = await call('POST', '/api/webhooks/endpoints', {
      key: partner.apiKey,
      body: { url: `${receiver.url}${path}`, authType: 'HMAC', signingSecret: SECRET },
    });
    expect(res.status).toBe(201);
  }
}, 120_000);
afterAll(() => receiver?.close());

async function sendToSyncQueue(document: unknown): Promise<void> {
  const { env, syncQueueUrl } = stack();
  const sqs = new SQSClient({ endpoint: env.SQS_ENDPOINT, region: env.AWS_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await sqs.send(new SendMessageCommand({ QueueUrl: syncQueueUrl, MessageBody: JSON.stringify(document), MessageGroupId: 'catalogue' }));
  } finally {
    sqs.destroy();
  }
}

describe('catalogue sync through the queue', () => {
  it('delivers signed thin notifications to exactly the partners whose channel sells the entity', async () => {
    const onlyA = fx.propertiesOf[fx.onlyA]![0]!;
    await sendToSyncQueue({ version: 1, catalogue: { inventory: [{ propertyId: onlyA, from: '2027-03-06', to: '2027-03-08', quantity: 1 }] } });

    const [got] = await receiver.waitFor('/a', 1, 30_000);
    expect(got!.body).toEqual({
      eventType: 'inventory.changed',
      entityType: 'inventory',
      entityId: onlyA,
      fromDate: '2027-03-06',
      toDate: '2027-03-08',
      occurredAt: expect.any(String),
      dedupKey: expect.any(String),
    });
    const expected = createHmac('sha256', SECRET).update(got!.rawBody).digest('base64');
    expect(got!.headers['x-webhook-signature']).toBe(expected);
    const inventory = await call('GET', `/api/inventories?propertyIds=${onlyA}&from=2027-03-06&to=2027-03-06`, { key: fx.partnerA.apiKey });
    expect(inventory.body[0].quantity).toBe(1);
    expect(receiver.to('/b')).toHaveLength(0);
  });

  it('sends nothing when the same sync is applied again', async () => {
    const shared = fx.propertiesOf[fx.both]![1]!;
    const doc = { version: 1, catalogue: { rates: [{ propertyId: shared, from: '2027-03-02', to: '2027-03-02', mealPlan: 'EP', adults: { '1': 4_200 } }] } };
    await sendToSyncQueue(doc);
    await Promise.all([receiver.waitFor('/a', 2, 30_000), receiver.waitFor('/b', 1, 30_000)]);
    const before = receiver.requests.length;

    const again = await syncCatalogue(syncDeps(testServices()), doc);

    expect(again.events).toEqual([]);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(receiver.requests.length).toBe(before);
  });
});

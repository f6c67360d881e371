import { testOrigin } from '../support/audit-origin.ts';
import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery } from '../../domain/deliveries/delivery.ts';
import { createEndpoint } from '../../domain/webhooks/manage-endpoints.ts';
import { decodeDeliveryMessage } from '../../events/delivery-message.ts';
import { LOCAL_CREDENTIALS } from '../../scripts/local-stack.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { newPartner, stack, testServices, uniqueId } from '../support/stack.ts';

let sqs: SQSClient;
let queueUrl: string;

beforeAll(async () => {
  sqs = new SQSClient({ endpoint: stack().env.SQS_ENDPOINT, region: 'ap-south-1', credentials: LOCAL_CREDENTIALS });
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: uniqueId('admin-deliveries') }))).QueueUrl!;
});

afterAll(() => sqs.destroy());

/** The tool in-process, against the test stack but with a queue nobody polls, so a resend stays put for the test to read. */
const admin = (...args: string[]) => runAdminTool(args, { WEBHOOK_QUEUE_URL: queueUrl });

async function failedDelivery(): Promise<Delivery> {
  const svc = testServices();
  // A real partner: the tool refuses to list the deliveries of a partner that does not exist.
  const { partnerId, channelId } = await newPartner({ channelId: uniqueId('chan') });
  const endpoint = await createEndpoint(
    svc,
    { kind: 'partner', partnerId, channelId, keyId: 'k', keyPrefix: 'p' },
    { url: 'http://127.0.0.1:9/hook' },
    testOrigin(),
  );
  const at = new Date().toISOString();
  const delivery: Delivery = {
    deliveryId: randomUUID(),
    kind: 'webhook',
    partnerId,
    endpointId: endpoint.id,
    eventId: randomUUID(),
    eventType: 'listing.updated',
    payload: JSON.stringify({
      eventType: 'listing.updated',
      entityType: 'listing',
      entityId: 'l-1',
      fromDate: null,
      toDate: null,
      occurredAt: at,
      dedupKey: 'k',
    }),
    status: 'FAILED',
    attempts: [{ attempt: 1, at, outcome: 'permanent', statusCode: 410, error: 'HTTP 410', durationMs: 12 }],
    nextAttemptAt: null,
    failureReason: 'The receiver answered 410: a 4xx is permanent and is not retried.',
    resendOf: null,
    requeues: 0,
    createdAt: at,
    updatedAt: at,
  };
  await svc.deliveries.createAll([delivery]);
  return delivery;
}

describe('Admin CLI: deliveries', () => {
  it("lists a partner's failed deliveries with the reason and the last attempt", async () => {
    const d = await failedDelivery();

    const table = await admin('deliveries', 'failed', '--partner', d.partnerId);
    const json = await admin('deliveries', 'failed', '--partner', d.partnerId, '--json');

    expect(table.code).toBe(0);
    expect(table.stdout).toContain(d.deliveryId);
    expect(table.stdout).toContain('#1 410');
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ deliveryId: d.deliveryId, status: 'FAILED', attempts: [expect.objectContaining({ statusCode: 410 })] }),
    ]);
  });

  it('resends a delivery: a new PENDING delivery and a message for its first attempt', async () => {
    const d = await failedDelivery();

    const run = await admin('deliveries', 'resend', d.deliveryId, '--partner', d.partnerId, '--json');
    const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 2, MaxNumberOfMessages: 10 }));

    expect(run.code, run.stderr).toBe(0);
    const resent = JSON.parse(run.stdout);
    expect(resent).toMatchObject({ status: 'PENDING', resendOf: d.deliveryId, eventId: d.eventId });
    expect(got.Messages?.map((m) => decodeDeliveryMessage(m.Body!))).toEqual([
      { kind: 'webhook', partnerId: d.partnerId, deliveryId: resent.deliveryId, attempt: 1 },
    ]);
  });

  it("refuses another partner's delivery as not found, and a missing --partner as a usage error", async () => {
    const d = await failedDelivery();

    const foreign = await admin('deliveries', 'resend', d.deliveryId, '--partner', uniqueId('partner'));
    const usage = await admin('deliveries', 'resend', d.deliveryId);

    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('Delivery not found');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--partner');
  });
});

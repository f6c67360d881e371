import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS, provisionQueues } from '../../scripts/local-stack.ts';
import { pollUntil } from '../support/poll.ts';
import { stack } from '../support/stack.ts';

/*
 * The local and test stacks run every queue's worker through serverless-offline-sqs, patched
 * (patches/serverless-offline-sqs+8.0.0.patch) to do what Lambda does with
 * ReportBatchItemFailures: a record the handler reports as failed stays on the queue and comes
 * back after its visibility timeout. Unpatched, the plugin deleted the whole batch, so a record
 * that failed under load was lost and waited for a sweeper (a minute or two) instead.
 */

interface OfflineLambda {
  setEvent(event: { Records: { messageId: string; body: string }[] }): void;
  runHandler(): Promise<unknown>;
}
interface OfflineSqsPoller {
  create(events: { functionKey: string; sqs: { queueName: string; batchSize: number } }[]): Promise<unknown>;
  start(): void;
  stop(): void;
}

const require = createRequire(import.meta.url);
// The plugin's host: it maps the plugin's `@serverless/utils/log` onto its own vendored copy.
require('serverless/lib/serverless.js');
const OfflineSqs = require('serverless-offline-sqs/src/sqs.js') as new (
  lambda: { get(key: string): OfflineLambda },
  resources: Record<string, unknown>,
  options: Record<string, unknown>,
) => OfflineSqsPoller;

let sqs: SQSClient;
beforeAll(() => {
  sqs = new SQSClient({ endpoint: stack().env.SQS_ENDPOINT, region: 'ap-south-1', credentials: LOCAL_CREDENTIALS });
});
afterAll(() => sqs.destroy());

describe('serverless-offline-sqs as the stacks run it', () => {
  it('leaves a record reported in batchItemFailures on the queue until a later invocation succeeds, and deletes the rest', async () => {
    const endpoint = stack().env.SQS_ENDPOINT!;
    const name = `offline-failures-${randomUUID().slice(0, 8)}`;
    const queueUrl = (await provisionQueues(endpoint, [name], { visibilityTimeoutSeconds: 1 }))[name]!;
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'succeeds' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'fails once' }));

    const seen: string[] = [];
    let records: { messageId: string; body: string }[] = [];
    const lambda: OfflineLambda = {
      setEvent: (event) => {
        records = event.Records;
      },
      runHandler: async () => {
        seen.push(...records.map((r) => r.body));
        const failing = records.filter((r) => r.body === 'fails once' && seen.filter((b) => b === r.body).length === 1);
        return { batchItemFailures: failing.map((r) => ({ itemIdentifier: r.messageId })) };
      },
    };
    const poller = new OfflineSqs(
      { get: () => lambda },
      {},
      {
        endpoint,
        region: 'ap-south-1',
        accountId: '000000000000',
        apiVersion: '2012-11-05',
        accessKeyId: LOCAL_CREDENTIALS.accessKeyId,
        secretAccessKey: LOCAL_CREDENTIALS.secretAccessKey,
      },
    );
    await poller.create([{ functionKey: 'worker', sqs: { queueName: name, batchSize: 1 } }]);
    poller.start();
    try {
      await pollUntil('the failed record delivered again', async () => (seen.filter((b) => b === 'fails once').length >= 2 ? true : undefined), { tries: 120 });
      const left = await pollUntil('both records deleted', async () => {
        const { Attributes } = await sqs.send(
          new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
        );
        const count = Number(Attributes?.ApproximateNumberOfMessages) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible);
        return count === 0 ? count : undefined;
      });
      expect(left).toBe(0);
      expect(seen.filter((b) => b === 'succeeds')).toEqual(['succeeds']);
      expect(seen.filter((b) => b === 'fails once')).toEqual(['fails once', 'fails once']);
    } finally {
      poller.stop();
    }
  }, 90_000);
});

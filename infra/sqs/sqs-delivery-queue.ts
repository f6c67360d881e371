import type { SQSClient } from '@aws-sdk/client-sqs';
import { sqsSdk } from './client.ts';
import type { DeliveryQueue, QueuedCommand } from '../../domain/ports/delivery-queue.ts';
import { MAX_QUEUE_DELAY_SECONDS } from '../../domain/deliveries/schedule.ts';
import { encodeDeliveryMessage } from '../../events/delivery-message.ts';
import { logger } from '../logger.ts';

const BATCH_LIMIT = 10;

/** The delivery queue on SQS: one message per due attempt, sent in batches of ten. */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly sqs: SQSClient,
    /** Undefined where the stack has no queue configured (tools that never deliver). */
    private readonly queueUrl: string | undefined,
  ) {}

  async send(commands: readonly QueuedCommand[]): Promise<{ failed: number }> {
    if (commands.length === 0) return { failed: 0 };
    if (!this.queueUrl) throw new Error('WEBHOOK_QUEUE_URL is not configured; deliveries cannot be queued');
    const { SendMessageBatchCommand } = await sqsSdk();
    let failed = 0;
    for (let i = 0; i < commands.length; i += BATCH_LIMIT) {
      const batch = commands.slice(i, i + BATCH_LIMIT);
      try {
        const out = await this.sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: this.queueUrl,
            Entries: batch.map((c, n) => ({
              Id: String(n),
              MessageBody: encodeDeliveryMessage(c.command),
              DelaySeconds: Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil(c.delaySeconds))),
            })),
          }),
        );
        failed += out.Failed?.length ?? 0;
        for (const f of out.Failed ?? []) logger.error('delivery message not queued', { code: f.Code, senderFault: f.SenderFault });
      } catch (err) {
        // The records are durable and PENDING; the sweeper re-queues what did not make it.
        failed += batch.length;
        logger.error('delivery messages not queued', { count: batch.length, error: (err as Error).name });
      }
    }
    return { failed };
  }
}

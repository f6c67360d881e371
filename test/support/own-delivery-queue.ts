import { CreateQueueCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { Delivery } from '../../domain/deliveries/delivery.ts';
import type { DeliveryStore } from '../../domain/ports/delivery-store.ts';
import { parseConfig } from '../../infra/config.ts';
import { buildServices, type Services } from '../../infra/container.ts';
import { LOCAL_CREDENTIALS } from '../../scripts/local-stack.ts';
import { stack, uniqueId } from './stack.ts';

export interface OwnDeliveryQueue {
  /** Real adapters whose delivery queue is this file's own. */
  readonly svc: Services;
  /** Every message on the queue now (long-polls 1 s for stragglers), at most about `max`. */
  drain(max?: number): Promise<Message[]>;
  close(): void;
}

/**
 * A fauxqs queue of the calling test file's own, for driving the delivery engine
 * in-process: the offline worker polls the stack's queue, and nothing here should race it.
 */
export async function ownDeliveryQueue(prefix: string): Promise<OwnDeliveryQueue> {
  const env = stack().env;
  const sqs = new SQSClient({ endpoint: env.SQS_ENDPOINT, region: 'ap-south-1', credentials: LOCAL_CREDENTIALS });
  const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: uniqueId(prefix) }))).QueueUrl!;
  return {
    svc: buildServices(parseConfig({ ...env, WEBHOOK_QUEUE_URL: queueUrl })),
    async drain(max = 50) {
      const out: Message[] = [];
      for (;;) {
        const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, AttributeNames: ['All'] }));
        if (!got.Messages?.length || out.length >= max) return out;
        out.push(...got.Messages);
      }
    },
    close: () => sqs.destroy(),
  };
}

/** The store, except that the sweeper sees only the overdue deliveries `mine` keeps: the pending index is shared with every other test's work. */
export const overdueOnly = (store: DeliveryStore, mine: (d: Delivery) => boolean): DeliveryStore =>
  Object.assign(Object.create(store) as DeliveryStore, {
    listOverdue: async (before: string, limit: number) => (await store.listOverdue(before, limit)).filter(mine),
  });

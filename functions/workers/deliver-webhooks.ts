import type { SQSRecord } from 'aws-lambda';
import { concurrentRecords } from './sqs-batch.ts';
import { attemptDelivery, type AttemptDeps } from '../../domain/deliveries/attempt-delivery.ts';
import { decodeDeliveryMessage } from '../../events/delivery-message.ts';
import { deliveryDeps } from '../../infra/compose/deliveries.ts';
import { services } from '../../infra/compose/core.ts';
import { logger } from '../../infra/logger.ts';

/**
 * SQS consumer of the delivery queue: catalogue webhooks and booking callbacks alike
 * (attemptDelivery dispatches on the delivery's kind). Records are handled concurrently (each send is
 * bounded by its endpoint's timeout, or the callback timeout); a record that throws is reported in
 * batchItemFailures so SQS redelivers it alone, and after maxReceiveCount it lands in the
 * dead-letter queue. Retries of the receiver are not SQS redeliveries: the worker queues
 * the next attempt itself, with the schedule's delay.
 */
async function handleRecord(deps: AttemptDeps, record: SQSRecord): Promise<void> {
  const command = decodeDeliveryMessage(record.body);
  if (!command) throw new Error('not a delivery message');
  const report = await attemptDelivery(deps, command);
  logger.info('delivery message handled', { deliveryId: command.deliveryId, attempt: command.attempt, ...report });
}

export const handler = concurrentRecords('delivery message', () => deliveryDeps(services()), handleRecord);

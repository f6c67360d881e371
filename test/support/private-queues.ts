import { randomBytes } from 'node:crypto';
import {
  billingQueueName,
  bookingQueueName,
  channexQueueName,
  mailEventsQueueName,
  pdfQueueName,
  provisionQueues,
  syncQueueName,
  webhookQueueName,
} from '../../scripts/local-stack.ts';

/**
 * Queues of its own for a second offline server beside the shared test stack.
 *
 * serverless-offline-sqs polls queues by name, and on stage `test` those names are the shared
 * stack's: a second offline would take the shared stack's messages, and when it stopped, a
 * message it had received (or a long poll it left open) stayed invisible for the queue's whole
 * visibility timeout, which is how a booking's callback once arrived minutes late. QUEUE_STAGE
 * renames every queue the second server polls; the *_QUEUE_URL entries make its functions send
 * to the same ones.
 */
export async function privateQueues(endpoint: string, label: string): Promise<Record<string, string>> {
  const queueStage = `${label}${randomBytes(4).toString('hex')}`;
  const urls = await provisionQueues(endpoint, [
    webhookQueueName(queueStage),
    syncQueueName(queueStage),
    bookingQueueName(queueStage),
    channexQueueName(queueStage),
    pdfQueueName(queueStage),
    billingQueueName(queueStage),
    mailEventsQueueName(queueStage),
  ]);
  return {
    QUEUE_STAGE: queueStage,
    WEBHOOK_QUEUE_URL: urls[webhookQueueName(queueStage)]!,
    BOOKING_QUEUE_URL: urls[bookingQueueName(queueStage)]!,
    CHANNEX_QUEUE_URL: urls[channexQueueName(queueStage)]!,
    PDF_QUEUE_URL: urls[pdfQueueName(queueStage)]!,
    BILLING_QUEUE_URL: urls[billingQueueName(queueStage)]!,
  };
}

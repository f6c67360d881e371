import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { handleBookingCheck, type WorkflowDeps } from '../../domain/bookings/workflow.ts';
import { decodeBookingCheck } from '../../events/booking-check-message.ts';
import { bookingDeps, services } from '../../infra/container.ts';
import { logger } from '../../infra/logger.ts';

/**
 * SQS consumer of the booking workflow queue: each message is "look at booking R, due at
 * D". A record that throws is reported in batchItemFailures so SQS redelivers it; the
 * steps it had taken are durable and are not repeated.
 */
async function handleRecord(deps: WorkflowDeps, record: SQSRecord): Promise<void> {
  const check = decodeBookingCheck(record.body);
  if (!check) throw new Error('not a booking check message');
  const report = await handleBookingCheck(deps, check);
  logger.info('booking check handled', { bookingRef: check.bookingRef, agentGroupId: check.agentGroupId, report });
}

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = bookingDeps(services());
  const settled = await Promise.allSettled(event.Records.map((r) => handleRecord(deps, r)));
  const batchItemFailures = settled.flatMap((s, i) => {
    if (s.status === 'fulfilled') return [];
    const record = event.Records[i]!;
    logger.error('booking check failed', { messageId: record.messageId, receiveCount: record.attributes.ApproximateReceiveCount, error: s.reason as Error });
    return [{ itemIdentifier: record.messageId }];
  });
  return { batchItemFailures };
};

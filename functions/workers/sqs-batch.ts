import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../infra/logger.ts';

/**
 * An SQS consumer whose records are independent: they are handled concurrently, and a
 * record that throws is reported in batchItemFailures so SQS redelivers it alone (after
 * maxReceiveCount it lands in the dead-letter queue). `what` names the messages in logs.
 */
export function concurrentRecords<D>(what: string, deps: () => D, handle: (deps: D, record: SQSRecord) => Promise<void>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const d = deps();
    const settled = await Promise.allSettled(event.Records.map((r) => handle(d, r)));
    const batchItemFailures = settled.flatMap((s, i) => {
      if (s.status === 'fulfilled') return [];
      const record = event.Records[i]!;
      logger.error(`${what} failed`, { messageId: record.messageId, receiveCount: record.attributes.ApproximateReceiveCount, error: s.reason as Error });
      return [{ itemIdentifier: record.messageId }];
    });
    return { batchItemFailures };
  };
}

import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { applyRecordedChanges } from '../../domain/channel-manager/receive-changes.ts';
import { channexDeps } from '../../infra/compose/channel-manager.ts';
import { services, wire } from '../../infra/compose/core.ts';
import { logger } from '../../infra/logger.ts';
import { channexAdapters } from '../../infra/compose/adapters/channel-manager.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(channexAdapters);

/**
 * Consumer of the Channex changes queue (FIFO, one message group per listing): each message
 * names one recorded notification, applied through the catalogue sync. A failure stops the
 * batch there and SQS redelivers it and the ones after it in order; after 5 receives it
 * moves to the dead-letter queue, whose alarm tells operators (the record stays RECEIVED,
 * its body stored, so it can be redriven).
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = channexDeps(services());
  for (const [index, record] of event.Records.entries()) {
    let requestId: string | undefined;
    try {
      requestId = (JSON.parse(record.body) as { requestId?: string }).requestId;
    } catch {
      logger.error('Channex changes message dropped: body is not JSON', { messageId: record.messageId });
      continue;
    }
    if (typeof requestId !== 'string') {
      logger.error('Channex changes message dropped: no requestId', { messageId: record.messageId });
      continue;
    }
    try {
      const result = await applyRecordedChanges(deps, requestId);
      logger.info('Channex changes processed', { requestId, ...result });
    } catch (err) {
      logger.error('Channex changes failed; the batch stops here and is retried in order', { requestId, error: err as Error });
      return { batchItemFailures: event.Records.slice(index).map((r) => ({ itemIdentifier: r.messageId })) };
    }
  }
  return { batchItemFailures: [] };
};

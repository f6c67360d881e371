import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { DomainError } from '../../domain/errors.ts';
import { syncCatalogue } from '../../domain/sync/sync-catalogue.ts';
import { WorldValidationError } from '../../domain/world/world-validation-error.ts';
import { services } from '../../infra/compose/core.ts';
import { syncDeps } from '../../infra/compose/catalogue.ts';
import { logger } from '../../infra/logger.ts';

/**
 * Consumer of the catalogue sync queue (FIFO, one message group): each message body is one
 * sync document, applied in order. A document that is invalid is logged with every
 * problem and dropped — retrying cannot fix it, and holding it would block every later
 * sync. Any other failure stops the batch there: that record and the ones after it are
 * reported failed, so SQS redelivers them in order and a later sync never overtakes an
 * earlier one.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = syncDeps(services());
  for (const [index, record] of event.Records.entries()) {
    try {
      let document: unknown;
      try {
        document = JSON.parse(record.body);
      } catch {
        logger.error('catalogue sync dropped: body is not JSON', { messageId: record.messageId });
        continue;
      }
      const result = await syncCatalogue(deps, document);
      logger.info('catalogue sync applied', { messageId: record.messageId, events: result.events.length, written: result.summary.written });
    } catch (err) {
      if (err instanceof DomainError) {
        const issues = err instanceof WorldValidationError ? err.issues : [{ path: (err.details.param as string | undefined) ?? '$', message: err.message }];
        logger.error('catalogue sync dropped: invalid document', { messageId: record.messageId, issues });
        continue;
      }
      logger.error('catalogue sync failed; the batch stops here and is retried in order', { messageId: record.messageId, error: err as Error });
      return { batchItemFailures: event.Records.slice(index).map((r) => ({ itemIdentifier: r.messageId })) };
    }
  }
  return { batchItemFailures: [] };
};

import { DynamoChannexInbox } from '../../dynamo/dynamo-channex-inbox.ts';
import { onFirstCall } from '../../lazy.ts';
import { adapterGroup } from '../core.ts';

/** Channex's inbound notifications: their idempotency records and the queue of the apply step. */
export const channexAdapters = adapterGroup({
  area: 'channelManager',
  makers: (w) => ({
    channexInbox: () => new DynamoChannexInbox(w.db(), w.table, w.cfg.channex.propertySystem === 'channex'),
    channexQueue: () => onFirstCall(async () => new (await import('../../sqs/sqs-channex-queue.ts')).SqsChannexQueue(await w.sqs(), w.cfg.channex.queueUrl)),
  }),
});

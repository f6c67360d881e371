import { defineFunction } from '../../infra/deploy/function-manifest.ts';

/**
 * Channex's Open Channel endpoints (docs/channel-manager.md): Channex calls test_connection/, mapping_details/
 * and changes/ with the trailing slash, which an HTTP API route key may not end with, so one greedy route
 * per method serves them (functions/channel-manager/open-channel.ts). The reads see the catalogue; changes
 * keeps each notification (S3 body, idempotency record) and queues it for channexChangesWorker.
 */
export default defineFunction({
  handler: 'functions/areas/channel-manager.handler',
  events: 'http',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readCatalogue', 'keepChannexRequests', 'writeInvoiceDocuments', 'queueChannexChanges'],
});

import { fifoWorker } from '../../infra/deploy/function-manifest.ts';

export default fifoWorker({
  handler: 'functions/workers/channex-changes.handler',
  queue: 'ChannexChangesQueue',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['writeCatalogue', 'publishCatalogueEvents', 'workDeliveries', 'queueDeliveries', 'keepChannexRequests', 'readInvoiceDocuments'],
});

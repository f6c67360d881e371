import { fifoWorker } from '../../infra/deploy/function-manifest.ts';

export default fifoWorker({
  handler: 'functions/workers/sync-catalogue.handler',
  queue: 'CatalogueSyncQueue',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['writeCatalogue', 'publishCatalogueEvents', 'workDeliveries', 'queueDeliveries'],
});

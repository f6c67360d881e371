import { defineFunction, getAtt, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

export default defineFunction({
  handler: 'functions/workers/channex-changes.handler',
  memorySize: 1024,
  timeout: 120,
  reservedConcurrency: '${param:workerConcurrency}',
  environment: workerSdkLimits,
  events: [
    {
      sqs: {
        arn: getAtt('ChannexChangesQueue'),
        batchSize: '${param:syncBatchSize}',
        functionResponseType: 'ReportBatchItemFailures',
        maximumConcurrency: '${param:workerConcurrency}',
      },
    },
  ],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['writeCatalogue', 'publishCatalogueEvents', 'workDeliveries', 'queueDeliveries', 'keepChannexRequests', 'readInvoiceDocuments'],
});

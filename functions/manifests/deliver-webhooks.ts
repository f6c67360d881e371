import { defineFunction, getAtt, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

/**
 * An endpoint may take 30 s to answer (a booking callback 10 s); the queue's visibility timeout is six times this.
 */
export default defineFunction({
  handler: 'functions/workers/deliver-webhooks.handler',
  timeout: 60,
  reservedConcurrency: '${param:workerConcurrency}',
  environment: workerSdkLimits,
  events: [
    {
      sqs: {
        arn: getAtt('WebhookDeliveriesQueue'),
        batchSize: '${param:webhookBatchSize}',
        functionResponseType: 'ReportBatchItemFailures',
        maximumConcurrency: '${param:workerConcurrency}',
      },
    },
  ],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['workDeliveries', 'readCallbackSecrets', 'queueDeliveries'],
});

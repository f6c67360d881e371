import { defineFunction, getAtt, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

/**
 * readTenants: the group's sandbox test clock. writeAudit: landing and failing write a system event.
 */
export default defineFunction({
  handler: 'functions/workers/booking-workflow.handler',
  timeout: 60,
  reservedConcurrency: '${param:workerConcurrency}',
  environment: workerSdkLimits,
  events: [
    {
      sqs: {
        arn: getAtt('BookingWorkflowQueue'),
        batchSize: '${param:bookingBatchSize}',
        functionResponseType: 'ReportBatchItemFailures',
        maximumConcurrency: '${param:workerConcurrency}',
      },
    },
  ],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'workBookings', 'bookInventory', 'simulatePropertySystem', 'readSimulatorBehaviour', 'queueBookingChecks', 'workDeliveries', 'queueDeliveries', 'writeAudit'],
});

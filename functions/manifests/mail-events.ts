import { defineFunction, getAtt, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

/**
 * SES's Bounce and Complaint events (configuration set → SNS → this queue): flags the finance contacts at the address.
 * keepMailSettings: the contacts at the address (MAIL_ADDRESS#…) and their groups' records; writeAudit: each flag.
 */
export default defineFunction({
  handler: 'functions/workers/mail-events.handler',
  timeout: 30,
  reservedConcurrency: '${param:workerConcurrency}',
  environment: workerSdkLimits,
  events: [
    {
      sqs: { arn: getAtt('MailEventsQueue'), batchSize: 10, functionResponseType: 'ReportBatchItemFailures', maximumConcurrency: '${param:workerConcurrency}' },
    },
  ],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['keepMailSettings', 'writeAudit'],
});

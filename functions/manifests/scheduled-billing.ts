import { defineFunction, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

/**
 * Once a day at 00:15 India time (18:45 UTC): records the day's run and queues one message per group for billGroup.
 * listInvoices: every group (GSI1 GROUPS) and the groups with open invoices (GSI2 INVOICES#OPEN).
 */
export default defineFunction({
  handler: 'functions/workers/scheduled-billing.handler',
  timeout: 300,
  environment: workerSdkLimits,
  events: [{ schedule: 'cron(45 18 * * ? *)' }],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['listInvoices', 'keepBillingRuns', 'queueBillingJobs'],
});

import { defineFunction } from '../../infra/deploy/function-manifest.ts';

/**
 * keepMailSettings … sendMail: a recorded payment's receipt goes to the contacts who chose receipts, each send claimed and audited.
 * queueBillingJobs: a change of what a group owes asks the billing worker to move its pay links.
 */
export default defineFunction({
  handler: 'functions/areas/payments.handler',
  events: 'http',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['receivePayments', 'listInvoices', 'keepMailSettings', 'logMail', 'writeAudit', 'sendMail', 'queueBillingJobs'],
});

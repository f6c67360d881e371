import { defineFunction, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

/**
 * Every hour: asks the gateway for the payments of open invoices' orders and groups' virtual accounts that no webhook announced.
 * keepMailSettings … sendMail: the receipt of a payment no notification announced, each send claimed and audited.
 */
export default defineFunction({
  handler: 'functions/workers/reconcile-payments.handler',
  timeout: 300,
  environment: workerSdkLimits,
  events: [{ schedule: { rate: 'rate(1 hour)', enabled: '${param:schedulesEnabled}' } }],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'receivePayments', 'listInvoices', 'keepMailSettings', 'logMail', 'writeAudit', 'sendMail'],
});

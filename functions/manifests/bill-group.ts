import { defineFunction, getAtt, pdfFonts, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

/**
 * Bills one group of the daily run per message (docs/invoicing.md "Fan-out"): credit control, the run, balance checkpoints.
 * The daily run e-mails the monthly statement with its PDF.
 * One group's run; the queue's visibility timeout is six times this.
 * writeInvoiceDocuments: the signed e-invoice the IRP returns is stored beside the PDFs; the PDFs themselves go to renderInvoicePdfs.
 * keepMailSettings … sendMail: the day's payment reminders to the group's finance contacts, each send claimed and audited.
 * queueBillingJobs: a run's credit notes or settled credit ask for the group's pay links to follow, a message on this same queue.
 */
export default defineFunction({
  handler: 'functions/workers/bill-group.handler',
  memorySize: 1024,
  timeout: 300,
  reservedConcurrency: '${param:billingConcurrency}',
  environment: workerSdkLimits,
  package: pdfFonts,
  events: [
    {
      sqs: {
        arn: getAtt('BillingQueue'),
        batchSize: '${param:billingBatchSize}',
        functionResponseType: 'ReportBatchItemFailures',
        maximumConcurrency: '${param:billingConcurrency}',
      },
    },
  ],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'billInvoices', 'listInvoices', 'readBillingCatalogue', 'writeInvoiceDocuments', 'keepBalances', 'queueInvoicePdfs', 'keepBillingRuns', 'writeAudit', 'keepMailSettings', 'logMail', 'sendMail', 'queueBillingJobs'],
});

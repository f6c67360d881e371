import { defineFunction, getAtt, pdfFonts, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

/**
 * Renders and stores the PDF of each issued document a run queued (docs/invoicing.md, "PDF worker").
 * A 10,000-line invoice takes seconds to print; the queue's visibility timeout is six times this.
 * readBillingCatalogue: a credit note's GST registration says whether it still waits for its IRN.
 * readInvoiceDocuments … sendMail: the stored PDF is e-mailed to the group's finance contacts, each send claimed and audited.
 */
export default defineFunction({
  handler: 'functions/workers/render-invoice-pdfs.handler',
  memorySize: 1024,
  timeout: 120,
  reservedConcurrency: '${param:workerConcurrency}',
  environment: workerSdkLimits,
  package: pdfFonts,
  events: [
    {
      sqs: {
        arn: getAtt('InvoicePdfQueue'),
        batchSize: '${param:pdfBatchSize}',
        functionResponseType: 'ReportBatchItemFailures',
        maximumConcurrency: '${param:workerConcurrency}',
      },
    },
  ],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['billInvoices', 'listInvoices', 'readBillingCatalogue', 'writeInvoiceDocuments', 'readInvoiceDocuments', 'keepMailSettings', 'logMail', 'writeAudit', 'sendMail'],
});

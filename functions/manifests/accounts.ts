import { defineFunction } from '../../infra/deploy/function-manifest.ts';

/**
 * writeInvoiceDocuments: the signed e-invoice the IRP returns is stored beside the PDFs.
 * queueBillingJobs: a run still writing lines at BILLING_REQUEST_WORK_MS hands the rest to billGroup.
 */
export default defineFunction({
  handler: 'functions/areas/accounts.handler',
  timeout: 29,
  events: 'http',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'spendToken', 'readLedger', 'readCreditPosition', 'readBalances', 'listInvoices', 'billInvoices', 'readBillingCatalogue', 'writeInvoiceDocuments', 'keepBalances', 'queueInvoicePdfs', 'queueBillingJobs', 'writeAudit', 'readAuditEvents', 'keepMailSettings', 'keepIdempotencyKeys'],
});

import { defineFunction, pdfFonts } from '../../infra/deploy/function-manifest.ts';

/**
 * The advance's daily run e-mails the monthly statement with its PDF.
 * Sandbox test clocks (docs/sandbox.md); off sandbox stages each answers 404 ROUTE_NOT_FOUND.
 * The advance runs the group's share of the daily billing run, so it has runBilling's grants and the reminders' (keepMailSettings … sendMail).
 * queueBillingJobs: a run's credit notes or settled credit ask for the group's pay links to follow (domain/ports/pay-link-refreshes.ts).
 */
export default defineFunction({
  handler: 'functions/areas/test-clocks.handler',
  timeout: 29,
  package: pdfFonts,
  events: 'http',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'spendToken', 'keepTestClocks', 'billInvoices', 'listInvoices', 'readBillingCatalogue', 'writeInvoiceDocuments', 'keepBalances', 'queueInvoicePdfs', 'writeAudit', 'keepMailSettings', 'logMail', 'sendMail', 'keepIdempotencyKeys', 'queueBillingJobs'],
});

import { defineFunction, pdfFonts } from '../../infra/deploy/function-manifest.ts';

/**
 * readBillingCatalogue: a credit note's GST registration says whether it waits for its e-invoice registration (409).
 * readLedger … readBalances: GET /v1/statement, which answers a PDF too, is served here (its opening balance from the checkpoints).
 */
export default defineFunction({
  handler: 'functions/areas/invoice-pdf.handler',
  package: pdfFonts,
  events: 'http',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'spendToken', 'billInvoices', 'listInvoices', 'readBillingCatalogue', 'readInvoiceDocuments', 'writeInvoiceDocuments', 'readLedger', 'readCreditPosition', 'readBalances'],
});

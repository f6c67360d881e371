import { defineFunction, pdfFonts } from '../../infra/deploy/function-manifest.ts';

/**
 * The base of the sign-in links the console e-mails; never taken from a request's Host (docs/console.md).
 * Server-rendered pages for people (docs/console.md, docs/decisions/console.md): the same reads as the API's
 * areas (ledger, invoices and their PDFs, bookings and their callbacks), the operators' hold, and people and sessions.
 * queueBillingJobs: an operator's billing run goes through the billing queue; keepTestClocks … logMail: the test clock
 * page's advance bills the group's closed periods and sends its reminders as the testClocks function does; keepBalances:
 * an operator's void or credit note gives the invoice's credit back. keepIdempotencyKeys: a finance operator's reconciliation
 * runs once per form (the Idempotency-Key store, scoped to the person).
 */
export default defineFunction({
  handler: 'functions/areas/console.handler',
  environment: { CONSOLE_URL: '${param:consoleUrl}' },
  package: pdfFonts,
  events: 'http',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'spendToken', 'consolePeople', 'sendMail', 'holdGroups', 'manageWebhooks', 'issueGroupKeys', 'writeAudit', 'readLedger', 'readCreditPosition', 'readBalances', 'listInvoices', 'billInvoices', 'readBillingCatalogue', 'readInvoiceDocuments', 'writeInvoiceDocuments', 'readBookings', 'readBookingFeed', 'readBookingDeliveries', 'readAmendments', 'readAuditEvents', 'readEndpointDeliveries', 'workDeliveries', 'queueDeliveries', 'receivePayments', 'queueBillingJobs', 'keepTestClocks', 'keepBalances', 'queueInvoicePdfs', 'keepMailSettings', 'logMail', 'createTenants', 'readGatewayExceptions', 'readCatalogue', 'readChannexConnections', 'keepIdempotencyKeys'],
});

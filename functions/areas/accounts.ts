import { handler as listAuditEvents } from '../audit/list-audit-events.ts';
import { handler as listPartnerAuditEvents } from '../audit/list-partner-audit-events.ts';
import { areaRouter } from '../http/area-router.ts';
import { handler as getInvoice } from '../invoices/get-invoice.ts';
import { handler as listInvoices } from '../invoices/list-invoices.ts';
import { handler as runBilling } from '../invoices/run-billing.ts';
import { handler as getStatement } from '../ledger/get-statement.ts';
import { handler as listLedger } from '../ledger/list-ledger.ts';
import { handler as fallback } from '../system/fallback.ts';

/**
 * A group's account: ledger, statement, invoices and the billing run, and both audit trails.
 * The invoice PDF has its own function (functions/areas/invoice-pdf.ts): its artifact carries the fonts and the renderer.
 */
export const handler = areaRouter([listLedger, getStatement, listInvoices, getInvoice, runBilling, listAuditEvents, listPartnerAuditEvents], fallback);

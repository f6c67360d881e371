import { areaRouter } from '../http/area-router.ts';
import { handler as getInvoicePdf } from '../invoices/get-invoice-pdf.ts';
import { handler as getStatement } from '../ledger/get-statement.ts';
import { handler as fallback } from '../system/fallback.ts';

/**
 * The documents that render as PDFs, apart from the other account reads: the invoice and credit-note PDF, and the
 * statement (JSON, CSV or PDF by Accept; one path is one function). Only this function's artifact carries the fonts
 * and the PDF renderers.
 */
export const handler = areaRouter([getInvoicePdf, getStatement], fallback);

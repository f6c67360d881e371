import { areaRouter } from '../http/area-router.ts';
import { handler as getInvoicePdf } from '../invoices/get-invoice-pdf.ts';
import { handler as getStatement } from '../ledger/get-statement.ts';
import { handler as fallback } from '../system/fallback.ts';
import { billingAdapters } from '../../infra/compose/adapters/billing.ts';
import { wire } from '../../infra/compose/core.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(billingAdapters);

/**
 * The documents that render as PDFs, apart from the other account reads: the invoice and credit-note PDF, and the
 * statement (JSON, CSV or PDF by Accept; one path is one function). Only this function's artifact carries the fonts
 * and the PDF renderers.
 */
export const handler = areaRouter([getInvoicePdf, getStatement], fallback);

import { areaRouter } from '../http/area-router.ts';
import { handler as getInvoicePdf } from '../invoices/get-invoice-pdf.ts';
import { handler as fallback } from '../system/fallback.ts';

/** The invoice and credit-note PDF, apart from the other account reads: only this function's artifact carries the fonts and the PDF renderer. */
export const handler = areaRouter([getInvoicePdf], fallback);

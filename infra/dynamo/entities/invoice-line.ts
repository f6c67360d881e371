import type { InvoiceLine } from '../../../domain/invoicing/invoice.ts';
import { ITEM_IS_NEW, itemOf, recordOf } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * The InvoiceLine item: PK = GROUP#<g>, SK = INVLINE#<bookingRef>#<kind>#<ref> (keyed by what it
 * bills, so a second line for the same thing collides whichever invoice writes it); on GSI1 under
 * its invoice (GSI1PK = INVOICE#<id>#LINES).
 */
export const invoiceLineEntity = {
  name: 'InvoiceLine',
  key: (l: Pick<InvoiceLine, 'agentGroupId' | 'bookingRef' | 'key'>) => keys.invoiceLine(l.agentGroupId, l.bookingRef, l.key),
  toItem: (l: InvoiceLine): Record<string, unknown> =>
    itemOf('InvoiceLine', { ...keys.invoiceLine(l.agentGroupId, l.bookingRef, l.key), ...keys.invoiceLineIndex(l.invoiceId, l.bookingRef, l.key) }, l),
  fromItem: (item: Record<string, unknown>): InvoiceLine => recordOf<InvoiceLine>(item),
  conditions: {
    /** A line is written only if nothing bills the same booking, kind and item yet. */
    lineIsNew: ITEM_IS_NEW,
    /** Only the invoice that holds a line gives it back (placeholder `:inv` → the invoice id). */
    lineOfInvoice: 'invoiceId = :inv',
  },
} as const;

import { ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/* The InvoiceSeries item: PK = SERIES#<gstin>, SK = INVOICE#<financial year> (a test clock's series beside it): the last number taken. */
export const invoiceSeriesEntity = {
  name: 'InvoiceSeries',
  key: keys.invoiceSeries,
  fromItem: (item: Record<string, unknown> | undefined): number => (item?.last as number | undefined) ?? 0,
  conditions: {
    /**
     * Gapless numbering: the series moves from exactly the value read to the next, in the same
     * transaction as the invoice that takes the number (placeholders `#last` → last, `:last` the value read).
     */
    seriesAt: '#last = :last',
    /** The year's first invoice creates the series. */
    isNew: ITEM_IS_NEW,
  },
} as const;

/* The CreditNoteSeries item: PK = SERIES#<gstin>, SK = CREDITNOTE#<financial year>: gapless like the invoice series. */
export const creditNoteSeriesEntity = {
  name: 'CreditNoteSeries',
  key: keys.creditNoteSeries,
  conditions: {
    /** The year's first note creates the series. */
    isNew: ITEM_IS_NEW,
    /** Moved from exactly the value read, with the note that takes the number (`#last` → last, `:last`). */
    seriesAt: invoiceSeriesEntity.conditions.seriesAt,
  },
} as const;

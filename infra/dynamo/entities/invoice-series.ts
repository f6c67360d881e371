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
  },
} as const;

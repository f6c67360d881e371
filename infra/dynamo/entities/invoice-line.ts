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
    /**
     * A line's running credited total moves only from the value the credit was planned on
     * (`:prev`, `:zero` → 0), so two credit notes racing for one line cannot both take what is
     * left of it: one commits, the other re-reads and finds less (and is refused if it no longer fits).
     */
    creditedAt: 'attribute_exists(PK) AND (creditedTotal = :prev OR (attribute_not_exists(creditedTotal) AND :prev = :zero))',
  },
} as const;

/*
 * The InvoiceLineLane item (PK = GROUP#<g>, SK = INVLANE#<invoice>#<n>): one of the lanes a large
 * invoice's lines are written through at once, closed onto the invoice when they are all written.
 */
export const invoiceLineLaneEntity = {
  name: 'InvoiceLineLane',
  key: keys.invoiceLineLane,
  conditions: {
    /** A lane takes lines until closed; closing fences a late write (a run that lost its lease). */
    open: 'attribute_not_exists(closed)',
    /** Closed onto the invoice only as read (`:n` its line count): a lane that moved since makes the closing re-read. */
    openAt: 'attribute_not_exists(closed) AND lineCount = :n',
    /** A lane no run used is closed only if still unused (created closed). */
    unused: ITEM_IS_NEW,
    /** A lane another run closed stays closed. */
    closed: 'attribute_exists(closed)',
  },
} as const;

/* A credit note's line (an InvoiceLine item under CNLINE#<note>#<line>, on GSI1 under its note), written once with the note. */
export const creditNoteLineEntity = {
  name: 'InvoiceLine',
  key: keys.creditNoteLine,
  conditions: { isNew: ITEM_IS_NEW },
} as const;

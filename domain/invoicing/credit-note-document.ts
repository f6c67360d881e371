import type { Invoice, InvoiceLine } from './invoice.ts';
import type { CreditNoteDocument, InvoiceDocument } from './invoice-document.ts';
import { invoiceDocumentOf } from './invoice-document-of.ts';

/**
 * The printable view of a credit note, from its stored figures: the same parties, lines
 * and totals as a tax invoice would print, titled "Credit Note", naming the invoice it
 * corrects (number and date) and why it was raised. It has no due date and no payment.
 */
export function creditNoteDocumentOf(note: Invoice, lines: readonly InvoiceLine[]): CreditNoteDocument {
  if (!note.creditNoteFor || !note.creditNoteForNumber || !note.creditNoteForDate) throw new RangeError(`${note.id} is not a credit note`);
  // The tax invoice's view needs a due date; a credit note has none, and it is dropped below.
  const { kind: _kind, dueDate: _due, ...base } = invoiceDocumentOf({ ...note, dueDate: note.issueDate }, lines);
  return {
    ...base,
    kind: 'CREDIT_NOTE',
    originalInvoice: { number: note.creditNoteForNumber, date: note.creditNoteForDate },
    ...(note.creditReason ? { reason: note.creditReason } : {}),
  };
}

/** What is printed for a stored invoice or credit note. */
export const documentOf = (invoice: Invoice, lines: readonly InvoiceLine[]): InvoiceDocument =>
  invoice.creditNoteFor ? creditNoteDocumentOf(invoice, lines) : invoiceDocumentOf(invoice, lines);

import type { InvoiceDocument } from '../invoicing/invoice-document.ts';

/** Prints one invoice or credit note; the same document always gives the same bytes. */
export interface InvoiceRenderer {
  render(doc: InvoiceDocument): Promise<Uint8Array>;
}

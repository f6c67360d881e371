import type { InvoiceDocument } from '../invoicing/invoice-document.ts';

/** Prints one stored invoice or credit note as a PDF. */
export interface InvoiceRenderer {
  render(doc: InvoiceDocument): Promise<Uint8Array>;
}

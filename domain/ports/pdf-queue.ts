import type { Invoice } from '../invoicing/invoice.ts';

/** One issued document (invoice or credit note) whose PDF is to be rendered and stored. */
export interface PdfJob {
  readonly agentGroupId: string;
  readonly invoiceId: string;
}

/**
 * Where an issued document's PDF is asked for. On the request path it is a queue the PDF
 * worker drains (the answer does not wait for the rendering); tools that bill in-process
 * render at once. Either way the invoice stays open until its PDF is stored.
 */
export interface PdfQueue {
  /** Asks for the document's PDF; returns the invoice as it then stands (with its pdfKey where it was rendered at once). */
  request(invoice: Invoice): Promise<Invoice>;
}

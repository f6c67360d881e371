import type { EInvoicePayload } from '../invoicing/e-invoice.ts';

/**
 * What the invoice registration portal (IRP) answers for a registered document: the IRN,
 * its acknowledgement, and the IRP's signatures. `ackDate` is as the IRP writes it
 * ("yyyy-mm-dd hh:mm:ss", India time).
 */
export interface EInvoiceRegistered {
  /** 64 hex characters: SHA-256 of supplier GSTIN, financial year, document type and number. */
  readonly irn: string;
  readonly ackNo: string;
  readonly ackDate: string;
  /** The signed QR payload (a JWT) the printed QR code carries. */
  readonly signedQrCode: string;
  /** The whole document as the IRP signed it (a JWT), when the IRP returned it. */
  readonly signedInvoice?: string;
  /** True when the IRP had registered this document before (its 2150 "Duplicate IRN"), answered with that registration. */
  readonly duplicate: boolean;
}

/**
 * The IRP refused the document (its validation): permanent until the data it names changes.
 * `code` and `message` are the IRP's own, kept for operators.
 */
export class EInvoiceRejectedError extends Error {
  override readonly name = 'EInvoiceRejectedError';
  constructor(
    readonly code: string,
    readonly irpMessage: string,
  ) {
    super(`rejected by the IRP (${code}): ${irpMessage}`);
  }
}

/** The IRP could not be reached or could not answer now: the same document is sent again later. */
export class EInvoiceUnavailableError extends Error {
  override readonly name = 'EInvoiceUnavailableError';
  constructor(reason: string) {
    super(`the IRP is unavailable: ${reason}`);
  }
}

/**
 * The e-invoice registration portal (directly, or through a GST suvidha provider). A real
 * provider's adapter plugs in here unchanged: it signs in, sends the INV-01 JSON, and turns
 * the IRP's answers into these results. Registering the same document again is safe: the
 * IRP answers 2150 "Duplicate IRN" with the IRN, and the adapter fetches that registration
 * (its signed QR) by IRN, so a retry after a lost answer gets the registration it missed.
 */
export interface EInvoiceRegistry {
  /** Throws EInvoiceRejectedError (the IRP's verdict on the data) or EInvoiceUnavailableError (try again later). */
  register(document: EInvoicePayload): Promise<EInvoiceRegistered>;
}

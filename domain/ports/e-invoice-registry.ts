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
 * What the IRP answered for a document that it holds registered but that cannot be taken as
 * ours without an operator (docs/receivables.md, "E-invoicing: held documents"):
 * - `RECONCILE`: its 2150 "Duplicate IRN" names a registration that is older than the portal
 *   serves (2283, "generated more than 2 days ago"), or whose signed document differs from
 *   ours (recipient, number, date or total). Nothing is stored as ours; an operator lists and
 *   resolves it.
 * - `SIGNATURE`: the portal registered the document, but its signature does not hold under
 *   the signing key we have (the portal rotated its certificate). The IRN and acknowledgement
 *   are kept, the document is never sent again, and the signatures are verified again once
 *   the stage secret holds the portal's new key.
 */
export interface EInvoiceHeldDetails {
  readonly irn: string;
  readonly ackNo: string | null;
  readonly ackDate: string | null;
  /** SIGNATURE only: the portal's signed QR and invoice as it sent them, verified again after a key rotation. */
  readonly signedQrCode?: string;
  readonly signedInvoice?: string;
}

export class EInvoiceHeldError extends Error {
  override readonly name = 'EInvoiceHeldError';
  constructor(
    readonly kind: 'RECONCILE' | 'SIGNATURE',
    readonly held: EInvoiceHeldDetails,
    readonly reason: string,
  ) {
    super(`${kind === 'RECONCILE' ? 'needs reconciliation' : "the IRP's signature does not verify"}: ${reason}`);
  }
}

/**
 * The portal's record of one registration as Get IRN details answers it (and as the portal's
 * e-invoice download gives it): what `accept` verifies before it is stored as ours.
 */
export interface EInvoiceDetails {
  readonly Irn: string;
  readonly AckNo: number | string;
  readonly AckDt: string;
  readonly SignedInvoice?: string | null;
  readonly SignedQRCode: string;
}

/**
 * The IRP's cancellation reasons (its Cancel IRN API, `CnlRsn`): 1 Duplicate, 2 Data entry
 * mistake, 3 Order cancelled, 4 Others.
 */
export const CANCEL_REASONS = { '1': 'Duplicate', '2': 'Data entry mistake', '3': 'Order cancelled', '4': 'Others' } as const;
export type CancelReason = keyof typeof CANCEL_REASONS;

export interface EInvoiceCancellation {
  /** Our registration (the GSTIN the IRN belongs to). */
  readonly supplierGstin: string;
  readonly irn: string;
  readonly reason: CancelReason;
  /** Up to 100 characters, kept by the IRP with the cancellation. */
  readonly remark: string;
}

/** The IRP's answer to a cancellation: `cancelDate` as it writes it ("yyyy-mm-dd hh:mm:ss", India time). */
export interface EInvoiceCancelled {
  readonly irn: string;
  readonly cancelDate: string;
}

/** A taxpayer as the IRP's Get GSTIN details answers: status ACT (active), CNL (cancelled), INA (inactive) or PRO (provisional). */
export interface Taxpayer {
  readonly gstin: string;
  readonly legalName: string | null;
  readonly tradeName: string | null;
  /** The principal place of business, when the IRP gives one. */
  readonly address: {
    readonly line1: string;
    readonly line2: string | null;
    readonly city: string;
    readonly stateCode: string;
    readonly postalCode: string;
  } | null;
  readonly status: 'ACT' | 'CNL' | 'INA' | 'PRO';
  /** The IRP's block status "B": e-way bill generation blocked (returns not filed); no bar to e-invoices. */
  readonly blocked: boolean;
}

/**
 * The e-invoice registration portal (directly, or through a GST suvidha provider). A real
 * provider's adapter plugs in here unchanged: it signs in, sends the INV-01 JSON, and turns
 * the IRP's answers into these results. Registering the same document again is safe: the
 * IRP answers 2150 "Duplicate IRN", and the adapter fetches that registration (its signed
 * QR) by document, so a retry after a lost answer gets the registration it missed.
 */
export interface EInvoiceRegistry {
  /** Throws EInvoiceRejectedError (the IRP's verdict on the data) or EInvoiceUnavailableError (try again later). */
  register(document: EInvoicePayload): Promise<EInvoiceRegistered>;
  /** Cancels a registered IRN (the IRP allows it within 24 hours of registration); the same errors as `register`. */
  cancel(cancellation: EInvoiceCancellation): Promise<EInvoiceCancelled>;
  /**
   * Takes a registration of `sent` the portal holds (a held document's signatures after the
   * signing key's rotation, or the portal's record an operator downloaded): its signatures
   * must hold under the registration's current key and it must be `sent` (recipient, number,
   * date, total). Never sends anything. Throws EInvoiceHeldError (SIGNATURE, or RECONCILE when
   * it is another document).
   */
  accept(sent: EInvoicePayload, details: EInvoiceDetails): Promise<EInvoiceRegistered>;
  /** The IRP's record of a GSTIN; EInvoiceRejectedError when it knows none, EInvoiceUnavailableError when it cannot answer. */
  taxpayer(gstin: string): Promise<Taxpayer>;
}

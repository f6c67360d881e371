import type { AuditDraft } from '../audit/audit-event.ts';
import type { Invoice, InvoiceLine, InvoiceParties, InvoiceStatus, InvoiceTotals } from '../invoicing/invoice.ts';
import type { EInvoiceHold, EInvoiceRegistration } from '../invoicing/invoice-document.ts';

/** What one line-writing transaction did: lines written, and bookings another run had already billed. */
export interface LinesWritten {
  readonly written: number;
  readonly totals: InvoiceTotals;
  /** Bookings left out because a line of theirs was already stored (another run won them). */
  readonly refusedBookings: readonly string[];
  /** Bookings not sent because `stop` answered true: the run that continues the invoice writes them. */
  readonly unwrittenBookings: number;
}

export interface AddLinesOptions {
  /**
   * Asked before each transaction of lines: true once the caller must answer (a request's
   * budget). Nothing half-written is left: the transactions in flight end, the lanes close,
   * and the bookings not sent are counted in `unwrittenBookings`.
   */
  readonly stop?: () => boolean;
}

/** What of an invoice's parties may still change while it is a DRAFT (our GSTINs, the series and the tax split may not). */
export type RefreshedParties = Pick<InvoiceParties, 'billToGstin' | 'billToName' | 'billToAddress' | 'supplierName' | 'supplierAddress'>;

export interface IssueRequest {
  readonly issueDate: string;
  readonly dueDate: string;
  readonly issuedAt: string;
  readonly financialYear: string;
  /** Formats the statutory number from the series' next sequence. */
  readonly numberOf: (sequence: number) => string;
  /** A sandbox test clock's id when the document is dated on it: the clock's own series, not the registration's. */
  readonly testClockId?: string;
}

export interface InvoiceListQuery {
  readonly statuses: readonly InvoiceStatus[];
  /** Inclusive issue-date window (yyyy-mm-dd). */
  readonly from?: string;
  readonly to?: string;
  /** Strictly after this position, newest first. */
  readonly after?: string;
  readonly limit: number;
}

export interface InvoicePage {
  readonly invoices: readonly Invoice[];
  /** The position of the last invoice when more may follow. */
  readonly next: string | null;
}

/** One line of the held documents' list (the hold item beside the invoice). */
export interface HeldEInvoice {
  readonly agentGroupId: string;
  readonly invoiceId: string;
  readonly invoiceNumber: string | null;
  readonly supplierGstin: string;
  readonly kind: EInvoiceHold['kind'];
  readonly irn: string;
  readonly reason: string;
  readonly since: string;
}

/**
 * Invoices and credit notes with their lines, from DRAFT to issued, voided or retired, with
 * the number each takes from its series in the same write (docs/data-model.md). What each
 * booking was billed (BookingMarks), pay links (PayLinkStore), what a group owes (OwingFigures),
 * the billing lock (BillingRunControl) and the run log (BillingRunLog) are ports of their own.
 * Tenancy is a parameter of every read: each takes the agent group.
 */
export interface InvoiceStore {
  /** Stores a new DRAFT with no lines. */
  createDraft(invoice: Invoice): Promise<void>;
  /**
   * Adds lines to a DRAFT, a booking's lines together where they fit one transaction. A
   * line whose booking, kind and item is already stored (on any invoice) is refused by the
   * store, and with it the rest of that booking's lines in this call. A DRAFT may take lines
   * in more than one call (a run continuing one a cut run handed on).
   */
  addLines(invoice: Invoice, lines: readonly InvoiceLine[], at: string, opts?: AddLinesOptions): Promise<LinesWritten>;
  /**
   * Moves onto a DRAFT the figures of lines written in parallel by a run that died before it
   * did (the invoice is `linesOpen`), fencing any later write of that run; answers the
   * invoice as it is then. Does nothing to an invoice whose lines are closed.
   */
  closeLines(agentGroupId: string, invoiceId: string, at: string): Promise<Invoice>;
  /** Removes a DRAFT that ended up with no line (every booking went to a racing run). */
  deleteEmptyDraft(agentGroupId: string, invoiceId: string): Promise<void>;

  get(agentGroupId: string, invoiceId: string): Promise<Invoice | undefined>;
  lines(agentGroupId: string, invoiceId: string): Promise<InvoiceLine[]>;
  /** DRAFTs, and ISSUED invoices with a step still to do (PDF, booking marks). */
  openInvoices(agentGroupId: string): Promise<Invoice[]>;
  /** Groups with open invoices (for the scheduled run). */
  groupsWithOpenInvoices(): Promise<string[]>;

  recordFailure(agentGroupId: string, invoiceId: string, error: string, at: string): Promise<void>;
  /** Holds a numbered document the IRP holds registered (EInvoiceHeldError) for an operator: kept on it with its lastError, and listed by `heldEInvoices` until released. */
  holdEInvoice(agentGroupId: string, invoiceId: string, hold: EInvoiceHold, lastError: string, at: string): Promise<void>;
  /** Ends a hold (the document was taken as registered, or an operator sends it again); nothing when there is none. */
  releaseEInvoiceHold(agentGroupId: string, invoiceId: string, at: string): Promise<void>;
  /** Every held document of the stage, oldest hold first. */
  heldEInvoices(): Promise<HeldEInvoice[]>;
  /**
   * Stores the IRP's registration on a record issued before it was registered (a credit note
   * is numbered and issued in the transaction that raises it) and clears its lastError; false
   * when it holds a registration already (a racing run stored it) or is not issued.
   */
  setEInvoice(agentGroupId: string, invoiceId: string, eInvoice: EInvoiceRegistration, at: string): Promise<boolean>;
  /** Rewrites a DRAFT's recipient and supplier name and address (corrected master data, before registration); false when it is not a DRAFT. */
  setParties(agentGroupId: string, invoiceId: string, parties: RefreshedParties, at: string): Promise<boolean>;
  /**
   * DRAFT → ISSUED with the number it reserved (reserveNumber), or else the next number of
   * the series; the IRP's registration stored with it when given. A racing issue of the same
   * invoice returns it as it now stands.
   */
  issue(invoice: Invoice, request: IssueRequest, eInvoice?: EInvoiceRegistration): Promise<Invoice>;
  /**
   * Takes the next number of the series, the issue and due dates for a DRAFT that must be
   * registered before it is issued (e-invoicing): it stays DRAFT (never listed) holding the
   * number, so the series has no gap and a retry registers the same number. A DRAFT that
   * holds a number already is returned as it is.
   */
  reserveNumber(invoice: Invoice, request: IssueRequest): Promise<Invoice>;
  setPdf(agentGroupId: string, invoiceId: string, pdfKey: string, at: string): Promise<void>;
  /**
   * A registered, issued invoice whose IRN the IRP cancelled → CANCELLED, keeping its number
   * (no gap in the series): off the group's lists and figures, on its registration's list of
   * cancelled documents, its lines given back and its bookings unmarked so the next run bills
   * them. False when it is not ISSUED with that IRN and nothing paid or credited (any more);
   * a call after a crash finishes releasing what the first one cancelled. `audit` is written
   * in the status change's own transaction (a finishing call writes none: the first did).
   */
  voidIssued(invoice: Invoice, cancellation: EInvoiceVoid, at: string, audit?: AuditDraft): Promise<boolean>;
  /**
   * A numbered DRAFT the IRP will never register (past its reporting window) → CANCELLED,
   * keeping its number and date (the series has no gap; GSTR-1 table 13 counts it cancelled),
   * on its registration's list of cancelled documents, `retired` recording when and why, its
   * lines given back so the next run bills them on a new number. False when it is not (any
   * more) a numbered DRAFT with closed lines and without a registration or a hold at the IRP;
   * a call after a crash finishes giving the lines back. `audit` goes in the status change's
   * transaction.
   */
  retireUnreported(invoice: Invoice, retired: RetiredDocument, audit?: AuditDraft): Promise<boolean>;
  /** The documents of a registration cancelled at the IRP, issue dates within [from, to]. */
  cancelledDocuments(supplierGstin: string, from: string, to: string): Promise<Invoice[]>;
  /**
   * DRAFT → CANCELLED, with `audit` in the same transaction; false when it is not a DRAFT (any
   * more) or holds a reserved number (abandoning it would leave a gap), and then no event.
   */
  abandon(agentGroupId: string, invoiceId: string, at: string, audit?: AuditDraft): Promise<boolean>;

  list(agentGroupId: string, query: InvoiceListQuery): Promise<InvoicePage>;
}

/** Why a numbered document was cancelled without reaching the IRP: past its reporting window on `at`, `lastDay` its last day. */
export interface RetiredDocument {
  readonly at: string;
  readonly reason: 'PAST_REPORTING_WINDOW';
  readonly lastDay: string | null;
}

/** What the IRP answered a cancellation, kept on the voided invoice's registration. */
export interface EInvoiceVoid {
  readonly cancelDate: string;
  /** The IRP's reason code (1 Duplicate, 2 Data entry mistake, 3 Order cancelled, 4 Others). */
  readonly reason: string;
  readonly remark: string;
}

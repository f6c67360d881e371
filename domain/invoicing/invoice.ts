import type { VirtualAccount } from '../ports/payment-gateway.ts';
import type { Minor } from '../money.ts';
import type { EInvoiceHold, EInvoiceRegistration } from './invoice-document.ts';

/** SAC of accommodation services (hotel, inn, guest house, club, campsite and the like). */
export const SAC_ACCOMMODATION = '996311';

/**
 * Every status an invoice can be in (docs/product-rules.md "Invoices, GST and payments"). DRAFT and CANCELLED are never
 * listed; PAID comes with payments (the receivables issue).
 */
export const INVOICE_STATUSES = ['DRAFT', 'ISSUED', 'PAID', 'CANCELLED'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** The statuses a partner may list and filter on. */
export const LISTED_INVOICE_STATUSES = ['ISSUED', 'PAID'] as const satisfies readonly InvoiceStatus[];
export type ListedInvoiceStatus = (typeof LISTED_INVOICE_STATUSES)[number];

export const INVOICE_LINE_KINDS = ['STAY', 'MEAL', 'SERVICE', 'ADJUSTMENT', 'CANCELLATION'] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];

/** The figures an invoice adds up from its lines; all paise. */
export interface InvoiceTotals {
  /** Σ taxable value. */
  readonly subtotal: Minor;
  readonly cgst: Minor;
  readonly sgst: Minor;
  readonly igst: Minor;
  /** Discounts already taken off the taxable values (cancellation plan, bank offer); shown, not subtracted again. */
  readonly discount: Minor;
  /** subtotal + cgst + sgst + igst. */
  readonly total: Minor;
  readonly lineCount: number;
}

/** total − amountPaid − creditedAmount: what the group still owes on it; a credit note owes nothing. */
export const amountDueOf = (i: Pick<Invoice, 'total' | 'amountPaid' | 'creditedAmount' | 'creditNoteFor'>): Minor =>
  i.creditNoteFor ? 0 : i.total - (i.amountPaid ?? 0) - (i.creditedAmount ?? 0);

/**
 * The order a payer may be sent to: the current one, only while it is for exactly what is owed. After a payment or credit
 * note elsewhere it is for more, so none is offered until reconciliation replaces it (gateway-orders.ts); a settled invoice offers none.
 */
export const payableOrderOf = (
  i: Pick<Invoice, 'total' | 'amountPaid' | 'creditedAmount' | 'creditNoteFor' | 'gatewayOrderId' | 'gatewayOrderAmount'>,
): string | null => {
  const due = amountDueOf(i);
  return i.gatewayOrderId && due > 0 && (i.gatewayOrderAmount ?? i.total) === due ? i.gatewayOrderId : null;
};

/** A hosted page that collects an invoice's amount due (a Razorpay Payment Link), as stored on the invoice (docs/receivables.md "Pay links"). */
export interface PayLink {
  readonly linkId: string;
  /** The URL a payer opens. */
  readonly url: string;
  /** Paise it collects: the amount due when it was made. */
  readonly amount: Minor;
  /** After this instant it takes no payment. */
  readonly expiresAt: string;
  /** Which of the invoice's links it is (its reference `<invoice id>/L<seq>`). */
  readonly seq: number;
}

/** The link a payer may be sent to: only while it is for exactly what is owed and not past its expiry. */
export const payableLinkOf = (
  i: Pick<Invoice, 'total' | 'amountPaid' | 'creditedAmount' | 'creditNoteFor' | 'payLink' | 'status'>,
  now: Date,
): PayLink | null => {
  const due = amountDueOf(i);
  return i.status === 'ISSUED' && i.payLink && due > 0 && i.payLink.amount === due && i.payLink.expiresAt > now.toISOString() ? i.payLink : null;
};

/** What a group owes across its invoices: Σ amountDue of those still owing, how many, and the oldest of their due dates. */
export interface OpenFigures {
  readonly outstanding: Minor;
  readonly openCount: number;
  readonly oldestDueDate: string | null;
}

/** The open figures computed from every listed invoice: the definition the kept figures must equal. */
export function openFiguresOf(
  invoices: readonly (Pick<Invoice, 'total' | 'amountPaid' | 'creditedAmount' | 'creditNoteFor'> & { readonly dueDate: string | null })[],
): OpenFigures {
  const open = invoices.filter((i) => amountDueOf(i) > 0);
  return {
    outstanding: open.reduce((s, i) => s + amountDueOf(i), 0),
    openCount: open.length,
    oldestDueDate: open.length ? open.map((i) => i.dueDate!).sort()[0]! : null,
  };
}

export const NO_TOTALS: InvoiceTotals = { subtotal: 0, cgst: 0, sgst: 0, igst: 0, discount: 0, total: 0, lineCount: 0 };

/** A new DRAFT of a run: no number, dates, gateway order, PDF or bookings yet; its figures grow as lines join it. */
export const newDraftInvoice = (d: {
  readonly id: string;
  readonly agentGroupId: string;
  readonly runId: string;
  readonly period: { readonly from: string; readonly to: string };
  readonly parties: InvoiceParties;
  readonly at: string;
}): Invoice => ({
  ...d.parties,
  ...NO_TOTALS,
  id: d.id,
  agentGroupId: d.agentGroupId,
  status: 'DRAFT',
  invoiceNumber: null,
  issueDate: null,
  dueDate: null,
  issuedAt: null,
  periodFrom: d.period.from,
  periodTo: d.period.to,
  runId: d.runId,
  gatewayOrderId: null,
  pdfKey: null,
  bookingRefs: [],
  bookingsMarked: false,
  lastError: null,
  createdAt: d.at,
  updatedAt: d.at,
});

/** Who supplies (our registration in the place of supply) and who is billed (the agent group). */
export interface InvoiceParties {
  readonly supplierGstin: string;
  readonly supplierName: string;
  readonly supplierAddress: string;
  /** Two-digit GST state code of the supplier's registration. */
  readonly supplierStateCode: string;
  readonly billToGstin: string | null;
  readonly billToName: string;
  readonly billToAddress: string;
  /** The property's state. */
  readonly placeOfSupply: string;
  readonly placeOfSupplyStateCode: string;
}

/**
 * One invoice as stored. The figures are written with its lines (one transaction moves
 * both), so they always equal the sum of the lines; an ISSUED invoice's figures never change.
 */
export interface Invoice extends InvoiceParties, InvoiceTotals {
  readonly id: string;
  readonly agentGroupId: string;
  readonly status: InvoiceStatus;
  /**
   * Set at issue from the registration's series; for a registration marked for e-invoicing,
   * reserved while still DRAFT (registered with the IRP, then issued). Never shown on a DRAFT.
   */
  readonly invoiceNumber: string | null;
  readonly issueDate: string | null;
  readonly dueDate: string | null;
  readonly issuedAt: string | null;
  readonly periodFrom: string;
  readonly periodTo: string;
  readonly runId: string;
  /** The gateway order that collects what is owed now (a fresh one replaces it whenever the amount due changes). */
  readonly gatewayOrderId: string | null;
  /** Paise the current order collects: absent for the invoice's first order, which is for its total. */
  readonly gatewayOrderAmount?: Minor;
  /** Which of the invoice's orders the current one is (1 = the first, receipt the invoice id). */
  readonly gatewayOrderSeq?: number;
  /** Orders it replaced: still the invoice's (the gateway cannot cancel an order), so a payment on one lands here, any surplus as credit. */
  readonly earlierGatewayOrders?: readonly string[];
  /** The payment link for the amount due (replaced when that changes, removed once settled); absent where the gateway makes none. */
  readonly payLink?: PayLink | null;
  /** The group's virtual bank account to pay by transfer (Smart Collect), stored with the gateway order. */
  readonly payTo?: VirtualAccount | null;
  /** Where the PDF is stored, once rendered. */
  readonly pdfKey: string | null;
  /** The bookings whose lines it holds; marked invoiced once it is issued. */
  readonly bookingRefs: readonly string[];
  readonly bookingsMarked: boolean;
  /** Σ payments allocated to it (paise); absent until the first allocation. */
  readonly amountPaid?: Minor;
  /** Σ credit notes raised against it (paise); absent until the first. */
  readonly creditedAmount?: Minor;
  /** Σ credit notes per booking on it (bookingRef → paise): payments reach what is left of each booking. */
  readonly creditedByBooking?: Readonly<Record<string, Minor>>;
  /** Ids of the credit notes raised against it, oldest first; absent until the first. */
  readonly creditNoteIds?: readonly string[];
  /**
   * On a credit note only (docs/receivables.md "Credit notes"): the invoice it corrects, that
   * invoice's number and issue date (printed on it), and why it was raised.
   */
  readonly creditNoteFor?: string;
  readonly creditNoteForNumber?: string;
  readonly creditNoteForDate?: string;
  readonly creditReason?: string;
  /**
   * On a credit note only: paise of the corrected invoice's payments it gave back as the
   * group's unallocated credit (absent on notes raised before it was recorded). Voiding the
   * note is allowed only when it is 0: that credit may be spent already.
   */
  readonly creditReleased?: Minor;
  /** The IRP's registration (IRN, acknowledgement, signed QR), for a registration marked for e-invoicing; absent otherwise. */
  readonly eInvoice?: EInvoiceRegistration;
  /** A document the IRP holds registered that an operator must see to (`invoices held`); absent otherwise. */
  readonly eInvoiceHold?: EInvoiceHold;
  /** A numbered DRAFT cancelled because the IRP would never register it (past its reporting window); its charges billed again on a new number. */
  readonly retired?: { readonly at: string; readonly reason: 'PAST_REPORTING_WINDOW'; readonly lastDay: string | null };
  /**
   * On a DRAFT whose lines are being written in parallel: its figures are not on it yet, so it
   * is neither numbered nor abandoned until they are (docs/invoicing.md "A large run's cost").
   */
  readonly linesOpen?: boolean;
  /** How many times its lanes were opened (each opening writes through a fresh batch of lane items). */
  readonly laneBatches?: number;
  /** The last step that failed, kept for operators until it succeeds. */
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** One row of a tax invoice; `key` is unique per booking, kind and item (the store refuses a second). */
export interface InvoiceLine {
  readonly id: string;
  readonly invoiceId: string;
  readonly agentGroupId: string;
  /** `<kind>#<ref>`: with bookingRef, the line's identity across every invoice ever written. */
  readonly key: string;
  readonly lineKind: InvoiceLineKind;
  readonly sac: string;
  readonly description: string;
  readonly propertyName: string;
  readonly bookingRef: string;
  readonly bookingId: string;
  /** The partner's own booking reference (its charge's); absent on lines written before it was kept on lines. */
  readonly externalBookingId?: string;
  readonly ledgerEntryId: string;
  readonly itemRef: string;
  readonly nightDate: string | null;
  readonly checkIn: string;
  readonly checkOut: string;
  readonly quantity: number;
  readonly unitBase: Minor;
  readonly discount: Minor;
  readonly taxableValue: Minor;
  readonly gstRate: number;
  readonly cgst: Minor;
  readonly sgst: Minor;
  readonly igst: Minor;
  readonly lineTotal: Minor;
  /** On a credit note's line: the invoice line it credits. */
  readonly creditNoteForLine?: string;
  /** On an invoice's line: Σ lineTotal and Σ GST of the credit-note lines against it (paise); absent until the first. */
  readonly creditedTotal?: Minor;
  readonly creditedGst?: Minor;
}

export interface BlockedState {
  readonly state: string;
  readonly lineCount: number;
  readonly taxableValue: Minor;
}

export const SKIP_REASONS = ['BOOKING_NOT_FOUND', 'NO_CHARGE_LINES', 'PROPERTY_UNKNOWN', 'NEEDS_CREDIT_NOTE'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface SkippedEntry {
  readonly ledgerEntryId: string;
  readonly bookingId: string;
  readonly reason: SkipReason;
}

export interface UnreconciledEntry {
  readonly ledgerEntryId: string;
  readonly bookingId: string;
  /** The booking's net POSTED amount: charge + adjustments + refunds. */
  readonly chargedAmount: Minor;
  /** What its lines would bill. */
  readonly billedAmount: Minor;
}

/** The contract's Billing run result, money in paise. */
export interface BillingRunResult {
  readonly runId: string;
  readonly agentGroupId: string;
  readonly trigger: BillingTrigger;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly periodFrom: string;
  readonly periodTo: string;
  readonly cutoff: string;
  readonly invoiceIds: readonly string[];
  readonly linesWritten: number;
  readonly blockedStates: readonly BlockedState[];
  readonly skippedEntries: readonly SkippedEntry[];
  readonly unreconciledEntries: readonly UnreconciledEntry[];
  /** Invoices of the run left DRAFT, with why; the next run retries them. */
  readonly draftsLeft: number;
  /**
   * The caller's time ran out while the lines were written (a large POST /v1/invoices): the
   * run's DRAFTs, with the lines written so far, are continued by the billing worker.
   */
  readonly handedOff?: boolean;
}

export const BILLING_TRIGGERS = ['API', 'SCHEDULE', 'ADMIN'] as const;
export type BillingTrigger = (typeof BILLING_TRIGGERS)[number];

import type { AuditDraft } from '../audit/audit-event.ts';
import type { Invoice, InvoiceLine } from '../invoicing/invoice.ts';
import type { CreditableLine } from '../invoicing/credit-notes.ts';
import type { LedgerEntry } from '../ledger/ledger.ts';
import type { Minor } from '../money.ts';

/** What one credit note changes on the invoice it corrects; `expect*` are the figures it was planned on. */
export interface CreditedInvoice {
  readonly id: string;
  readonly expectPaid: Minor;
  readonly expectCredited: Minor;
  readonly amountPaid: Minor;
  readonly creditedAmount: Minor;
  /** The invoice's credits per booking after this one (written whole: the figures condition guards it). */
  readonly creditedByBooking: Readonly<Record<string, Minor>>;
}

/** One invoice line taking a credit: its running credited total moves from `expectCredited` by `amount`. */
export interface LineCreditWrite {
  readonly line: Pick<CreditableLine, 'agentGroupId' | 'bookingRef' | 'key' | 'id'>;
  readonly expectCredited: Minor;
  readonly amount: Minor;
  readonly gst: Minor;
}

/** A booking's billing marker moving by `delta` (negative), optionally only from the value planned on. */
export interface MarkerWrite {
  readonly bookingRef: string;
  readonly expect?: Minor;
  readonly delta: Minor;
}

/** Everything one credit note writes, in one transaction. */
export interface CreditNoteWrite {
  /** The credit note as stored, without its number (the store takes it from the series). */
  readonly note: Invoice;
  readonly lines: readonly InvoiceLine[];
  readonly credits: readonly LineCreditWrite[];
  readonly invoice: CreditedInvoice;
  readonly markers: readonly MarkerWrite[];
  /** Paise the credit gives back beyond what the invoice still owed: added to the group's unallocated credit. */
  readonly release: Minor;
  /** POSTED entries the credit note needs in the ledger (an operator's correction); none for a billing run's. */
  readonly ledgerEntries: readonly LedgerEntry[];
  readonly financialYear: string;
  readonly numberOf: (sequence: number) => string;
  /** A sandbox test clock's id when the note is dated on it: the clock's own series, not the registration's. */
  readonly testClockId?: string;
  /** An operator's note: its event, built once the note has its number, written in the same transaction. */
  readonly audit?: (issued: Invoice) => AuditDraft;
}

/**
 * Everything voiding a credit note at the IRP writes, in one transaction: the note CANCELLED
 * with the IRP's cancellation (number kept, on the cancelled-documents index), the credited
 * lines' and the invoice's figures back by what it credited, the bookings' markers back up, and for an operator's note the
 * ledger entries that undo its ADJUSTMENTs.
 */
export interface CreditNoteVoidWrite {
  readonly note: Invoice;
  readonly cancellation: { readonly cancelDate: string; readonly reason: string; readonly remark: string };
  readonly at: string;
  readonly credits: readonly LineCreditWrite[];
  readonly invoice: CreditedInvoice;
  readonly markers: readonly MarkerWrite[];
  readonly ledgerEntries: readonly LedgerEntry[];
  /** The operator's event, written in the same transaction. */
  readonly audit?: AuditDraft;
}

/** The figures a credit note was planned on moved (a racing credit note or payment): re-read and plan again. */
export class StaleCreditPlan extends Error {
  override readonly name = 'StaleCreditPlan';
}

/** Credit notes: the lines they may credit, and the one transaction that raises one. */
export interface CreditNoteStore {
  /** Every invoice line written for a booking, with what credit notes took off each. */
  creditableLines(agentGroupId: string, bookingRef: string): Promise<CreditableLine[]>;
  /**
   * Writes the credit note with the next number of its series, its lines, the lines'
   * credited totals, the invoice's figures, the bookings' markers, the released credit and
   * the ledger entries, all or nothing. Throws StaleCreditPlan when anything planned on has
   * moved since it was read (the series alone is retried here).
   */
  raise(write: CreditNoteWrite): Promise<Invoice>;
  /** Applies a credit note's void, all or nothing; StaleCreditPlan when the note, its invoice or its lines moved since they were read. */
  voidNote(write: CreditNoteVoidWrite): Promise<void>;
}

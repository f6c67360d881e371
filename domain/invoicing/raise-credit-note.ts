import type { AuditOrigin } from '../audit/audit-event.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import { postedEntry, type LedgerEntry } from '../ledger/ledger.ts';
import { formatInr, type Minor } from '../money.ts';
import type { Clock } from '../ports/clock.ts';
import { StaleCreditPlan, type CreditNoteStore, type CreditNoteWrite } from '../ports/credit-note-store.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { InvoiceStore } from '../ports/invoice-store.ts';
import type { BookingMarks } from '../ports/booking-marks.ts';
import { indiaToday } from '../reads/date-window.ts';
import { financialYearOf, numberingOf } from './billing-period.ts';
import { creditNoteLineOf, creditNoteNumberOf, lineCredit, remainingOf, type CreditableLine } from './credit-notes.ts';
import { creditNoteFigures, invoiceAudit, owedFigures } from './invoice-audit.ts';
import type { Invoice } from './invoice.ts';

export interface CreditNoteDeps {
  readonly invoices: Pick<InvoiceStore, 'get' | 'lines'>;
  readonly bookingMarks: Pick<BookingMarks, 'billedTotals'>;
  readonly creditNotes: CreditNoteStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/**
 * Lines per credit note: each takes two writes (its own line and the credited line's
 * running total) in a transaction of at most 100 items, beside the series, the note, the
 * invoice, markers, the account and ledger entries.
 */
export const MAX_CREDIT_NOTE_LINES = 40;

/** Attempts of an operator's credit note when racing credit notes or payments move what it was planned on. */
const MAX_ATTEMPTS = 20;

export interface PlannedLineCredit {
  readonly line: CreditableLine;
  readonly amount: Minor;
}

interface WriteOptions {
  readonly reason: string;
  readonly runId: string;
  /** Per booking, the billing marker value planned on (a billing run's credit commits only on it). */
  readonly markerAt?: ReadonlyMap<string, Minor>;
  /** An operator's credit: one POSTED ADJUSTMENT per booking, so the ledger drops by what the invoices do. */
  readonly postToLedger: boolean;
}

const isCorrectable = (i: Invoice): boolean =>
  (i.status === 'ISSUED' || i.status === 'PAID') && !i.creditNoteFor && i.invoiceNumber !== null && i.issueDate !== null;

/**
 * The one write of a credit note against `invoice` for `credits` (lines of that invoice):
 * lines in the credited lines' tax split, the invoice's creditedAmount raised and, when the
 * credit exceeds what was still due after payments, that much of its amountPaid released to
 * the group's unallocated credit (amountDue = total − amountPaid − creditedAmount stays ≥ 0).
 */
export function creditNoteWrite(
  deps: Pick<CreditNoteDeps, 'clock' | 'ids'>,
  invoice: Invoice,
  credits: readonly PlannedLineCredit[],
  opts: WriteOptions,
): CreditNoteWrite {
  const now = deps.clock.now();
  const at = now.toISOString();
  const issueDate = indiaToday(now);
  const intra = invoice.supplierStateCode === invoice.placeOfSupplyStateCode;
  const id = deps.ids.uuid();
  const figures = credits.map((c) => lineCredit(c.line, c.amount, intra));
  const lines = figures.map((f) => creditNoteLineOf(f, deps.ids.uuid(), { id, agentGroupId: invoice.agentGroupId }));
  const sum = (f: (l: (typeof lines)[number]) => Minor) => lines.reduce((s, l) => s + f(l), 0);
  const total = sum((l) => l.lineTotal);
  const paid = invoice.amountPaid ?? 0;
  const credited = invoice.creditedAmount ?? 0;
  if (total <= 0) throw new RangeError(`a credit note must credit a positive total, got ${total}`);
  if (credited + total > invoice.total) {
    throw new ConflictError(
      'CONFLICT',
      `Invoice ${invoice.invoiceNumber} has ${formatInr(invoice.total - credited)} left to credit; a credit note of ${formatInr(total)} would credit more than was invoiced.`,
    );
  }
  const release = Math.max(0, paid - (invoice.total - credited - total));
  const bookingRefs = [...new Set(lines.map((l) => l.bookingRef))].sort();
  const note: Invoice = {
    supplierGstin: invoice.supplierGstin,
    supplierName: invoice.supplierName,
    supplierAddress: invoice.supplierAddress,
    supplierStateCode: invoice.supplierStateCode,
    billToGstin: invoice.billToGstin,
    billToName: invoice.billToName,
    billToAddress: invoice.billToAddress,
    placeOfSupply: invoice.placeOfSupply,
    placeOfSupplyStateCode: invoice.placeOfSupplyStateCode,
    subtotal: sum((l) => l.taxableValue),
    cgst: sum((l) => l.cgst),
    sgst: sum((l) => l.sgst),
    igst: sum((l) => l.igst),
    discount: 0,
    total,
    lineCount: lines.length,
    id,
    agentGroupId: invoice.agentGroupId,
    status: 'ISSUED',
    invoiceNumber: null,
    issueDate,
    dueDate: null,
    issuedAt: at,
    periodFrom: invoice.periodFrom,
    periodTo: invoice.periodTo,
    runId: opts.runId,
    gatewayOrderId: null,
    pdfKey: null,
    bookingRefs,
    // A credit note marks no booking: its bookings are on the invoice it corrects.
    bookingsMarked: true,
    lastError: null,
    createdAt: at,
    updatedAt: at,
    creditNoteFor: invoice.id,
    creditNoteForNumber: invoice.invoiceNumber!,
    creditNoteForDate: invoice.issueDate!,
    creditReason: opts.reason,
    creditReleased: release,
  };
  const perBooking = new Map<string, { total: Minor; bookingId: string }>();
  for (const l of lines) perBooking.set(l.bookingRef, { total: (perBooking.get(l.bookingRef)?.total ?? 0) + l.lineTotal, bookingId: l.bookingId });
  const ledgerEntries: LedgerEntry[] = opts.postToLedger
    ? [...perBooking.values()].map((b) =>
        postedEntry(
          {
            agentGroupId: invoice.agentGroupId,
            type: 'ADJUSTMENT',
            amount: -b.total,
            bookingId: b.bookingId,
            externalBookingId: null,
            description: `Credit note against invoice ${invoice.invoiceNumber}: ${opts.reason}`,
          },
          deps.ids.uuid(),
          now,
        ),
      )
    : [];
  const creditedByBooking: Record<string, Minor> = { ...invoice.creditedByBooking };
  for (const [ref, b] of perBooking) creditedByBooking[ref] = (creditedByBooking[ref] ?? 0) + b.total;
  const fy = financialYearOf(issueDate);
  return {
    note,
    lines,
    credits: figures.map((f) => ({ line: f.line, expectCredited: f.line.creditedTotal, amount: f.amount, gst: f.gst })),
    invoice: { id: invoice.id, expectPaid: paid, expectCredited: credited, amountPaid: paid - release, creditedAmount: credited + total, creditedByBooking },
    markers: [...perBooking.entries()].map(([bookingRef, b]) => ({
      bookingRef,
      delta: -b.total,
      ...(opts.markerAt?.has(bookingRef) ? { expect: opts.markerAt.get(bookingRef)! } : {}),
    })),
    release,
    ledgerEntries,
    financialYear: fy,
    ...numberingOf(deps.clock, 'C', fy, (n) => creditNoteNumberOf(invoice.supplierStateCode, fy, n)),
  };
}

/** One line of an operator's credit note: the whole of what is left of the line, or part of it. */
export interface OperatorLineCredit {
  readonly lineId: string;
  /** Paise; absent = whatever is left of the line. */
  readonly amount?: Minor;
}

/**
 * An operator's credit note for named lines of an issued invoice, with a reason. It also
 * posts one ADJUSTMENT per booking (negative, the booking's credited amount), so the ledger
 * and statement drop by what the invoices do. Lines credited beyond what is left of them
 * are refused (409), also when racing credit notes took it first; a bad line is 400.
 */
export async function raiseOperatorCreditNote(
  deps: CreditNoteDeps,
  agentGroupId: string,
  invoiceId: string,
  lineCredits: readonly OperatorLineCredit[],
  reason: string,
  origin: AuditOrigin,
): Promise<Invoice> {
  if (reason.trim().length === 0) throw new ValidationError('reason', 'A credit note needs a reason (printed on it).');
  if (lineCredits.length === 0) throw new ValidationError('lines', 'Name at least one line to credit.');
  if (lineCredits.length > MAX_CREDIT_NOTE_LINES)
    throw new ValidationError('lines', `A credit note credits at most ${MAX_CREDIT_NOTE_LINES} lines; raise several.`);
  if (new Set(lineCredits.map((c) => c.lineId)).size !== lineCredits.length) throw new ValidationError('lines', 'Name each line once.');
  for (let attempt = 0; ; attempt++) {
    const invoice = await deps.invoices.get(agentGroupId, invoiceId);
    if (!invoice) throw new NotFoundError('Invoice');
    if (!isCorrectable(invoice)) {
      throw new ConflictError(
        'CONFLICT',
        invoice.creditNoteFor
          ? `${invoiceId} is a credit note: only an issued invoice is corrected by a credit note.`
          : `Invoice ${invoiceId} is ${invoice.status}: only an issued invoice is corrected by a credit note.`,
      );
    }
    const lines = new Map(
      (await deps.invoices.lines(agentGroupId, invoiceId)).map((l) => [l.id, { ...l, creditedTotal: l.creditedTotal ?? 0, creditedGst: l.creditedGst ?? 0 }]),
    );
    const planned = lineCredits.map((c) => {
      const line = lines.get(c.lineId);
      if (!line) throw new ValidationError('lines', `Invoice ${invoice.invoiceNumber} has no line ${c.lineId}.`);
      if (line.lineTotal <= 0)
        throw new ValidationError('lines', `Line ${c.lineId} lowers the invoice (${formatInr(line.lineTotal)}): there is nothing on it to credit.`);
      if (c.amount !== undefined && c.amount <= 0) throw new ValidationError('lines', `The amount to credit on line ${c.lineId} must be more than 0.`);
      const left = remainingOf(line);
      const amount = c.amount ?? left;
      if (amount > left || left === 0) {
        throw new ConflictError(
          'CONFLICT',
          `Line ${c.lineId} of invoice ${invoice.invoiceNumber} has ${formatInr(left)} left to credit of ${formatInr(line.lineTotal)}: a credit of ${formatInr(amount)} would credit more than was invoiced.`,
        );
      }
      return { line, amount };
    });
    try {
      const write = creditNoteWrite(deps, invoice, planned, { reason: reason.trim(), runId: 'OPERATOR', postToLedger: true });
      // On the corrected invoice's chain: what it owes before and after, and the note (its number known once the series gives it).
      const audit = (issued: Invoice) =>
        invoiceAudit(
          deps,
          origin,
          'credit-note.raised',
          invoice,
          { ...owedFigures(invoice), ...creditNoteFigures('raised', null) },
          { ...owedFigures(write.invoice), ...creditNoteFigures('raised', issued) },
        );
      return await deps.creditNotes.raise({ ...write, audit });
    } catch (err) {
      if (!(err instanceof StaleCreditPlan) || attempt + 1 >= MAX_ATTEMPTS) throw err;
    }
  }
}

/** What a billing run credits for one booking invoiced for more than it owes now (billing-engine.ts). */
export interface BookingCreditPlan {
  readonly bookingRef: string;
  /** The booking's billing marker as read: its credit commits only while it still says this. */
  readonly billed: Minor;
  readonly credits: readonly PlannedLineCredit[];
  readonly reason: string;
}

/**
 * A billing run's credit notes for one booking: one per invoice its credited lines are on
 * (several when there are more lines than a note holds), each committing only while the
 * booking's marker still says what the previous one left. So racing runs raise it once: the
 * loser's commit is refused (StaleCreditPlan) and it leaves the booking to the next run, which
 * finds the booking reconciled. When only the invoice moved (a payment allocated meanwhile) and
 * the booking's marker and lines are as planned, it retries on the invoice as it is now. No
 * ledger entry: the REFUND that made it is there already.
 */
export async function raiseBookingCredit(deps: CreditNoteDeps, agentGroupId: string, runId: string, plan: BookingCreditPlan): Promise<Invoice[]> {
  const byInvoice = new Map<string, PlannedLineCredit[]>();
  for (const c of plan.credits) byInvoice.set(c.line.invoiceId, [...(byInvoice.get(c.line.invoiceId) ?? []), c]);
  const raised: Invoice[] = [];
  let marker = plan.billed;
  for (const [invoiceId, credits] of byInvoice) {
    for (let i = 0; i < credits.length; i += MAX_CREDIT_NOTE_LINES) {
      const part = credits.slice(i, i + MAX_CREDIT_NOTE_LINES);
      for (let attempt = 0; ; attempt++) {
        const invoice = await deps.invoices.get(agentGroupId, invoiceId);
        if (!invoice || !isCorrectable(invoice)) return raised;
        try {
          raised.push(
            await deps.creditNotes.raise(
              creditNoteWrite(deps, invoice, part, { reason: plan.reason, runId, postToLedger: false, markerAt: new Map([[plan.bookingRef, marker]]) }),
            ),
          );
          break;
        } catch (err) {
          // StaleCreditPlan: the commit was refused. ConflictError: the invoice as read now has
          // no room left for the credit, which is what a racing run that credited this booking
          // first leaves when the booking was all the invoice held. Either way the plan may be stale.
          if (!(err instanceof StaleCreditPlan) && !(err instanceof ConflictError)) throw err;
          if (!(await stillAsPlanned(deps, agentGroupId, plan.bookingRef, marker, part))) return raised;
          // As planned and still no room: not a race, an inconsistency to report.
          if (err instanceof ConflictError) throw err;
          if (attempt + 1 >= MAX_ATTEMPTS) return raised;
        }
      }
      marker -= part.reduce((s, c) => s + c.amount, 0);
    }
  }
  return raised;
}

/** True while the booking's marker and the lines to credit are as the plan read them (only the invoice moved). */
async function stillAsPlanned(
  deps: CreditNoteDeps,
  agentGroupId: string,
  bookingRef: string,
  marker: Minor,
  part: readonly PlannedLineCredit[],
): Promise<boolean> {
  const [totals, lines] = await Promise.all([
    deps.bookingMarks.billedTotals(agentGroupId, [bookingRef]),
    deps.creditNotes.creditableLines(agentGroupId, bookingRef),
  ]);
  const credited = new Map(lines.map((l) => [l.id, l.creditedTotal]));
  return totals.get(bookingRef) === marker && part.every((c) => credited.get(c.line.id) === c.line.creditedTotal);
}

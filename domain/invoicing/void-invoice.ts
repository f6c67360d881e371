import type { AuditOrigin } from '../audit/audit-event.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import { postedEntry } from '../ledger/ledger.ts';
import { formatInr, type Minor } from '../money.ts';
import type { Clock } from '../ports/clock.ts';
import { StaleCreditPlan, type CreditNoteStore, type LineCreditWrite } from '../ports/credit-note-store.ts';
import { CANCEL_REASONS, EInvoiceRejectedError, type CancelReason, type EInvoiceRegistry } from '../ports/e-invoice-registry.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { EInvoiceVoid, InvoiceStore } from '../ports/invoice-store.ts';
import { creditNoteFigures, invoiceAudit, owedFigures } from './invoice-audit.ts';
import type { Invoice } from './invoice.ts';
import type { EInvoiceRegistration } from './invoice-document.ts';

export interface VoidDeps {
  readonly invoices: InvoiceStore;
  readonly creditNotes: CreditNoteStore;
  readonly eInvoices: EInvoiceRegistry;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** Attempts of a credit note's void when payments or other credit notes move its invoice's figures meanwhile. */
const MAX_VOID_ATTEMPTS = 10;

/** The IRP cancels an IRN only within 24 hours of its acknowledgement. */
export const IRP_CANCEL_WINDOW_MS = 24 * 3600_000;

/** The IRP's "yyyy-mm-dd hh:mm:ss" (India time) → epoch ms. */
const irpMs = (t: string): number => Date.parse(`${t.replace(' ', 'T')}+05:30`);
const irpText = (ms: number): string => new Date(ms + 330 * 60_000).toISOString().slice(0, 19).replace('T', ' ');

/** When the IRP stops cancelling a registration's IRN: 24 hours after its acknowledgement. */
export const voidWindowClosesAt = (e: Pick<EInvoiceRegistration, 'ackDate'>): Date => new Date(irpMs(e.ackDate) + IRP_CANCEL_WINDOW_MS);

/** The reason code an operator gives (`--reason`), one of the IRP's. */
export function cancelReasonOf(text: string): CancelReason {
  const code = text.trim();
  if (!(code in CANCEL_REASONS)) {
    throw new ValidationError(
      'reason',
      `reason must be the IRP's code: ${Object.entries(CANCEL_REASONS)
        .map(([c, w]) => `${c} (${w})`)
        .join(', ')}; got ${JSON.stringify(text)}.`,
    );
  }
  return code as CancelReason;
}

/**
 * An operator voids a registered invoice or credit note inside the IRP's 24-hour window: the
 * IRN is cancelled at the IRP, then the document becomes CANCELLED keeping its number (the
 * series has no gap; GSTR-1 reports it among the cancelled documents), off the group's lists
 * and figures. An invoice's lines and bookings are released for the next run; a credit note's
 * credit is undone (invoice, lines, bookings' markers, an operator's ledger ADJUSTMENTs; a
 * cancellation's refund is not put back on the open work, so a new credit is the operator's).
 * Outside the window,
 * unregistered, paid or credited: refused before anything changes, naming the credit note
 * (for an invoice) as the way.
 */
export async function voidInvoice(
  deps: VoidDeps,
  agentGroupId: string,
  invoiceId: string,
  reason: CancelReason,
  remark: string,
  origin: AuditOrigin,
): Promise<Invoice> {
  const invoice = await deps.invoices.get(agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  const label = invoice.invoiceNumber ?? invoice.id;
  const e = invoice.eInvoice;
  if (invoice.status === 'CANCELLED' && e?.cancelledAt && !invoice.creditNoteFor) {
    // An earlier void stopped after the IRP cancelled: finish releasing (its event was written with its status).
    await deps.invoices.voidIssued(
      invoice,
      { cancelDate: e.cancelledAt, reason: e.cancelReason ?? reason, remark: e.cancelRemark ?? remark },
      deps.clock.now().toISOString(),
    );
    return (await deps.invoices.get(agentGroupId, invoiceId))!;
  }
  const way = invoice.creditNoteFor
    ? `Raise a fresh invoice for what it credited wrongly; nothing was changed.`
    : `A credit note is the only way to correct it (\`invoices credit-note ${invoice.id} --group ${agentGroupId}\`); nothing was changed.`;
  if (invoice.status === 'DRAFT')
    throw new ConflictError('CONFLICT', `${label} is a DRAFT: nothing was issued (\`invoices abandon\` for an unnumbered draft). Nothing was changed.`);
  if (!e) throw new ConflictError('CONFLICT', `${label} was not registered with the IRP, so there is no IRN to cancel. ${way}`);
  if (invoice.creditNoteFor) await assertCreditUndoable(deps, invoice, way);
  else if (invoice.status !== 'ISSUED' || (invoice.amountPaid ?? 0) > 0 || (invoice.creditedAmount ?? 0) > 0) {
    throw new ConflictError(
      'CONFLICT',
      `${label} is ${invoice.status}${(invoice.amountPaid ?? 0) > 0 ? ' with payments on it' : ''}${(invoice.creditedAmount ?? 0) > 0 ? ' with credit notes against it' : ''}. ${way}`,
    );
  }
  const closes = voidWindowClosesAt(e).getTime();
  if (deps.clock.now().getTime() > closes) {
    throw new ConflictError('CONFLICT', `The IRP's 24-hour window to cancel IRN ${e.irn} of ${label} closed at ${irpText(closes)} (India time). ${way}`);
  }
  let cancelDate: string;
  try {
    cancelDate = (await deps.eInvoices.cancel({ supplierGstin: invoice.supplierGstin, irn: e.irn, reason, remark })).cancelDate;
  } catch (err) {
    // 9999 "Invoice is not active": cancelled by an earlier void whose answer or storing was lost.
    if (err instanceof EInvoiceRejectedError && err.code === '9999') cancelDate = irpText(deps.clock.now().getTime());
    else if (err instanceof EInvoiceRejectedError)
      throw new ConflictError('CONFLICT', `The IRP refused to cancel IRN ${e.irn} (${err.code}): ${err.irpMessage}. ${way}`);
    else throw err;
  }
  const cancellation = { cancelDate, reason, remark };
  if (invoice.creditNoteFor) {
    await undoCredit(deps, invoice, cancellation, origin);
  } else if (!(await deps.invoices.voidIssued(invoice, cancellation, deps.clock.now().toISOString(), voidAudit(deps, origin, invoice, cancellation)))) {
    throw new ConflictError(
      'CONFLICT',
      `The IRP cancelled IRN ${e.irn}, but ${label} was paid or credited meanwhile and stays ${invoice.status}: raise a fresh invoice for the same supply, or have the payment refunded.`,
    );
  }
  return (await deps.invoices.get(agentGroupId, invoiceId))!;
}

/** A credit note's void is refused when undoing it cannot be exact: it gave back payments as credit (maybe spent), or its invoice is settled or gone. */
async function assertCreditUndoable(deps: VoidDeps, note: Invoice, way: string): Promise<void> {
  const label = note.invoiceNumber ?? note.id;
  if (note.status !== 'ISSUED') throw new ConflictError('CONFLICT', `${label} is ${note.status}. ${way}`);
  // A billing run's note carries a cancellation's or an amendment's refund, which the ledger owes the
  // group: voided, that refund would stand on no document, and the next run would not raise it again.
  if (note.runId !== 'OPERATOR') {
    throw new ConflictError(
      'CONFLICT',
      `${label} was raised by a billing run for the refund of a cancellation or an amendment, which the group is owed: voiding it would leave that refund on no document. Nothing was changed.`,
    );
  }
  if (note.creditReleased !== 0) {
    const why =
      note.creditReleased === undefined
        ? "does not record whether it gave back payments as the group's credit"
        : `gave back ${formatInr(note.creditReleased)} of payments as the group's credit, which may be spent`;
    throw new ConflictError('CONFLICT', `${label} ${why}, so voiding it cannot undo it exactly. ${way}`);
  }
  const corrected = await deps.invoices.get(note.agentGroupId, note.creditNoteFor!);
  if (corrected?.status !== 'ISSUED') {
    throw new ConflictError(
      'CONFLICT',
      `${label} corrects invoice ${note.creditNoteForNumber}, which is ${corrected?.status ?? 'gone'}: undoing the credit would make it owe again under a status that says it does not. ${way}`,
    );
  }
}

/**
 * The credit note's figures taken back off its invoice, lines and bookings in one write,
 * planned on the figures as read now (re-planned when a payment or credit moves them
 * meanwhile). The IRP has cancelled the IRN already, so this must not give up on a race.
 */
async function undoCredit(deps: VoidDeps, note: Invoice, cancellation: EInvoiceVoid, origin: AuditOrigin): Promise<void> {
  const g = note.agentGroupId;
  const noteLines = await deps.invoices.lines(g, note.id);
  const perBooking = new Map<string, { total: Minor; bookingId: string }>();
  for (const l of noteLines) perBooking.set(l.bookingRef, { total: (perBooking.get(l.bookingRef)?.total ?? 0) + l.lineTotal, bookingId: l.bookingId });
  for (let attempt = 0; ; attempt++) {
    const invoice = (await deps.invoices.get(g, note.creditNoteFor!))!;
    const credits: LineCreditWrite[] = [];
    for (const [bookingRef] of perBooking) {
      const lines = new Map((await deps.creditNotes.creditableLines(g, bookingRef)).map((l) => [l.id, l]));
      for (const l of noteLines.filter((x) => x.bookingRef === bookingRef)) {
        const credited = lines.get(l.creditNoteForLine!)!;
        credits.push({ line: credited, expectCredited: credited.creditedTotal, amount: -l.lineTotal, gst: -(l.lineTotal - l.taxableValue) });
      }
    }
    const creditedByBooking: Record<string, Minor> = { ...invoice.creditedByBooking };
    for (const [ref, b] of perBooking) creditedByBooking[ref] = (creditedByBooking[ref] ?? 0) - b.total;
    const now = deps.clock.now();
    const undoes = `Void of credit note ${note.invoiceNumber} (cancelled at the IRP) against invoice ${invoice.invoiceNumber}`;
    const creditedAmount = (invoice.creditedAmount ?? 0) - note.total;
    const audit = invoiceAudit(
      deps,
      origin,
      'credit-note.voided',
      invoice,
      { ...owedFigures(invoice), ...creditNoteFigures('voided', null), irpCancelDate: null, irpCancelReason: null },
      {
        ...owedFigures({ ...invoice, creditedAmount }),
        ...creditNoteFigures('voided', note),
        irpCancelDate: cancellation.cancelDate,
        irpCancelReason: cancellation.reason,
      },
    );
    try {
      await deps.creditNotes.voidNote({
        note,
        audit,
        cancellation,
        at: now.toISOString(),
        credits,
        invoice: {
          id: invoice.id,
          expectPaid: invoice.amountPaid ?? 0,
          expectCredited: invoice.creditedAmount ?? 0,
          amountPaid: invoice.amountPaid ?? 0,
          creditedAmount,
          creditedByBooking,
        },
        markers: [...perBooking].map(([bookingRef, b]) => ({ bookingRef, delta: b.total })),
        // An operator's note posted one negative ADJUSTMENT per booking; its void posts the opposite.
        ledgerEntries:
          note.runId === 'OPERATOR'
            ? [...perBooking.values()].map((b) =>
                postedEntry(
                  { agentGroupId: g, type: 'ADJUSTMENT', amount: b.total, bookingId: b.bookingId, externalBookingId: null, description: undoes },
                  deps.ids.uuid(),
                  now,
                ),
              )
            : [],
      });
      return;
    } catch (err) {
      if (!(err instanceof StaleCreditPlan) || attempt + 1 >= MAX_VOID_ATTEMPTS) throw err;
      const current = await deps.invoices.get(g, note.id);
      if (current?.status === 'CANCELLED') return;
    }
  }
}

/** An invoice's void, on its own chain: the status and the IRP's cancellation (its reason code; the remark stays on the document). */
function voidAudit(deps: VoidDeps, origin: AuditOrigin, invoice: Invoice, cancellation: EInvoiceVoid) {
  return invoiceAudit(
    deps,
    origin,
    'invoice.voided',
    invoice,
    { status: invoice.status, irn: invoice.eInvoice?.irn ?? null, irpCancelDate: null, irpCancelReason: null },
    { status: 'CANCELLED', irn: invoice.eInvoice?.irn ?? null, irpCancelDate: cancellation.cancelDate, irpCancelReason: cancellation.reason },
  );
}

import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import { CANCEL_REASONS, EInvoiceRejectedError, type CancelReason, type EInvoiceRegistry } from '../ports/e-invoice-registry.ts';
import type { InvoiceStore } from '../ports/invoice-store.ts';
import type { Invoice } from './invoice.ts';

export interface VoidDeps {
  readonly invoices: InvoiceStore;
  readonly eInvoices: EInvoiceRegistry;
  readonly clock: Clock;
}

/** The IRP cancels an IRN only within 24 hours of its acknowledgement. */
export const IRP_CANCEL_WINDOW_MS = 24 * 3600_000;

/** The IRP's "yyyy-mm-dd hh:mm:ss" (India time) → epoch ms. */
const irpMs = (t: string): number => Date.parse(`${t.replace(' ', 'T')}+05:30`);
const irpText = (ms: number): string => new Date(ms + 330 * 60_000).toISOString().slice(0, 19).replace('T', ' ');

/** The reason code an operator gives (`--reason`), one of the IRP's. */
export function cancelReasonOf(text: string): CancelReason {
  const code = text.trim();
  if (!(code in CANCEL_REASONS)) {
    throw new ValidationError('reason', `reason must be the IRP's code: ${Object.entries(CANCEL_REASONS).map(([c, w]) => `${c} (${w})`).join(', ')}; got ${JSON.stringify(text)}.`);
  }
  return code as CancelReason;
}

/**
 * An operator voids a registered invoice inside the IRP's 24-hour window: the IRN is
 * cancelled at the IRP, then the invoice becomes CANCELLED keeping its number (the series
 * has no gap; GSTR-1 reports it among the cancelled documents), off the group's lists and
 * figures, its lines and bookings released for the next run. Outside the window, unregistered,
 * paid or credited: refused before anything changes, naming the credit note as the way.
 */
export async function voidInvoice(deps: VoidDeps, agentGroupId: string, invoiceId: string, reason: CancelReason, remark: string): Promise<Invoice> {
  const invoice = await deps.invoices.get(agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  const label = invoice.invoiceNumber ?? invoice.id;
  const creditNote = `A credit note is the only way to correct it (\`invoices credit-note ${invoice.id} --group ${agentGroupId}\`); nothing was changed.`;
  const e = invoice.eInvoice;
  if (invoice.status === 'CANCELLED' && e?.cancelledAt) {
    // An earlier void stopped after the IRP cancelled: finish releasing.
    await deps.invoices.voidIssued(invoice, { cancelDate: e.cancelledAt, reason: e.cancelReason ?? reason, remark: e.cancelRemark ?? remark }, deps.clock.now().toISOString());
    return (await deps.invoices.get(agentGroupId, invoiceId))!;
  }
  if (invoice.creditNoteFor) throw new ConflictError('CONFLICT', `${label} is a credit note: voiding one would reopen the invoice it corrected, which this tool does not do; raise a fresh invoice if the credit was wrong. Nothing was changed.`);
  if (invoice.status === 'DRAFT') throw new ConflictError('CONFLICT', `${label} is a DRAFT: nothing was issued (\`invoices abandon\` for an unnumbered draft). Nothing was changed.`);
  if (!e) throw new ConflictError('CONFLICT', `${label} was not registered with the IRP, so there is no IRN to cancel. ${creditNote}`);
  if (invoice.status !== 'ISSUED' || (invoice.amountPaid ?? 0) > 0 || (invoice.creditedAmount ?? 0) > 0) {
    throw new ConflictError('CONFLICT', `${label} is ${invoice.status}${(invoice.amountPaid ?? 0) > 0 ? ' with payments on it' : ''}${(invoice.creditedAmount ?? 0) > 0 ? ' with credit notes against it' : ''}. ${creditNote}`);
  }
  const closes = irpMs(e.ackDate) + IRP_CANCEL_WINDOW_MS;
  if (deps.clock.now().getTime() > closes) {
    throw new ConflictError('CONFLICT', `The IRP's 24-hour window to cancel IRN ${e.irn} of ${label} closed at ${irpText(closes)} (India time). ${creditNote}`);
  }
  let cancelDate: string;
  try {
    cancelDate = (await deps.eInvoices.cancel({ supplierGstin: invoice.supplierGstin, irn: e.irn, reason, remark })).cancelDate;
  } catch (err) {
    // 9999 "Invoice is not active": cancelled by an earlier void whose answer or storing was lost.
    if (err instanceof EInvoiceRejectedError && err.code === '9999') cancelDate = irpText(deps.clock.now().getTime());
    else if (err instanceof EInvoiceRejectedError) throw new ConflictError('CONFLICT', `The IRP refused to cancel IRN ${e.irn} (${err.code}): ${err.irpMessage}. ${creditNote}`);
    else throw err;
  }
  if (!(await deps.invoices.voidIssued(invoice, { cancelDate, reason, remark }, deps.clock.now().toISOString()))) {
    throw new ConflictError('CONFLICT', `The IRP cancelled IRN ${e.irn}, but ${label} was paid or credited meanwhile and stays ${invoice.status}: raise a fresh invoice for the same supply, or have the payment refunded.`);
  }
  return (await deps.invoices.get(agentGroupId, invoiceId))!;
}

import { ValidationError, NotFoundError } from '../errors.ts';
import { toRupees, type Minor } from '../money.ts';
import type { CursorCodec, CursorScope } from '../ports/cursor-codec.ts';
import type { InvoiceStore } from '../ports/invoice-store.ts';
import type { OwingFigures } from '../ports/owing-figures.ts';
import type { Clock } from '../ports/clock.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import { addDays } from '../catalogue/calendar.ts';
import { indiaToday, requireCalendarDate } from '../reads/date-window.ts';
import {
  amountDueOf,
  LISTED_INVOICE_STATUSES,
  payableLinkOf,
  payableOrderOf,
  type BillingRunResult,
  type Invoice,
  type InvoiceLine,
  type ListedInvoiceStatus,
} from './invoice.ts';

export interface InvoiceReadDeps {
  readonly invoices: Pick<InvoiceStore, 'get' | 'lines' | 'list'>;
  readonly owing: Pick<OwingFigures, 'openFigures'>;
  readonly cursors: CursorCodec;
  readonly clock: Clock;
}

export const INVOICE_PAGE = { defaultSize: 20, maxSize: 100 } as const;

const rupees = toRupees;

/** The contract's Invoice record: what was paid and credited against it, and what is still due. */
export function invoiceView(i: Invoice, today: string, now: Date) {
  const amountPaid: Minor = i.amountPaid ?? 0;
  const creditedAmount: Minor = i.creditedAmount ?? 0;
  const amountDue = amountDueOf(i);
  // A DRAFT may hold a number reserved for e-invoicing; it is not the partner's invoice until issued.
  const issued = i.status !== 'DRAFT' && i.status !== 'CANCELLED';
  const gatewayOrderId = payableOrderOf(i);
  const payLink = payableLinkOf(i, now);
  return {
    id: i.id,
    invoiceNumber: issued ? i.invoiceNumber : null,
    status: i.status,
    issueDate: issued ? i.issueDate : null,
    dueDate: issued ? i.dueDate : null,
    periodFrom: i.periodFrom,
    periodTo: i.periodTo,
    subtotal: rupees(i.subtotal),
    cgst: rupees(i.cgst),
    sgst: rupees(i.sgst),
    igst: rupees(i.igst),
    discount: rupees(i.discount),
    total: rupees(i.total),
    amountPaid: rupees(amountPaid),
    creditedAmount: rupees(creditedAmount),
    amountDue: rupees(amountDue),
    overdueSince: issued && i.dueDate && amountDue > 0 && today > i.dueDate ? addDays(i.dueDate, 1) : null,
    supplierGstin: i.supplierGstin,
    supplierName: i.supplierName,
    supplierAddress: i.supplierAddress,
    billToGstin: i.billToGstin,
    billToName: i.billToName,
    billToAddress: i.billToAddress,
    placeOfSupply: `${i.placeOfSupply} (${i.placeOfSupplyStateCode})`,
    gatewayOrderId,
    paymentInstructions:
      gatewayOrderId || i.payTo
        ? {
            gatewayOrderId,
            bankTransfer: i.payTo
              ? {
                  accountNumber: i.payTo.accountNumber,
                  ifsc: i.payTo.ifsc,
                  bankName: i.payTo.bankName,
                  beneficiaryName: i.payTo.beneficiaryName,
                  reference: i.invoiceNumber,
                }
              : null,
          }
        : null,
    payLink: payLink ? { url: payLink.url, amount: rupees(payLink.amount), expiresAt: payLink.expiresAt } : null,
    creditNoteFor: i.creditNoteFor ?? null,
  };
}

export function invoiceLineView(l: InvoiceLine) {
  return {
    id: l.id,
    lineKind: l.lineKind,
    sac: l.sac,
    description: l.description,
    propertyName: l.propertyName,
    bookingId: l.bookingId,
    externalBookingId: l.externalBookingId ?? null,
    itemRef: l.itemRef,
    nightDate: l.nightDate,
    checkIn: l.checkIn,
    checkOut: l.checkOut,
    quantity: l.quantity,
    unitBase: rupees(l.unitBase),
    taxableValue: rupees(l.taxableValue),
    gstRate: l.gstRate,
    cgst: rupees(l.cgst),
    sgst: rupees(l.sgst),
    igst: rupees(l.igst),
    lineTotal: rupees(l.lineTotal),
    creditNoteForLine: l.creditNoteForLine ?? null,
  };
}

/** The contract's Billing run result, rupees at the edge. */
export function billingRunView(r: BillingRunResult) {
  return {
    periodFrom: r.periodFrom,
    periodTo: r.periodTo,
    cutoff: r.cutoff,
    invoiceIds: r.invoiceIds,
    linesWritten: r.linesWritten,
    blockedStates: r.blockedStates.map((b) => ({ state: b.state, lineCount: b.lineCount, taxableValue: rupees(b.taxableValue) })),
    skippedEntries: r.skippedEntries,
    unreconciledEntries: r.unreconciledEntries.map((u) => ({ ...u, chargedAmount: rupees(u.chargedAmount), billedAmount: rupees(u.billedAmount) })),
  };
}

export interface InvoiceListQuery {
  readonly status?: readonly string[];
  readonly from?: string;
  readonly to?: string;
  readonly cursor?: string;
  readonly size?: number;
}

const listScope = (g: string, statuses: readonly string[], from: string | undefined, to: string | undefined): CursorScope => ({
  callerId: g,
  query: ['v1/invoices', [...statuses].sort().join(','), from ?? '-', to ?? '-'].join('|'),
});

/**
 * GET /v1/invoices: the group's issued (and paid) invoices, newest issue date first, with
 * what is outstanding across all of them. DRAFT and CANCELLED are never listed, so asking
 * for them is refused, like an unknown status.
 */
export async function listInvoices(deps: InvoiceReadDeps, principal: AgentGroupPrincipal, q: InvoiceListQuery) {
  const statuses = q.status ?? LISTED_INVOICE_STATUSES;
  for (const s of statuses) {
    if (!(LISTED_INVOICE_STATUSES as readonly string[]).includes(s)) {
      throw new ValidationError(
        'status',
        `status must be one or more of ${LISTED_INVOICE_STATUSES.join(', ')}; got ${JSON.stringify(s)} (DRAFT and CANCELLED invoices are never listed).`,
      );
    }
  }
  for (const [name, value] of [
    ['from', q.from],
    ['to', q.to],
  ] as const)
    if (value !== undefined) requireCalendarDate(name, value);
  if (q.from !== undefined && q.to !== undefined && q.from > q.to) throw new ValidationError('from', `from (${q.from}) must not be after to (${q.to}).`);
  const size = q.size ?? INVOICE_PAGE.defaultSize;
  if (!Number.isInteger(size) || size < 1 || size > INVOICE_PAGE.maxSize) throw new ValidationError('size', `size must be from 1 to ${INVOICE_PAGE.maxSize}.`);
  const g = principal.agentGroupId;
  const scope = listScope(g, statuses, q.from, q.to);
  const after = q.cursor === undefined ? undefined : deps.cursors.decode(scope, q.cursor);
  const [page, open] = await Promise.all([
    deps.invoices.list(g, { statuses: statuses as readonly ListedInvoiceStatus[], from: q.from, to: q.to, after, limit: size }),
    deps.owing.openFigures(g),
  ]);
  const today = indiaToday(deps.clock.now());
  return {
    data: page.invoices.map((i) => invoiceView(i, today, deps.clock.now())),
    nextCursor: page.next ? deps.cursors.encode(scope, page.next) : null,
    outstanding: rupees(open.outstanding),
    oldestDueDate: open.oldestDueDate,
    outstandingInvoiceCount: open.openCount,
  };
}

/**
 * GET /v1/invoices/{id}: one invoice with its lines. A DRAFT is shown (a run returned its
 * id) without number, dates or PDF; another group's invoice and an unknown id answer the
 * same 404.
 */
export async function getInvoice(deps: InvoiceReadDeps, principal: AgentGroupPrincipal, invoiceId: string) {
  const invoice = await deps.invoices.get(principal.agentGroupId, invoiceId);
  if (!invoice) throw new NotFoundError('Invoice');
  const [lines, notes] = await Promise.all([
    deps.invoices.lines(principal.agentGroupId, invoiceId),
    Promise.all((invoice.creditNoteIds ?? []).map((id) => deps.invoices.get(principal.agentGroupId, id))),
  ]);
  return {
    invoice: invoiceView(invoice, indiaToday(deps.clock.now()), deps.clock.now()),
    lines: lines.map(invoiceLineView),
    creditNotes: notes.flatMap((n) => (n ? [{ id: n.id, invoiceNumber: n.invoiceNumber, issueDate: n.issueDate, total: rupees(n.total) }] : [])),
    creditNoteForNumber: invoice.creditNoteForNumber ?? null,
  };
}

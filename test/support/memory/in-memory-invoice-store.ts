import type { AuditDraft } from '../../../domain/audit/audit-event.ts';
import { NO_TOTALS, type Invoice, type InvoiceLine } from '../../../domain/invoicing/invoice.ts';
import type { Minor } from '../../../domain/money.ts';
import type { BookingMarks } from '../../../domain/ports/booking-marks.ts';
import type { AddLinesOptions, InvoiceStore, LinesWritten } from '../../../domain/ports/invoice-store.ts';
import { addTotals, lineOrder, totalsOf } from '../../../domain/invoicing/invoice-totals.ts';

/**
 * What the in-memory invoice store keeps: a DRAFT's life from creation to its lines (or its
 * abandonment). Numbering and issue, payments and figures, e-invoicing and PDFs are not here
 * yet: a rule test that needs them runs on DynamoDB Local.
 */
export type DraftInvoiceStore = Pick<
  InvoiceStore,
  'createDraft' | 'addLines' | 'deleteEmptyDraft' | 'get' | 'lines' | 'openInvoices' | 'groupsWithOpenInvoices' | 'abandon'
>;

/** What each booking has been billed: moved by the lines a DRAFT takes and gives back, so kept by the same store. */
export type BilledMarks = Pick<BookingMarks, 'billedTotals' | 'billedLines'>;

const groupKey = (agentGroupId: string, id: string): string => `${agentGroupId}#${id}`;

/**
 * Draft invoices in memory, for rule tests in the unit tier (the methods of DraftInvoiceStore), and
 * the booking marks their lines move (BilledMarks).
 * It keeps the part of the InvoiceStore port's contract they make
 * (test/support/contracts/invoice-store-contract.ts runs against it and DynamoInvoiceStore):
 * a line is billed once per booking, kind and item across every invoice, a booking whose line is
 * taken is left out whole, the figures are the sum of the lines, and only a DRAFT takes lines or
 * is abandoned (giving its lines back). The audit drafts are kept for the test to read.
 */
export class InMemoryInvoiceStore implements DraftInvoiceStore, BilledMarks {
  private readonly invoices = new Map<string, Invoice>();
  /** Lines by their identity (group, booking, line key): one across every invoice. */
  private readonly billed = new Map<string, InvoiceLine>();
  /** Σ lineTotal billed per booking (group#bookingRef): kept at 0 once lines are given back, as DynamoDB's marker is. */
  private readonly markers = new Map<string, Minor>();
  readonly audit: AuditDraft[] = [];

  async billedTotals(agentGroupId: string, bookingRefs: readonly string[]): Promise<Map<string, Minor>> {
    return new Map(
      bookingRefs.flatMap((ref) => (this.markers.has(groupKey(agentGroupId, ref)) ? [[ref, this.markers.get(groupKey(agentGroupId, ref))!] as const] : [])),
    );
  }

  async billedLines(agentGroupId: string, bookingRef: string): Promise<Map<string, Minor>> {
    return new Map([...this.billed.values()].filter((l) => l.agentGroupId === agentGroupId && l.bookingRef === bookingRef).map((l) => [l.key, l.lineTotal]));
  }

  async createDraft(invoice: Invoice): Promise<void> {
    const k = groupKey(invoice.agentGroupId, invoice.id);
    if (this.invoices.has(k)) throw new Error(`invoice ${invoice.id} exists`);
    this.invoices.set(k, { ...invoice, bookingRefs: [] });
  }

  async addLines(invoice: Invoice, lines: readonly InvoiceLine[], at: string, opts: AddLinesOptions = {}): Promise<LinesWritten> {
    const byBooking = new Map<string, InvoiceLine[]>();
    for (const l of lines) byBooking.set(l.bookingRef, [...(byBooking.get(l.bookingRef) ?? []), l]);
    if (opts.stop?.()) return { written: 0, totals: NO_TOTALS, refusedBookings: [], unwrittenBookings: byBooking.size };
    const k = groupKey(invoice.agentGroupId, invoice.id);
    const stored = this.invoices.get(k);
    if (stored?.status !== 'DRAFT') throw new Error(`invoice ${invoice.id} is no longer a DRAFT; its lines were not written`);
    const refused = [...byBooking].filter(([, part]) => part.some((l) => this.billed.has(this.lineId(l)))).map(([ref]) => ref);
    const written = [...byBooking].filter(([ref]) => !refused.includes(ref)).flatMap(([, part]) => part);
    for (const l of written) this.bill(l, 1);
    const totals = totalsOf(written);
    this.invoices.set(k, {
      ...stored,
      ...addTotals(stored, totals),
      bookingRefs: [...new Set([...stored.bookingRefs, ...written.map((l) => l.bookingRef)])].sort(),
      updatedAt: written.length ? at : stored.updatedAt,
    });
    return { written: written.length, totals, refusedBookings: refused, unwrittenBookings: 0 };
  }

  async deleteEmptyDraft(agentGroupId: string, invoiceId: string): Promise<void> {
    const k = groupKey(agentGroupId, invoiceId);
    const stored = this.invoices.get(k);
    if (stored?.status === 'DRAFT' && stored.lineCount === 0) this.invoices.delete(k);
  }

  async get(agentGroupId: string, invoiceId: string): Promise<Invoice | undefined> {
    return this.invoices.get(groupKey(agentGroupId, invoiceId));
  }

  async lines(agentGroupId: string, invoiceId: string): Promise<InvoiceLine[]> {
    return [...this.billed.values()].filter((l) => l.agentGroupId === agentGroupId && l.invoiceId === invoiceId).sort(lineOrder);
  }

  /** The DRAFTs: an issued invoice's remaining steps are not kept here. */
  async openInvoices(agentGroupId: string): Promise<Invoice[]> {
    return [...this.invoices.values()]
      .filter((i) => i.agentGroupId === agentGroupId && i.status === 'DRAFT')
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async groupsWithOpenInvoices(): Promise<string[]> {
    return [...new Set([...this.invoices.values()].filter((i) => i.status === 'DRAFT').map((i) => i.agentGroupId))];
  }

  async abandon(agentGroupId: string, invoiceId: string, at: string, audit?: AuditDraft): Promise<boolean> {
    const k = groupKey(agentGroupId, invoiceId);
    const stored = this.invoices.get(k);
    if (stored?.status !== 'DRAFT' || stored.invoiceNumber !== null) return stored?.status === 'CANCELLED';
    this.invoices.set(k, { ...stored, status: 'CANCELLED', updatedAt: at });
    if (audit) this.audit.push(audit);
    // Its lines go back, so the next run bills those charges again.
    for (const l of [...this.billed.values()]) if (l.agentGroupId === agentGroupId && l.invoiceId === invoiceId) this.bill(l, -1);
    return true;
  }

  /** Bills a line (1) or gives it back (-1), moving its booking's marker with it. */
  private bill(l: InvoiceLine, sign: 1 | -1): void {
    if (sign === 1) this.billed.set(this.lineId(l), l);
    else this.billed.delete(this.lineId(l));
    const marker = groupKey(l.agentGroupId, l.bookingRef);
    this.markers.set(marker, (this.markers.get(marker) ?? 0) + sign * l.lineTotal);
  }

  private lineId(l: InvoiceLine): string {
    return `${l.agentGroupId}#${l.bookingRef}#${l.key}`;
  }
}

import type { Minor } from '../money.ts';

/** An issued invoice still owing money, as allocation sees it. */
export interface OpenInvoice {
  readonly id: string;
  readonly dueDate: string;
  readonly issueDate: string;
  readonly invoiceNumber: string;
  /** total − amountPaid − creditedAmount; > 0. */
  readonly amountDue: Minor;
}

export interface Allocation {
  readonly invoiceId: string;
  readonly amount: Minor;
}

/**
 * Oldest due date first (docs/receivables.md "Allocation"); ties by issue date, then number, so the
 * order is total and two processes allocating the same money agree.
 */
export function allocationOrder(a: OpenInvoice, b: OpenInvoice): number {
  return (
    a.dueDate.localeCompare(b.dueDate) || a.issueDate.localeCompare(b.issueDate) || a.invoiceNumber.localeCompare(b.invoiceNumber) || a.id.localeCompare(b.id)
  );
}

/**
 * Spreads `credit` paise over the open invoices: `first` (the invoice whose gateway order
 * was paid) before the others, then oldest due date first, each up to what it still owes.
 * What is left over stays unallocated credit for the next invoices.
 */
export function allocate(credit: Minor, open: readonly OpenInvoice[], first?: string): { readonly allocations: Allocation[]; readonly unallocated: Minor } {
  if (!Number.isSafeInteger(credit) || credit < 0) throw new RangeError(`credit to allocate must be a non-negative amount of paise, got ${credit}`);
  const ordered = [...open].sort((a, b) => Number(b.id === first) - Number(a.id === first) || allocationOrder(a, b));
  const allocations: Allocation[] = [];
  let left = credit;
  for (const invoice of ordered) {
    if (left === 0) break;
    if (invoice.amountDue <= 0) continue;
    const amount = Math.min(left, invoice.amountDue);
    allocations.push({ invoiceId: invoice.id, amount });
    left -= amount;
  }
  return { allocations, unallocated: left };
}

/** Where each booking's lines sit in an invoice's total: [start, end) in paise, in line order. */
export type BookingSpans = Readonly<Record<string, readonly [Minor, Minor]>>;

/**
 * An invoice's payments reach its bookings in the invoice's own line order: the first
 * booking's lines are paid first, and so on. `lines` in that order; a booking's lines may
 * interleave with others', its span then runs from its first line to its last.
 */
export function bookingSpansOf(lines: readonly { readonly bookingRef: string; readonly lineTotal: Minor }[]): BookingSpans {
  const totals = new Map<string, Minor>();
  for (const l of lines) totals.set(l.bookingRef, (totals.get(l.bookingRef) ?? 0) + l.lineTotal);
  const spans: Record<string, [Minor, Minor]> = {};
  let at = 0;
  for (const [ref, total] of totals) {
    spans[ref] = [at, at + total];
    at += total;
  }
  return spans;
}

/**
 * The spans once credit notes took `credited` (bookingRef → paise) off some bookings: each
 * booking's span shrinks by its credit and the later ones move up, so payments reach what is
 * still billed of each booking, in line order.
 */
export function creditedSpans(spans: BookingSpans, credited: Readonly<Record<string, Minor>> | undefined): BookingSpans {
  if (!credited) return spans;
  const out: Record<string, [Minor, Minor]> = {};
  let at = 0;
  for (const [ref, [start, end]] of Object.entries(spans).sort(([, a], [, b]) => a[0] - b[0])) {
    const length = end - start - (credited[ref] ?? 0);
    out[ref] = [at, at + length];
    at += length;
  }
  return out;
}

/** What `amountPaid` on an invoice pays of one booking's span on it. */
export function paidOfSpan(amountPaid: Minor, span: readonly [Minor, Minor]): Minor {
  return Math.max(0, Math.min(amountPaid, span[1]) - span[0]);
}

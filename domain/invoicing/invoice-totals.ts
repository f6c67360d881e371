import type { Minor } from '../money.ts';
import { NO_TOTALS, type InvoiceLine, type InvoiceTotals } from './invoice.ts';

/** An invoice's figures, each the sum of its lines' (lineCount their number). */
export const TOTAL_FIELDS = ['subtotal', 'cgst', 'sgst', 'igst', 'discount', 'total', 'lineCount'] as const satisfies readonly (keyof InvoiceTotals)[];

/** Σ lineTotal: what a booking's lines bill (its billing marker moves by it). */
export const lineTotalOf = (lines: readonly Pick<InvoiceLine, 'lineTotal'>[]): Minor => lines.reduce((sum, l) => sum + l.lineTotal, 0);

/** The figures of a set of lines. */
export function totalsOf(lines: readonly InvoiceLine[]): InvoiceTotals {
  const s = (f: (l: InvoiceLine) => Minor) => lines.reduce((a, l) => a + f(l), 0);
  return {
    subtotal: s((l) => l.taxableValue),
    cgst: s((l) => l.cgst),
    sgst: s((l) => l.sgst),
    igst: s((l) => l.igst),
    discount: s((l) => l.discount),
    total: s((l) => l.lineTotal),
    lineCount: lines.length,
  };
}

/** Two sets of figures together (an invoice's lines written in parts). */
export const addTotals = (a: InvoiceTotals, b: InvoiceTotals): InvoiceTotals =>
  Object.fromEntries(TOTAL_FIELDS.map((f) => [f, a[f] + b[f]])) as unknown as InvoiceTotals;

/** The figures of every part (none: zero). */
export const sumTotals = (parts: readonly InvoiceTotals[]): InvoiceTotals => parts.reduce(addTotals, NO_TOTALS);

/** An invoice's lines in reading order: by stay, booking, night, then line key. */
export const lineOrder = (a: InvoiceLine, b: InvoiceLine): number =>
  a.checkIn.localeCompare(b.checkIn) ||
  a.bookingRef.localeCompare(b.bookingRef) ||
  (a.nightDate ?? '~').localeCompare(b.nightDate ?? '~') ||
  a.key.localeCompare(b.key);

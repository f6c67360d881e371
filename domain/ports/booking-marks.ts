import type { Invoice } from '../invoicing/invoice.ts';
import type { Minor } from '../money.ts';

/**
 * What each booking has been billed, and the mark an issued invoice leaves on its bookings: what
 * a billing run plans from (so a charge is billed once) and a credit note is bounded by.
 */
export interface BookingMarks {
  /** Σ lineTotal already invoiced per booking (absent = nothing). */
  billedTotals(agentGroupId: string, bookingRefs: readonly string[]): Promise<Map<string, Minor>>;
  /** line key → lineTotal of every line stored for one booking. */
  billedLines(agentGroupId: string, bookingRef: string): Promise<Map<string, Minor>>;
  /** Adds the invoice to `invoicedIn` of each booking (version bumped, conditional on the version read), then marks the invoice's step done. */
  markBookingsInvoiced(invoice: Invoice, at: string): Promise<void>;
}

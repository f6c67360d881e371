import type { Minor } from '../money.ts';
import type { Booking } from './booking.ts';

/** A booking's money as the booking row shows it, in paise. */
export interface BookingAmounts {
  readonly total: Minor;
  readonly paid: Minor;
  readonly outstanding: Minor;
}

/**
 * What a booking row says about money. `total` is the amount authorized on credit, and
 * once confirmed what the group has been charged (the charge plus amendments' adjustments).
 * Outstanding is what the group still owes for this booking: the total less what was paid
 * for a CONFIRMED booking; for a CANCELLED one the refund given back comes off too.
 * PROCESSING and FAILED bookings owe nothing: no charge has been posted for them (an
 * authorization is a hold on credit, not a debt), and a FAILED one's hold was released.
 * `paid` is what payments allocated to the booking's invoice lines came to (payments are
 * received against invoices; docs/receivables.md says how an invoice's payments reach its
 * bookings); 0 for a booking not invoiced or not paid.
 */
export function bookingAmounts(b: Pick<Booking, 'status' | 'amount' | 'chargedTotal' | 'cancellation'>, paid: Minor = 0): BookingAmounts {
  switch (b.status) {
    case 'CONFIRMED':
      return { total: b.chargedTotal, paid, outstanding: b.chargedTotal - paid };
    case 'CANCELLED':
      return { total: b.chargedTotal, paid, outstanding: b.chargedTotal - (b.cancellation?.refundAmount ?? 0) - paid };
    case 'PROCESSING':
    case 'FAILED':
      return { total: b.amount, paid, outstanding: 0 };
  }
}

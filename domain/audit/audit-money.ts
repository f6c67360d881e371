/**
 * The audit fields that hold money (paise, as every figure on the trail): what a reader for
 * people prints as rupees. One list, beside the events that write them, so a new money field
 * is named here once; test/unit/audit-money.test.ts fails on a number field of an event that
 * is in neither this list nor the list of counts and days.
 */
export const AUDIT_MONEY_FIELDS: ReadonlySet<string> = new Set([
  // group.created / group.updated
  'creditLimit',
  // booking.* (bookingFigures), booking.amendment-requested
  'chargedTotal',
  'refundAmount',
  'delta',
  // invoice.abandoned
  'total',
  // credit-note.raised / credit-note.voided (owedFigures, creditNoteFigures)
  'amountPaid',
  'creditedAmount',
  'raisedCreditNoteTotal',
  'voidedCreditNoteTotal',
  // payment.recorded, payment.refunded, mail.receipt-sent
  'amount',
  // mail.reminder-sent
  'amountDue',
]);

export const isAuditMoneyField = (name: string): boolean => AUDIT_MONEY_FIELDS.has(name);

import { formatInr, type Minor } from '../money.ts';
import { gstStateByCode } from './gst-state-codes.ts';
import type { Invoice, InvoiceLine } from './invoice.ts';
import type { DocumentParty, InvoiceDocumentLine, TaxInvoiceDocument } from './invoice-document.ts';

const stateOf = (code: string, fallback: string): string => gstStateByCode(code)?.name ?? fallback;

/**
 * The printable view of one issued invoice, from its stored figures only. A line that
 * lowers the price (an amendment's absorbed rate drift, negative) is printed as the
 * document's discount, since a tax invoice prints no negative row: the printed total is
 * still the invoice's total.
 */
export function invoiceDocumentOf(invoice: Invoice, lines: readonly InvoiceLine[]): TaxInvoiceDocument {
  // A DRAFT holding a reserved number is the document sent for e-invoice registration; only a number makes a document.
  if (invoice.status === 'CANCELLED' || !invoice.invoiceNumber || !invoice.issueDate || !invoice.dueDate) {
    throw new RangeError(`invoice ${invoice.id} has no number: there is nothing to print`);
  }
  const recipientGstin = invoice.billToGstin ?? '';
  const supplier: DocumentParty = {
    name: invoice.supplierName,
    address: invoice.supplierAddress,
    gstin: invoice.supplierGstin,
    state: stateOf(invoice.supplierStateCode, invoice.placeOfSupply),
    stateCode: invoice.supplierStateCode,
  };
  const recipient: DocumentParty = {
    name: invoice.billToName,
    address: invoice.billToAddress,
    gstin: recipientGstin,
    state: stateOf(recipientGstin.slice(0, 2), ''),
    stateCode: recipientGstin.slice(0, 2),
  };
  const printed = lines.filter((l) => l.lineTotal >= 0);
  const lowering: Minor = lines.filter((l) => l.lineTotal < 0).reduce((s, l) => s - l.lineTotal, 0);
  const docLines: InvoiceDocumentLine[] = printed.map((l) => ({
    description: l.description,
    propertyName: l.propertyName,
    sac: l.sac,
    ...(l.nightDate ? { nightDate: l.nightDate } : {}),
    checkIn: l.checkIn,
    checkOut: l.checkOut,
    bookingId: l.bookingId,
    quantity: l.quantity,
    taxableValue: l.taxableValue,
    gstRate: l.gstRate,
    cgst: l.cgst,
    sgst: l.sgst,
    igst: l.igst,
    lineTotal: l.lineTotal,
  }));
  const sum = (f: (l: InvoiceDocumentLine) => Minor) => docLines.reduce((s, l) => s + f(l), 0);
  const totals = { taxableValue: sum((l) => l.taxableValue), cgst: sum((l) => l.cgst), sgst: sum((l) => l.sgst), igst: sum((l) => l.igst), discount: lowering, total: invoice.total };
  const notes = [
    ...(invoice.discount > 0 ? [`Taxable values are after discounts of ${formatInr(invoice.discount)} (cancellation plan, bank offer).`] : []),
    ...(invoice.gatewayOrderId ? [`Pay online against order ${invoice.gatewayOrderId}, or by bank transfer quoting invoice ${invoice.invoiceNumber}.`] : []),
    ...(invoice.payTo
      ? [`Bank transfer (NEFT/RTGS/IMPS): account ${invoice.payTo.accountNumber}, IFSC ${invoice.payTo.ifsc} (${invoice.payTo.bankName}), beneficiary ${invoice.payTo.beneficiaryName}.`]
      : []),
  ];
  return {
    kind: 'TAX_INVOICE',
    number: invoice.invoiceNumber,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    periodFrom: invoice.periodFrom,
    periodTo: invoice.periodTo,
    supplier,
    recipient,
    placeOfSupply: { state: invoice.placeOfSupply, stateCode: invoice.placeOfSupplyStateCode },
    lines: docLines,
    totals,
    ...(invoice.eInvoice ? { eInvoice: invoice.eInvoice } : {}),
    notes,
  };
}

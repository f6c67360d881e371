import { formatInr, type Minor } from '../money.ts';
import { gstStateByCode, gstStateByName } from './gst-state-codes.ts';
import type { Invoice, InvoiceLine } from './invoice.ts';
import { printedDate, type DocumentParty, type InvoiceDocumentLine, type RecipientParty, type TaxInvoiceDocument } from './invoice-document.ts';
import { indiaToday } from '../reads/date-window.ts';

const stateOf = (code: string, fallback: string): string => gstStateByCode(code)?.name ?? fallback;

/**
 * The State an address names, as the billing run writes it ("…, city, <State> <PIN>, IN"):
 * the last comma-separated part that, without its PIN code, is a GST state or union territory.
 */
export function stateOfAddress(address: string): { readonly name: string; readonly code: string } | undefined {
  for (const part of address
    .split(',')
    .map((p) => p.replace(/\b[0-9]{6}\b/, '').trim())
    .reverse()) {
    const state = gstStateByName(part);
    if (state) return { name: state.name, code: state.code };
  }
  return undefined;
}

/** Who is billed: with a GSTIN its State is the GSTIN's; without one (not registered for GST) the State its address names. */
function recipientOf(invoice: Pick<Invoice, 'billToGstin' | 'billToName' | 'billToAddress'>): RecipientParty {
  const base = { name: invoice.billToName, address: invoice.billToAddress };
  if (invoice.billToGstin)
    return { ...base, gstin: invoice.billToGstin, state: stateOf(invoice.billToGstin.slice(0, 2), ''), stateCode: invoice.billToGstin.slice(0, 2) };
  const state = stateOfAddress(invoice.billToAddress);
  return { ...base, gstin: null, state: state?.name ?? '', stateCode: state?.code ?? '' };
}

type Heads = { taxableValue: Minor; cgst: Minor; sgst: Minor; igst: Minor };
const HEADS = ['taxableValue', 'cgst', 'sgst', 'igst'] as const;

/**
 * The stored lines with every line that lowers the price (an amendment's absorbed rate drift,
 * negative) netted into the lines it belongs to: the same booking's lines at the same GST rate,
 * largest first, head by head (taxable value, CGST, SGST, IGST exactly as stored), never
 * taking a head below zero. A tax invoice prints no negative row, and the e-invoice and
 * GSTR-1 must carry the books' taxable value and tax, so the lowering is a pre-tax reduction
 * of those items (`lowered`), never a discount after tax. What the booking's lines at that
 * rate cannot absorb is left as `unabsorbed` (printed as a discount; the e-invoice refuses it).
 */
export function nettedLines(lines: readonly InvoiceLine[]): { lines: (InvoiceLine & { lowered: Minor })[]; unabsorbed: Minor } {
  const out = lines.filter((l) => l.lineTotal >= 0).map((l) => ({ ...l, lowered: 0 }));
  let unabsorbed = 0;
  for (const neg of lines.filter((l) => l.lineTotal < 0)) {
    const targets = out.filter((l) => l.bookingId === neg.bookingId && l.gstRate === neg.gstRate).sort((a, b) => b.taxableValue - a.taxableValue);
    const capacity = (h: keyof Heads) => targets.reduce((s, l) => s + l[h], 0);
    if (targets.length === 0 || HEADS.some((h) => capacity(h) < -neg[h])) {
      unabsorbed -= neg.lineTotal;
      continue;
    }
    for (const h of HEADS) {
      let left = -neg[h];
      for (const t of targets) {
        const take = Math.min(left, t[h]);
        Object.assign(t, { [h]: t[h] - take, ...(h === 'taxableValue' ? { lowered: t.lowered + take } : {}) });
        left -= take;
      }
    }
    for (const t of targets) Object.assign(t, { lineTotal: t.taxableValue + t.cgst + t.sgst + t.igst });
  }
  return { lines: out, unabsorbed };
}

/**
 * The printable view of one issued invoice, from its stored figures only. A line that
 * lowers the price is netted into the items of its booking (nettedLines), so the printed
 * lines, the e-invoice and GSTR-1 carry the same taxable value and tax; the printed total
 * is still the invoice's total.
 */
export function invoiceDocumentOf(invoice: Invoice, lines: readonly InvoiceLine[]): TaxInvoiceDocument {
  // A DRAFT holding a reserved number is the document sent for e-invoice registration; only a number makes a document.
  if (invoice.status === 'CANCELLED' || !invoice.invoiceNumber || !invoice.issueDate || !invoice.dueDate) {
    throw new RangeError(`invoice ${invoice.id} has no number: there is nothing to print`);
  }
  const supplier: DocumentParty = {
    name: invoice.supplierName,
    address: invoice.supplierAddress,
    gstin: invoice.supplierGstin,
    state: stateOf(invoice.supplierStateCode, invoice.placeOfSupply),
    stateCode: invoice.supplierStateCode,
  };
  const recipient = recipientOf(invoice);
  const { lines: printed, unabsorbed: lowering } = nettedLines(lines);
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
    ...(l.lowered > 0 ? { lowered: l.lowered } : {}),
  }));
  const sum = (f: (l: InvoiceDocumentLine) => Minor) => docLines.reduce((s, l) => s + f(l), 0);
  const totals = {
    taxableValue: sum((l) => l.taxableValue),
    cgst: sum((l) => l.cgst),
    sgst: sum((l) => l.sgst),
    igst: sum((l) => l.igst),
    discount: lowering,
    total: invoice.total,
  };
  const notes = [
    ...(invoice.discount > 0 ? [`Taxable values are after discounts of ${formatInr(invoice.discount)} (cancellation plan, bank offer).`] : []),
    // The order's own amount: once part is paid or credited, a fresh order collects the rest (gateway-orders.ts) and the partner API names it.
    ...(invoice.gatewayOrderId
      ? [
          `Pay online against order ${invoice.gatewayOrderId} (${formatInr(invoice.gatewayOrderAmount ?? invoice.total)}; after a part payment or credit note, the invoice's current order for the rest is in the partner API), or by bank transfer quoting invoice ${invoice.invoiceNumber}.`,
        ]
      : []),
    // The link made at issue, for the total; a later one for the rest replaces it (pay-links.ts) and is in the partner API.
    ...(invoice.payLink
      ? [
          `Pay online by card, UPI or netbanking at ${invoice.payLink.url} (${formatInr(invoice.payLink.amount)}, until ${printedDate(indiaToday(new Date(invoice.payLink.expiresAt)))}); after a part payment or credit note, the link for the rest is in the partner API.`,
        ]
      : []),
    ...(invoice.payTo
      ? [
          `Bank transfer (NEFT/RTGS/IMPS): account ${invoice.payTo.accountNumber}, IFSC ${invoice.payTo.ifsc} (${invoice.payTo.bankName}), beneficiary ${invoice.payTo.beneficiaryName}.`,
        ]
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

import type { Minor } from '../money.ts';
import { gstStateByCode } from './gst-state-codes.ts';

export { amountInWordsINR } from './amount-in-words.ts';

/**
 * What is printed for one stored invoice or credit note: a pure view built from the
 * stored figures (never re-priced), so the same document always prints the same. Money is
 * in paise; dates are yyyy-mm-dd in India time, as stored.
 */
export type InvoiceDocumentKind = 'TAX_INVOICE' | 'CREDIT_NOTE';

/** SAC for accommodation services (docs/product-rules.md "Invoices, GST and payments"). */
export const SAC_ACCOMMODATION = '996311';

export interface DocumentParty {
  /** Legal name as registered for GST. */
  readonly name: string;
  readonly address: string;
  readonly gstin: string;
  readonly state: string;
  /** Two-digit GST state code; the GSTIN starts with it. */
  readonly stateCode: string;
}

/**
 * Who is billed. A recipient not registered for GST (a group without a GSTIN) has no GSTIN;
 * rule 46(e) of the CGST Rules then asks for its name and address with the name of its State
 * and the State's code (taken from its address), which `state` and `stateCode` carry. A
 * stateCode of '' means the address names no GST state (a legacy group record).
 */
export interface RecipientParty extends Omit<DocumentParty, 'gstin'> {
  readonly gstin: string | null;
}

export interface PlaceOfSupply {
  readonly state: string;
  readonly stateCode: string;
}

export interface InvoiceDocumentLine {
  readonly description: string;
  readonly propertyName: string;
  readonly sac: string;
  /** The night a per-night line covers; lines for a whole stay carry checkIn/checkOut instead. */
  readonly nightDate?: string;
  readonly checkIn?: string;
  readonly checkOut?: string;
  /** The partner's booking the line was charged for, printed as a reference. */
  readonly bookingId?: string;
  readonly quantity: number;
  readonly taxableValue: Minor;
  /** Percent, e.g. 18; CGST and SGST are each half of it. */
  readonly gstRate: number;
  readonly cgst: Minor;
  readonly sgst: Minor;
  readonly igst: Minor;
  readonly lineTotal: Minor;
  /** Taxable value a price-lowering line of the same booking took off this line (already out of `taxableValue`). */
  readonly lowered?: Minor;
}

export interface InvoiceDocumentTotals {
  readonly taxableValue: Minor;
  readonly cgst: Minor;
  readonly sgst: Minor;
  readonly igst: Minor;
  /** Printed as a deduction when non-zero: total = taxable value + taxes − discount. */
  readonly discount: Minor;
  readonly total: Minor;
}

/** The IRP's answer for a registered e-invoice (issue 11); printed with its QR code when present. */
export interface EInvoiceRegistration {
  readonly irn: string;
  readonly ackNo: string;
  /** As the IRP returns it, e.g. "2026-11-05 14:03:00". */
  readonly ackDate: string;
  /** The signed QR payload (a JWT) to encode in the printed QR code. */
  readonly signedQr: string;
  /** When the IRP cancelled the IRN (an operator's void within its 24 hours), as it wrote it. */
  readonly cancelledAt?: string;
  /** The IRP's cancellation reason code and the operator's remark. */
  readonly cancelReason?: string;
  readonly cancelRemark?: string;
}

/**
 * A numbered document the IRP holds registered that cannot be taken as ours without an
 * operator (EInvoiceHeldError): `RECONCILE` (needs reconciliation: the portal no longer serves
 * the registration its 2150 names, 2283, or holds another document under our number) or
 * `SIGNATURE` (registered, but its signatures do not verify under the signing key we have).
 * It is never sent to the IRP again while held.
 */
export interface EInvoiceHold {
  readonly kind: 'RECONCILE' | 'SIGNATURE';
  readonly reason: string;
  readonly irn: string;
  readonly ackNo: string | null;
  readonly ackDate: string | null;
  /** SIGNATURE: the portal's signed QR and invoice as it sent them, verified again after the key's rotation. */
  readonly signedQrCode?: string;
  readonly signedInvoice?: string;
  /** When it was first held. */
  readonly since: string;
}

interface DocumentBase {
  /** The statutory number from the registration's series (≤ 16 characters). */
  readonly number: string;
  readonly issueDate: string;
  readonly periodFrom: string;
  readonly periodTo: string;
  readonly supplier: DocumentParty;
  readonly recipient: RecipientParty;
  readonly placeOfSupply: PlaceOfSupply;
  readonly lines: readonly InvoiceDocumentLine[];
  readonly totals: InvoiceDocumentTotals;
  readonly eInvoice?: EInvoiceRegistration;
  /** Further notes printed under the statutory ones (e.g. payment instructions). */
  readonly notes?: readonly string[];
}

export interface TaxInvoiceDocument extends DocumentBase {
  readonly kind: 'TAX_INVOICE';
  readonly dueDate: string;
}

export interface CreditNoteDocument extends DocumentBase {
  readonly kind: 'CREDIT_NOTE';
  readonly originalInvoice: { readonly number: string; readonly date: string };
  /** Why the credit was raised (cancellation, refund, operator correction). */
  readonly reason?: string;
}

export type InvoiceDocument = TaxInvoiceDocument | CreditNoteDocument;

/** dd-mm-yyyy, the form Indian invoices and the GST portal use. */
export const printedDate = (isoDate: string): string => {
  const [y, m, d] = isoDate.split('-');
  return `${d}-${m}-${y}`;
};

export const documentTitle = (doc: InvoiceDocument): string => (doc.kind === 'TAX_INVOICE' ? 'Tax Invoice' : 'Credit Note');

/** CGST + SGST when the supplier's registration is in the state of supply, IGST otherwise. */
export const isIntraState = (doc: InvoiceDocument): boolean => doc.supplier.stateCode === doc.placeOfSupply.stateCode;

/**
 * The declarations a CA looks for beside the figures (CGST Rules, rule 46 and 53): reverse
 * charge, what is supplied and where, and for a credit note the invoice it corrects.
 */
export function statutoryNotes(doc: InvoiceDocument): string[] {
  const notes = [
    'Tax is not payable on reverse charge basis (reverse charge: No).',
    `Supply of accommodation services (SAC ${SAC_ACCOMMODATION}); place of supply is the location of the property (section 12(3) of the IGST Act, 2017).`,
  ];
  if (doc.recipient.gstin === null) notes.push(unregisteredRecipientNote(doc));
  if (doc.kind === 'CREDIT_NOTE') {
    notes.push(
      `Credit note under section 34 of the CGST Act, 2017 against tax invoice ${doc.originalInvoice.number} dated ${printedDate(doc.originalInvoice.date)}.`,
    );
    if (doc.reason) notes.push(`Reason: ${doc.reason}`);
  }
  return [...notes, ...(doc.notes ?? [])];
}

/**
 * Rule 46(e)/(f) for a recipient not registered for GST: the recipient's State and code are
 * printed with its address, and the address of delivery. Accommodation is delivered at the
 * property, which is also the place of supply (section 12(3) IGST Act), so the delivery
 * address is the properties named on the lines, in the State of supply.
 */
function unregisteredRecipientNote(doc: InvoiceDocument): string {
  const where = `${doc.placeOfSupply.state} (code ${doc.placeOfSupply.stateCode})`;
  return `Recipient not registered for GST (no GSTIN); address of delivery: the properties named on the lines, in ${where}, the place of supply.`;
}

export class InvoiceDocumentError extends Error {
  override readonly name = 'InvoiceDocumentError';
}

const GSTIN = /^[0-9]{2}[A-Z0-9]{13}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER = /^[A-Za-z0-9/-]{1,16}$/;

/**
 * Refuses a document whose figures do not hold together, before anything is printed: a
 * tax invoice that does not add up is worse than none. Returns the document for chaining.
 */
export function checkInvoiceDocument(doc: InvoiceDocument): InvoiceDocument {
  const problems: string[] = [];
  const need = (ok: boolean, message: string) => {
    if (!ok) problems.push(message);
  };
  need(NUMBER.test(doc.number), `number "${doc.number}" must be 1–16 letters, digits, "/" or "-"`);
  for (const [name, date] of Object.entries({
    issueDate: doc.issueDate,
    periodFrom: doc.periodFrom,
    periodTo: doc.periodTo,
    ...(doc.kind === 'TAX_INVOICE' ? { dueDate: doc.dueDate } : { 'originalInvoice.date': doc.originalInvoice.date }),
  })) {
    need(DATE.test(date), `${name} "${date}" must be yyyy-mm-dd`);
  }
  for (const [role, party] of [
    ['supplier', doc.supplier],
    ['recipient', doc.recipient],
  ] as const) {
    // A recipient without a GSTIN is an unregistered person (B2C), printed with its State instead.
    if (role === 'recipient' && party.gstin === null) continue;
    need(party.gstin !== null && GSTIN.test(party.gstin), `${role}.gstin "${party.gstin}" is not a GSTIN`);
    need((party.gstin ?? '').startsWith(party.stateCode), `${role}.gstin must start with its state code ${party.stateCode}`);
  }
  need(gstStateByCode(doc.placeOfSupply.stateCode) !== undefined, `placeOfSupply.stateCode "${doc.placeOfSupply.stateCode}" is not a GST state code`);
  need(doc.lines.length > 0, 'a document needs at least one line');
  const intra = isIntraState(doc);
  const sum = { taxableValue: 0, cgst: 0, sgst: 0, igst: 0 };
  doc.lines.forEach((line, i) => {
    const at = `lines[${i}]`;
    for (const k of ['taxableValue', 'cgst', 'sgst', 'igst', 'lineTotal'] as const)
      need(Number.isSafeInteger(line[k]) && line[k] >= 0, `${at}.${k} must be a non-negative whole number of paise`);
    need(line.lineTotal === line.taxableValue + line.cgst + line.sgst + line.igst, `${at}.lineTotal must be its taxable value plus its taxes`);
    need(
      intra ? line.igst === 0 : line.cgst === 0 && line.sgst === 0,
      `${at} must carry ${intra ? 'CGST and SGST' : 'IGST'} only (${intra ? 'intra' : 'inter'}-state supply)`,
    );
    need(line.nightDate !== undefined || (line.checkIn !== undefined && line.checkOut !== undefined), `${at} needs a nightDate or checkIn and checkOut`);
    need(Number.isInteger(line.quantity) && line.quantity > 0, `${at}.quantity must be a positive whole number`);
    sum.taxableValue += line.taxableValue;
    sum.cgst += line.cgst;
    sum.sgst += line.sgst;
    sum.igst += line.igst;
  });
  const t = doc.totals;
  for (const k of ['taxableValue', 'cgst', 'sgst', 'igst'] as const) need(t[k] === sum[k], `totals.${k} ${t[k]} must equal the lines' ${sum[k]}`);
  need(t.discount >= 0, 'totals.discount must not be negative');
  need(t.total === t.taxableValue + t.cgst + t.sgst + t.igst - t.discount, 'totals.total must be taxable value + taxes − discount');
  if (problems.length > 0) throw new InvoiceDocumentError(`${documentTitle(doc)} ${doc.number} cannot be printed: ${problems.join('; ')}`);
  return doc;
}

/** One row of the tax summary printed under the lines: the figures per GST rate. */
export interface TaxRateSummary {
  readonly gstRate: number;
  readonly taxableValue: Minor;
  readonly cgst: Minor;
  readonly sgst: Minor;
  readonly igst: Minor;
}

/** The lines' taxable value and taxes per rate, lowest rate first. */
export function taxSummaryByRate(lines: readonly InvoiceDocumentLine[]): TaxRateSummary[] {
  const byRate = new Map<number, { taxableValue: Minor; cgst: Minor; sgst: Minor; igst: Minor }>();
  for (const l of lines) {
    const row = byRate.get(l.gstRate) ?? { taxableValue: 0, cgst: 0, sgst: 0, igst: 0 };
    row.taxableValue += l.taxableValue;
    row.cgst += l.cgst;
    row.sgst += l.sgst;
    row.igst += l.igst;
    byRate.set(l.gstRate, row);
  }
  return [...byRate.entries()].sort(([a], [b]) => a - b).map(([gstRate, row]) => ({ gstRate, ...row }));
}

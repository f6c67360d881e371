import { toRupees, type Minor } from '../money.ts';
import { checkInvoiceDocument, printedDate, type DocumentParty, type InvoiceDocument, type InvoiceDocumentLine } from './invoice-document.ts';
import { invoiceDocumentOf } from './invoice-document-of.ts';
import type { Invoice, InvoiceLine } from './invoice.ts';

/**
 * The e-invoice JSON (schema INV-01, version 1.1) of one stored tax invoice or credit
 * note, as the invoice registration portal (IRP) takes it for an IRN. Pure: built from the
 * printed document's stored figures; amounts are rupee numbers with at most two decimals.
 * Only what our documents carry is sent; every field the schema requires is present.
 */
export interface EInvoiceParty {
  readonly Gstin: string;
  readonly LglNm: string;
  readonly Addr1: string;
  readonly Addr2?: string;
  readonly Loc: string;
  readonly Pin: number;
  readonly Stcd: string;
}

export interface EInvoiceItem {
  readonly SlNo: string;
  readonly PrdDesc: string;
  readonly IsServc: 'Y';
  readonly HsnCd: string;
  readonly Qty: number;
  readonly Unit: 'OTH';
  readonly UnitPrice: number;
  readonly TotAmt: number;
  readonly Discount: number;
  readonly AssAmt: number;
  readonly GstRt: number;
  readonly IgstAmt: number;
  readonly CgstAmt: number;
  readonly SgstAmt: number;
  readonly CesRt: number;
  readonly CesAmt: number;
  readonly TotItemVal: number;
}

export interface EInvoicePayload {
  readonly Version: '1.1';
  /** No `EcmGstin`: the schema wants a 15-character GSTIN or nothing, and we supply through no e-commerce operator. */
  readonly TranDtls: { readonly TaxSch: 'GST'; readonly SupTyp: 'B2B'; readonly RegRev: 'N'; readonly IgstOnIntra: 'N' };
  readonly DocDtls: { readonly Typ: 'INV' | 'CRN'; readonly No: string; readonly Dt: string };
  readonly SellerDtls: EInvoiceParty;
  readonly BuyerDtls: EInvoiceParty & { readonly Pos: string };
  readonly ItemList: readonly EInvoiceItem[];
  readonly ValDtls: {
    readonly AssVal: number;
    readonly CgstVal: number;
    readonly SgstVal: number;
    readonly IgstVal: number;
    readonly CesVal: number;
    readonly StCesVal: number;
    readonly Discount: number;
    readonly OthChrg: number;
    readonly RndOffAmt: number;
    readonly TotInvVal: number;
  };
  readonly RefDtls: {
    readonly InvRm?: string;
    readonly DocPerdDtls: { readonly InvStDt: string; readonly InvEndDt: string };
    readonly PrecDocDtls?: readonly { readonly InvNo: string; readonly InvDt: string }[];
  };
}

export class EInvoiceError extends Error {
  override readonly name = 'EInvoiceError';
}

/** The IRP's document number rule: up to 16 characters, upper-case letters, digits, "/" and "-", not starting with 0, "/" or "-". */
export const IRP_DOCUMENT_NUMBER = /^[A-Z1-9][A-Z0-9/-]{0,15}$/;
/** The IRP accepts at most this many items on one document. */
export const IRP_MAX_ITEMS = 1000;

/**
 * Text as INV-01's free-text fields take it (pattern `^([^\"])*$`: no `"` and no `\`), on one
 * line, cut to `max` characters: a double quote becomes a single one, a backslash a slash.
 * Only the e-invoice is cleaned; the printed document keeps the text as stored.
 */
export function irpText(text: string, max: number): string {
  const clean = text
    .replace(/"/g, "'")
    .replace(/\\/g, '/')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what the schema's text patterns refuse.
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return clean.length <= max ? clean : clean.slice(0, max).trimEnd();
}

/** dd/mm/yyyy, the IRP's date form. */
const irpDate = (isoDate: string): string => {
  const [y, m, d] = isoDate.split('-');
  return `${d}/${m}/${y}`;
};

/** The schema's 100-character address lines, cut at a comma where one falls inside the limit. */
function addressLines(street: string): [string, string?] {
  if (street.length <= 100) return [street];
  const cut = street.lastIndexOf(', ', 100);
  const at = cut > 0 ? cut : 100;
  return [street.slice(0, at), street.slice(at).replace(/^,\s*/, '').slice(0, 100)];
}

/**
 * Our parties carry one address text; the IRP wants lines of ≤ 100 characters, a location
 * and a six-digit PIN. The PIN is the last six-digit number of the address; the location
 * the comma-separated part just before the one holding it (the city or district in an
 * Indian address); the lines everything before the location.
 */
export function irpParty(party: DocumentParty, role: string): EInvoiceParty {
  const pin = [...party.address.matchAll(/\b[1-9][0-9]{5}\b/g)].pop()?.[0];
  if (!pin) throw new EInvoiceError(`${role}.address has no six-digit PIN code: "${party.address}"`);
  const parts = irpText(party.address, Number.MAX_SAFE_INTEGER)
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const pinPart = parts.findIndex((p) => p.includes(pin));
  const loc = pinPart > 0 ? parts[pinPart - 1]! : parts[pinPart]!.replace(pin, '').trim();
  const street = parts.slice(0, Math.max(0, pinPart - 1)).join(', ') || loc;
  if (loc.length < 3 || loc.length > 50) throw new EInvoiceError(`${role}.address gives a location "${loc}" outside 3–50 characters`);
  const name = irpText(party.name, 100);
  if (name.length < 3) throw new EInvoiceError(`${role}.name must be at least 3 characters for the IRP`);
  const [addr1, addr2] = addressLines(street);
  return {
    Gstin: party.gstin,
    LglNm: name,
    Addr1: addr1,
    ...(addr2 && addr2.length >= 3 ? { Addr2: addr2 } : {}),
    Loc: loc,
    Pin: Number(pin),
    Stcd: party.stateCode,
  };
}

/** Unit price in rupees to three decimals (the schema's precision), exact when the value divides by the quantity. */
const unitPrice = (taxableValue: Minor, quantity: number): number => Math.round((taxableValue * 10) / quantity) / 1000;

const itemDescription = (line: InvoiceDocumentLine): string => {
  const when = line.nightDate !== undefined ? `night of ${printedDate(line.nightDate)}` : `${printedDate(line.checkIn!)} to ${printedDate(line.checkOut!)}`;
  return irpText(`${line.description} - ${line.propertyName}, ${when}${line.bookingId ? `, booking ${line.bookingId}` : ''}`, 300);
};

export function eInvoiceJson(doc: InvoiceDocument): EInvoicePayload {
  checkInvoiceDocument(doc);
  if (!IRP_DOCUMENT_NUMBER.test(doc.number))
    throw new EInvoiceError(`number "${doc.number}" does not meet the IRP's rule (upper-case letters, digits, "/", "-"; not starting with 0, "/" or "-")`);
  if (doc.lines.length > IRP_MAX_ITEMS) throw new EInvoiceError(`the IRP takes at most ${IRP_MAX_ITEMS} items; this document has ${doc.lines.length}`);
  const { recipient } = doc;
  // Registration (rule 48(4)) covers supplies to registered persons; a B2C invoice is never sent to the IRP.
  if (recipient.gstin === null)
    throw new EInvoiceError('the recipient is not registered for GST (no GSTIN): a supply to an unregistered person is outside e-invoicing');
  const t = doc.totals;
  // A discount after tax would declare more taxable value and tax than the books and GSTR-1 carry.
  if (t.discount !== 0) {
    throw new EInvoiceError(
      `a price-lowering line of ${toRupees(t.discount)} INR is larger than its booking's items at its GST rate; the IRP would get taxable value and tax the books do not have (an operator's credit note is the remedy)`,
    );
  }
  return {
    Version: '1.1',
    TranDtls: { TaxSch: 'GST', SupTyp: 'B2B', RegRev: 'N', IgstOnIntra: 'N' },
    DocDtls: { Typ: doc.kind === 'TAX_INVOICE' ? 'INV' : 'CRN', No: doc.number, Dt: irpDate(doc.issueDate) },
    SellerDtls: irpParty(doc.supplier, 'supplier'),
    BuyerDtls: { ...irpParty({ ...recipient, gstin: recipient.gstin }, 'recipient'), Pos: doc.placeOfSupply.stateCode },
    ItemList: doc.lines.map((line, i) => ({
      SlNo: String(i + 1),
      PrdDesc: itemDescription(line),
      IsServc: 'Y',
      HsnCd: line.sac,
      Qty: line.quantity,
      Unit: 'OTH',
      // A price-lowering line netted into this one is a reduction before tax: TotAmt − Discount = AssAmt (the IRP's 2193).
      UnitPrice: unitPrice(line.taxableValue + (line.lowered ?? 0), line.quantity),
      TotAmt: toRupees(line.taxableValue + (line.lowered ?? 0)),
      Discount: toRupees(line.lowered ?? 0),
      AssAmt: toRupees(line.taxableValue),
      GstRt: line.gstRate,
      IgstAmt: toRupees(line.igst),
      CgstAmt: toRupees(line.cgst),
      SgstAmt: toRupees(line.sgst),
      CesRt: 0,
      CesAmt: 0,
      TotItemVal: toRupees(line.lineTotal),
    })),
    ValDtls: {
      AssVal: toRupees(t.taxableValue),
      CgstVal: toRupees(t.cgst),
      SgstVal: toRupees(t.sgst),
      IgstVal: toRupees(t.igst),
      CesVal: 0,
      StCesVal: 0,
      Discount: 0,
      OthChrg: 0,
      RndOffAmt: 0,
      TotInvVal: toRupees(t.total),
    },
    RefDtls: {
      ...(doc.kind === 'CREDIT_NOTE' && doc.reason && irpText(doc.reason, 100).length >= 3 ? { InvRm: irpText(doc.reason, 100) } : {}),
      DocPerdDtls: { InvStDt: irpDate(doc.periodFrom), InvEndDt: irpDate(doc.periodTo) },
      ...(doc.kind === 'CREDIT_NOTE' ? { PrecDocDtls: [{ InvNo: doc.originalInvoice.number, InvDt: irpDate(doc.originalInvoice.date) }] } : {}),
    },
  };
}

/** A stored record as the e-invoice step reads it: a credit note (their branch) names the invoice it corrects. */
export type EInvoiceRecord = Invoice & { readonly creditNoteFor?: string | null };

/**
 * The INV-01 of one stored record holding its number: a tax invoice (Typ INV), or, when it is
 * a credit note, Typ CRN naming the invoice it corrects (`original`: that invoice's number and
 * issue date, which the IRP wants in PrecDocDtls).
 */
export function eInvoiceOfRecord(
  record: EInvoiceRecord,
  lines: readonly InvoiceLine[],
  original?: { readonly number: string; readonly date: string },
): EInvoicePayload {
  if (!record.creditNoteFor) return eInvoiceJson(invoiceDocumentOf(record, lines));
  if (!original) throw new EInvoiceError(`credit note ${record.id} needs the number and date of invoice ${record.creditNoteFor}`);
  // A credit note has no due date of its own; the printed view wants one, and the CRN drops it.
  const { kind: _kind, dueDate: _due, ...document } = invoiceDocumentOf({ ...record, dueDate: record.dueDate ?? record.issueDate }, lines);
  return eInvoiceJson({ ...document, kind: 'CREDIT_NOTE', originalInvoice: original });
}

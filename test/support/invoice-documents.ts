import { createHash } from 'node:crypto';
import type { CreditNoteDocument, InvoiceDocumentLine, TaxInvoiceDocument } from '../../domain/invoicing/invoice-document.ts';

/**
 * Realistic documents for the document tests: a Goa registration billing a Mumbai travel
 * agency for villas in Goa (intra-state, CGST + SGST), the same agency billed from a
 * Karnataka registration for a stay in Goa (inter-state, IGST), and a credit note.
 */
export const GOA_SUPPLIER = {
  name: 'Konkan Villa Stays Private Limited',
  address: 'Plot 14, Campal Trade Centre, Panaji, North Goa, Goa 403001',
  gstin: '30AAICK4821M1ZQ',
  state: 'Goa',
  stateCode: '30',
} as const;

export const KARNATAKA_SUPPLIER = {
  name: 'Konkan Villa Stays Private Limited',
  address: '3rd Floor, 22 Residency Road, Bengaluru, Karnataka 560025',
  gstin: '29AAICK4821M1ZS',
  state: 'Karnataka',
  stateCode: '29',
} as const;

export const MUMBAI_AGENCY = {
  name: 'Sahyadri Holidays LLP',
  address: '501 Trade Link, Kamala Mills Compound, Lower Parel, Mumbai, Maharashtra 400013',
  gstin: '27AAPFU0939F1ZV',
  state: 'Maharashtra',
  stateCode: '27',
} as const;

/** A line with its taxes computed as the billing engine does: tax rounded half up, CGST taking the odd paisa. */
export function line(opts: {
  night?: string;
  checkIn?: string;
  checkOut?: string;
  description?: string;
  propertyName?: string;
  taxableValue: number;
  gstRate: number;
  intra: boolean;
  quantity?: number;
  bookingId?: string;
}): InvoiceDocumentLine {
  const tax = Math.floor((opts.taxableValue * opts.gstRate + 50) / 100);
  const cgst = opts.intra ? Math.ceil(tax / 2) : 0;
  const sgst = opts.intra ? tax - cgst : 0;
  const igst = opts.intra ? 0 : tax;
  return {
    description: opts.description ?? 'Villa stay, one unit-night',
    propertyName: opts.propertyName ?? 'Casa Azul, Assagao',
    sac: '996311',
    ...(opts.night !== undefined ? { nightDate: opts.night } : { checkIn: opts.checkIn!, checkOut: opts.checkOut! }),
    ...(opts.bookingId !== undefined ? { bookingId: opts.bookingId } : {}),
    quantity: opts.quantity ?? 1,
    taxableValue: opts.taxableValue,
    gstRate: opts.gstRate,
    cgst,
    sgst,
    igst,
    lineTotal: opts.taxableValue + tax,
  };
}

export function totalsOf(lines: readonly InvoiceDocumentLine[], discount = 0) {
  const sum = (k: 'taxableValue' | 'cgst' | 'sgst' | 'igst') => lines.reduce((s, l) => s + l[k], 0);
  const t = { taxableValue: sum('taxableValue'), cgst: sum('cgst'), sgst: sum('sgst'), igst: sum('igst') };
  return { ...t, discount, total: t.taxableValue + t.cgst + t.sgst + t.igst - discount };
}

const goaLines = [
  line({
    night: '2026-10-03',
    taxableValue: 650_000,
    gstRate: 5,
    intra: true,
    bookingId: 'PS-10481',
    description: 'Villa stay: 3-bedroom pool villa, 4 adults, breakfast',
  }),
  line({
    night: '2026-10-04',
    taxableValue: 650_000,
    gstRate: 5,
    intra: true,
    bookingId: 'PS-10481',
    description: 'Villa stay: 3-bedroom pool villa, 4 adults, breakfast',
  }),
  line({
    night: '2026-10-12',
    taxableValue: 1_245_050,
    gstRate: 18,
    intra: true,
    bookingId: 'PS-10522',
    propertyName: 'Villa Saudade, Siolim',
    description: 'Villa stay: 5-bedroom villa with private chef, 10 adults',
  }),
  line({
    night: '2026-10-12',
    taxableValue: 380_000,
    gstRate: 5,
    intra: true,
    quantity: 2,
    bookingId: 'PS-10530',
    propertyName: 'Palm Grove Cottages, Benaulim',
    description: 'Cottage stay: 2 garden cottages, 2 adults each',
  }),
  line({
    checkIn: '2026-10-20',
    checkOut: '2026-10-23',
    taxableValue: 120_000,
    gstRate: 18,
    intra: true,
    bookingId: 'PS-10544',
    propertyName: 'Villa Saudade, Siolim',
    description: 'Airport transfer and welcome dinner (service)',
  }),
];

export const intraStateInvoice: TaxInvoiceDocument = {
  kind: 'TAX_INVOICE',
  number: 'GA/2026-27/0042',
  issueDate: '2026-11-01',
  dueDate: '2026-11-16',
  periodFrom: '2026-10-01',
  periodTo: '2026-10-31',
  supplier: GOA_SUPPLIER,
  recipient: MUMBAI_AGENCY,
  placeOfSupply: { state: 'Goa', stateCode: '30' },
  lines: goaLines,
  totals: totalsOf(goaLines),
};

const igstLines = [
  line({
    night: '2026-10-07',
    taxableValue: 820_000,
    gstRate: 18,
    intra: false,
    bookingId: 'PS-20011',
    propertyName: 'Casa Azul, Assagao',
    description: 'Villa stay: 4-bedroom villa, 8 adults, all meals',
  }),
  line({
    night: '2026-10-08',
    taxableValue: 820_000,
    gstRate: 18,
    intra: false,
    bookingId: 'PS-20011',
    propertyName: 'Casa Azul, Assagao',
    description: 'Villa stay: 4-bedroom villa, 8 adults, all meals',
  }),
  line({
    night: '2026-10-09',
    taxableValue: 540_000,
    gstRate: 5,
    intra: false,
    bookingId: 'PS-20019',
    propertyName: 'Casa Azul, Assagao',
    description: 'Villa stay: 2-bedroom villa, 3 adults',
  }),
];

export const interStateInvoice: TaxInvoiceDocument = {
  kind: 'TAX_INVOICE',
  number: 'KA/2026-27/0007',
  issueDate: '2026-11-01',
  dueDate: '2026-12-01',
  periodFrom: '2026-10-01',
  periodTo: '2026-10-31',
  supplier: KARNATAKA_SUPPLIER,
  recipient: MUMBAI_AGENCY,
  placeOfSupply: { state: 'Goa', stateCode: '30' },
  lines: igstLines,
  totals: totalsOf(igstLines, 50_000),
};

const creditLines = [goaLines[0]!, goaLines[1]!];

export const creditNote: CreditNoteDocument = {
  kind: 'CREDIT_NOTE',
  number: 'GA-CN/2627/0003',
  issueDate: '2026-11-09',
  periodFrom: '2026-10-01',
  periodTo: '2026-10-31',
  supplier: GOA_SUPPLIER,
  recipient: MUMBAI_AGENCY,
  placeOfSupply: { state: 'Goa', stateCode: '30' },
  originalInvoice: { number: 'GA/2026-27/0042', date: '2026-11-01' },
  reason: 'Booking PS-10481 cancelled within the free-cancellation window; both nights refunded.',
  lines: creditLines,
  totals: totalsOf(creditLines),
};

/** An intra-state invoice of n lines (one per night, two rates), for pagination and size figures. */
export function manyLineInvoice(n: number): TaxInvoiceDocument {
  const start = Date.UTC(2026, 0, 1);
  const lines = Array.from({ length: n }, (_, i) =>
    line({
      night: new Date(start + (i % 365) * 86_400_000).toISOString().slice(0, 10),
      taxableValue: 450_000 + ((i * 7919) % 900_000),
      gstRate: 450_000 + ((i * 7919) % 900_000) > 750_000 ? 18 : 5,
      intra: true,
      bookingId: `PS-${30000 + Math.trunc(i / 3)}`,
      propertyName: ['Casa Azul, Assagao', 'Villa Saudade, Siolim', 'Palm Grove Cottages, Benaulim'][i % 3]!,
      description: 'Villa stay, one unit-night',
    }),
  );
  return { ...intraStateInvoice, number: 'GA/2026-27/0999', lines, totals: totalsOf(lines) };
}

const base64url = (text: string | Buffer): string => Buffer.from(text).toString('base64url');

/**
 * What the IRP returns for a registered invoice, shaped as the real thing: a 64-hex IRN
 * (SHA-256), a 15-digit acknowledgement number and a signed QR that is a JWT whose payload
 * carries the invoice's key fields (about 900 characters, as the IRP's are). The signature
 * is 256 bytes derived from the content, since no IRP key signs test documents.
 */
export function irpRegistration(doc: TaxInvoiceDocument | CreditNoteDocument) {
  const irn = createHash('sha256')
    .update(`${doc.supplier.gstin}${doc.number}${doc.kind === 'TAX_INVOICE' ? 'INV' : 'CRN'}2026-27`)
    .digest('hex');
  const data = JSON.stringify({
    SellerGstin: doc.supplier.gstin,
    BuyerGstin: doc.recipient.gstin,
    DocNo: doc.number,
    DocTyp: doc.kind === 'TAX_INVOICE' ? 'INV' : 'CRN',
    DocDt: doc.issueDate.split('-').reverse().join('/'),
    TotInvVal: doc.totals.total / 100,
    ItemCnt: doc.lines.length,
    MainHsnCode: '996311',
    Irn: irn,
    IrnDt: `${doc.issueDate} 11:42:00`,
  });
  const header = base64url(JSON.stringify({ alg: 'RS256', kid: '1C3A1B1F4B0E2D9A8C7F6E5D4C3B2A19', typ: 'JWT', x5t: 'HDo78jF7I6iDqbwlZHlIz0dd3Ks' }));
  const payload = base64url(JSON.stringify({ data, iss: 'NIC Sandbox' }));
  const signature = base64url(Buffer.concat(Array.from({ length: 8 }, (_, i) => createHash('sha256').update(`${irn}${i}`).digest())));
  return { irn, ackNo: '112610012345678', ackDate: `${doc.issueDate} 11:42:00`, signedQr: `${header}.${payload}.${signature}` };
}

export const registeredInvoice: TaxInvoiceDocument = { ...intraStateInvoice, eInvoice: irpRegistration(intraStateInvoice) };

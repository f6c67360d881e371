import { CALENDAR_MONTH_RULE, isCalendarMonth } from '../catalogue/calendar.ts';
import { ValidationError } from '../errors.ts';
import type { Invoice, InvoiceLine } from '../invoicing/invoice.ts';
import { formatRupees, toRupees, type Minor } from '../money.ts';

/**
 * GSTR-1 for one supplier GSTIN and month, from stored figures (never re-priced): the B2B
 * invoices (table 4A, `b2b`) and the credit notes to registered recipients (table 9B,
 * `cdnr`); for recipients not registered for GST, the large inter-state invoices (table 5,
 * `b2cl`), every other one summed per type, place of supply and rate (table 7, `b2cs`), and
 * credit notes against a B2CL invoice (table 9B unregistered, `cdnur`), in the layout the GST
 * portal's offline tool imports as JSON; and the same rows as the portal's CSVs.
 */
export interface Gstr1Invoice {
  readonly invoice: Invoice;
  readonly lines: readonly InvoiceLine[];
  /** For a credit note to an unregistered recipient: the invoice it corrects (its value and date decide B2CL or B2CS). */
  readonly original?: Pick<Invoice, 'total' | 'issueDate' | 'supplierStateCode' | 'placeOfSupplyStateCode'>;
}

/**
 * Rule 59(4)(a)(ii) of the CGST Rules: an inter-state invoice to an unregistered recipient is
 * reported invoice by invoice (B2CL) above this value; one lakh rupees from 1 August 2024
 * (Notification 12/2024-Central Tax), two and a half lakh before.
 */
export const b2clThreshold = (issueDate: string): Minor => (issueDate >= '2024-08-01' ? 1_00_000_00 : 2_50_000_00);

const interState = (d: Pick<Invoice, 'supplierStateCode' | 'placeOfSupplyStateCode'>): boolean => d.supplierStateCode !== d.placeOfSupplyStateCode;

/** B2CL: an inter-state invoice to an unregistered recipient whose value exceeds the threshold of its date. */
export const isB2cl = (i: Pick<Invoice, 'total' | 'issueDate' | 'supplierStateCode' | 'placeOfSupplyStateCode'>): boolean =>
  interState(i) && i.issueDate !== null && i.total > b2clThreshold(i.issueDate);

/** `yyyy-mm` → the return period `MMYYYY` and the month's first and last day. */
export function gstr1Period(month: string): { readonly fp: string; readonly from: string; readonly to: string } {
  if (!isCalendarMonth(month)) throw new ValidationError('month', `month must be ${CALENDAR_MONTH_RULE}, such as 2027-03; got ${JSON.stringify(month)}.`);
  const [y, mm] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
  const last = new Date(Date.UTC(y, mm, 0)).getUTCDate();
  return { fp: `${month.slice(5, 7)}${month.slice(0, 4)}`, from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** dd-mm-yyyy, the portal's date format. */
const portalDate = (isoDate: string): string => `${isoDate.slice(8, 10)}-${isoDate.slice(5, 7)}-${isoDate.slice(0, 4)}`;

interface RateRow {
  readonly rate: number;
  readonly txval: Minor;
  readonly iamt: Minor;
  readonly camt: Minor;
  readonly samt: Minor;
}

/** One item per tax rate, as the return wants it: the lines' figures summed exactly in paise. */
function byRate(lines: readonly InvoiceLine[]): RateRow[] {
  const rows = new Map<number, { rate: number; txval: Minor; iamt: Minor; camt: Minor; samt: Minor }>();
  for (const l of lines) {
    const r = rows.get(l.gstRate) ?? { rate: l.gstRate, txval: 0, iamt: 0, camt: 0, samt: 0 };
    r.txval += l.taxableValue;
    r.iamt += l.igst;
    r.camt += l.cgst;
    r.samt += l.sgst;
    rows.set(l.gstRate, r);
  }
  return [...rows.values()].sort((a, b) => a.rate - b.rate);
}

export interface Gstr1Export {
  readonly json: unknown;
  /** The B2B CSV (invoices). */
  readonly csv: string;
  /** The CDNR CSV (credit notes to registered recipients). */
  readonly cdnrCsv: string;
  /** The B2CL CSV (large inter-state invoices to unregistered recipients). */
  readonly b2clCsv: string;
  /** The B2CS CSV (every other supply to unregistered recipients, summed). */
  readonly b2csCsv: string;
  /** B2B invoices (table 4A). */
  readonly invoiceCount: number;
  /** Credit notes to registered recipients (table 9B). */
  readonly creditNoteCount: number;
  /** Invoices and credit notes to recipients not registered for GST, by the table that reports them. */
  readonly unregistered: { readonly b2cl: readonly string[]; readonly b2cs: readonly string[]; readonly cdnur: readonly string[] };
  /** Documents of the month voided at the IRP: numbers used, reported cancelled in table 13 (`doc_issue`), never in 4A or 9B. */
  readonly cancelled: readonly string[];
}

/** "30/2026-27/000042" → its series "30/2026-27/" (the number without its running digits). */
const seriesOf = (number: string): string => number.replace(/\d+$/, '');

/**
 * Table 13, documents issued during the period: per kind (1 invoices for outward supply,
 * 5 credit notes) and series, the first and last number, how many, how many cancelled and the
 * net issued, as the offline tool's `doc_issue.doc_det`.
 */
function documentsIssued(issued: readonly Invoice[], cancelled: readonly Invoice[]) {
  const all = [...issued.map((i) => ({ i, cancelled: false })), ...cancelled.map((i) => ({ i, cancelled: true }))];
  return [
    { doc_num: 1, of: all.filter((d) => !d.i.creditNoteFor) },
    { doc_num: 5, of: all.filter((d) => d.i.creditNoteFor) },
  ]
    .filter((k) => k.of.length > 0)
    .map((k) => {
      const bySeries = new Map<string, typeof k.of>();
      for (const d of k.of) bySeries.set(seriesOf(d.i.invoiceNumber!), [...(bySeries.get(seriesOf(d.i.invoiceNumber!)) ?? []), d]);
      return {
        doc_num: k.doc_num,
        docs: [...bySeries.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([, ds], n) => {
            const numbers = ds.map((d) => d.i.invoiceNumber!).sort();
            const cancel = ds.filter((d) => d.cancelled).length;
            return { num: n + 1, from: numbers[0], to: numbers[numbers.length - 1], totnum: ds.length, cancel, net_issue: ds.length - cancel };
          }),
      };
    });
}

/** The documents per recipient GSTIN, recipients and documents in number order. */
function byRecipient(docs: readonly Gstr1Invoice[]): [string, Gstr1Invoice[]][] {
  const map = new Map<string, Gstr1Invoice[]>();
  for (const d of [...docs].sort((a, b) => a.invoice.invoiceNumber!.localeCompare(b.invoice.invoiceNumber!)))
    map.set(d.invoice.billToGstin!, [...(map.get(d.invoice.billToGstin!) ?? []), d]);
  return [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
}

const itemsOf = (lines: readonly InvoiceLine[]) =>
  byRate(lines).map((r, n) => ({
    num: n + 1,
    itm_det: { rt: r.rate, txval: toRupees(r.txval), iamt: toRupees(r.iamt), camt: toRupees(r.camt), samt: toRupees(r.samt), csamt: 0 },
  }));

const cell = (v: string): string => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvOf = (header: readonly string[], rows: readonly string[][]): string =>
  `${[header, ...rows.map((r) => r.map(cell))].map((r) => r.join(',')).join('\n')}\n`;

/** `cancelled`: the month's documents voided at the IRP; with any, table 13 (`doc_issue`) reports the series with them counted as cancelled. */
export function gstr1Of(gstin: string, month: string, documents: readonly Gstr1Invoice[], cancelled: readonly Invoice[] = []): Gstr1Export {
  const { fp } = gstr1Period(month);
  const registered = documents.filter((d) => d.invoice.billToGstin !== null);
  const b2b = registered.filter((d) => !d.invoice.creditNoteFor);
  const cdnr = registered.filter((d) => d.invoice.creditNoteFor);
  const b2c = unregisteredOf(documents);
  const json = {
    gstin,
    fp,
    b2b: byRecipient(b2b).map(([ctin, docs]) => ({
      ctin,
      inv: docs.map(({ invoice: i, lines }) => ({
        inum: i.invoiceNumber,
        idt: portalDate(i.issueDate!),
        val: toRupees(i.total),
        pos: i.placeOfSupplyStateCode,
        rchrg: 'N',
        inv_typ: 'R',
        itms: itemsOf(lines),
      })),
    })),
    // Table 9B: a credit note's value and items are positive; ntty "C" says it reduces the supply.
    cdnr: byRecipient(cdnr).map(([ctin, docs]) => ({
      ctin,
      nt: docs.map(({ invoice: n, lines }) => ({
        ntty: 'C',
        nt_num: n.invoiceNumber,
        nt_dt: portalDate(n.issueDate!),
        val: toRupees(n.total),
        pos: n.placeOfSupplyStateCode,
        rchrg: 'N',
        inv_typ: 'R',
        itms: itemsOf(lines),
      })),
    })),
    ...(b2c.b2cl.length > 0 ? { b2cl: b2c.json.b2cl } : {}),
    ...(b2c.b2cs.length > 0 ? { b2cs: b2c.json.b2cs } : {}),
    ...(b2c.cdnur.length > 0 ? { cdnur: b2c.json.cdnur } : {}),
    ...(cancelled.length > 0
      ? {
          doc_issue: {
            doc_det: documentsIssued(
              documents.map((d) => d.invoice),
              cancelled,
            ),
          },
        }
      : {}),
  };
  const rowsOf = (docs: readonly Gstr1Invoice[], row: (d: Invoice, r: RateRow) => string[]) =>
    byRecipient(docs).flatMap(([, ds]) => ds.flatMap(({ invoice, lines }) => byRate(lines).map((r) => row(invoice, r))));
  const pos = (d: Invoice) => `${d.placeOfSupplyStateCode}-${d.placeOfSupply}`;
  return {
    json,
    csv: csvOf(
      [
        'GSTIN/UIN of Recipient',
        'Receiver Name',
        'Invoice Number',
        'Invoice date',
        'Invoice Value',
        'Place Of Supply',
        'Reverse Charge',
        'Applicable % of Tax Rate',
        'Invoice Type',
        'E-Commerce GSTIN',
        'Rate',
        'Taxable Value',
        'Cess Amount',
      ],
      rowsOf(b2b, (i, r) => [
        i.billToGstin!,
        i.billToName,
        i.invoiceNumber!,
        portalDateLong(i.issueDate!),
        formatRupees(i.total),
        pos(i),
        'N',
        '',
        'Regular B2B',
        '',
        String(r.rate),
        formatRupees(r.txval),
        '0.00',
      ]),
    ),
    cdnrCsv: csvOf(
      [
        'GSTIN/UIN of Recipient',
        'Receiver Name',
        'Note Number',
        'Note Date',
        'Note Type',
        'Place Of Supply',
        'Reverse Charge',
        'Note Supply Type',
        'Note Value',
        'Applicable % of Tax Rate',
        'Rate',
        'Taxable Value',
        'Cess Amount',
      ],
      rowsOf(cdnr, (n, r) => [
        n.billToGstin!,
        n.billToName,
        n.invoiceNumber!,
        portalDateLong(n.issueDate!),
        'C',
        pos(n),
        'N',
        'Regular B2B',
        formatRupees(n.total),
        '',
        String(r.rate),
        formatRupees(r.txval),
        '0.00',
      ]),
    ),
    b2clCsv: csvOf(
      [
        'Invoice Number',
        'Invoice date',
        'Invoice Value',
        'Place Of Supply',
        'Applicable % of Tax Rate',
        'Rate',
        'Taxable Value',
        'Cess Amount',
        'E-Commerce GSTIN',
      ],
      b2c.b2cl.flatMap(({ invoice: i, lines }) =>
        byRate(lines).map((r) => [
          i.invoiceNumber!,
          portalDateLong(i.issueDate!),
          formatRupees(i.total),
          pos(i),
          '',
          String(r.rate),
          formatRupees(r.txval),
          '0.00',
          '',
        ]),
      ),
    ),
    b2csCsv: csvOf(
      ['Type', 'Place Of Supply', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount', 'E-Commerce GSTIN'],
      b2c.b2csRows.map((r) => ['OE', `${r.pos}-${r.state}`, '', String(r.rt), formatRupees(r.txval), '0.00', '']),
    ),
    invoiceCount: b2b.length,
    creditNoteCount: cdnr.length,
    unregistered: { b2cl: numbersOf(b2c.b2cl), b2cs: numbersOf(b2c.b2cs), cdnur: numbersOf(b2c.cdnur) },
    cancelled: cancelled.map((i) => i.invoiceNumber!).sort(),
  };
}

const numbersOf = (docs: readonly Gstr1Invoice[]): string[] => docs.map((d) => d.invoice.invoiceNumber!).sort();

interface B2csRow {
  sply_ty: 'INTRA' | 'INTER';
  pos: string;
  state: string;
  rt: number;
  txval: Minor;
  iamt: Minor;
  camt: Minor;
  samt: Minor;
}

/**
 * The month's documents to recipients not registered for GST. An invoice is B2CL (table 5,
 * invoice by invoice, grouped by place of supply) when isB2cl; every other invoice is B2CS
 * (table 7), summed per supply type, place of supply and rate (`typ` OE: not through an
 * e-commerce operator). A credit note against a B2CL invoice is reported in `cdnur` (typ
 * B2CL); one against a B2CS invoice is netted into its B2CS row, as table 7 reports the
 * supplies net of their credit notes. A credit note whose invoice is not given is taken as
 * B2CS.
 */
function unregisteredOf(documents: readonly Gstr1Invoice[]) {
  const docs = [...documents].filter((d) => d.invoice.billToGstin === null).sort((a, b) => a.invoice.invoiceNumber!.localeCompare(b.invoice.invoiceNumber!));
  const invoices = docs.filter((d) => !d.invoice.creditNoteFor);
  const notes = docs.filter((d) => d.invoice.creditNoteFor);
  const b2cl = invoices.filter((d) => isB2cl(d.invoice));
  const cdnur = notes.filter((d) => d.original !== undefined && isB2cl(d.original));
  const b2cs = [...invoices.filter((d) => !isB2cl(d.invoice)), ...notes.filter((d) => !cdnur.includes(d))];
  const rows = new Map<string, B2csRow>();
  for (const { invoice: d, lines } of b2cs) {
    const sign = d.creditNoteFor ? -1 : 1;
    for (const r of byRate(lines)) {
      const sply_ty = interState(d) ? 'INTER' : 'INTRA';
      const key = `${sply_ty}|${d.placeOfSupplyStateCode}|${r.rate}`;
      const row = rows.get(key) ?? { sply_ty, pos: d.placeOfSupplyStateCode, state: d.placeOfSupply, rt: r.rate, txval: 0, iamt: 0, camt: 0, samt: 0 };
      row.txval += sign * r.txval;
      row.iamt += sign * r.iamt;
      row.camt += sign * r.camt;
      row.samt += sign * r.samt;
      rows.set(key, row);
    }
  }
  const b2csRows = [...rows.values()].sort((a, b) => a.sply_ty.localeCompare(b.sply_ty) || a.pos.localeCompare(b.pos) || a.rt - b.rt);
  const byPos = new Map<string, Gstr1Invoice[]>();
  for (const d of b2cl) byPos.set(d.invoice.placeOfSupplyStateCode, [...(byPos.get(d.invoice.placeOfSupplyStateCode) ?? []), d]);
  const igstItems = (lines: readonly InvoiceLine[]) =>
    byRate(lines).map((r, n) => ({ num: n + 1, itm_det: { rt: r.rate, txval: toRupees(r.txval), iamt: toRupees(r.iamt), csamt: 0 } }));
  return {
    b2cl,
    b2cs,
    cdnur,
    b2csRows,
    json: {
      b2cl: [...byPos.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([pos, ds]) => ({
          pos,
          inv: ds.map(({ invoice: i, lines }) => ({ inum: i.invoiceNumber, idt: portalDate(i.issueDate!), val: toRupees(i.total), itms: igstItems(lines) })),
        })),
      b2cs: b2csRows.map((r) => ({
        sply_ty: r.sply_ty,
        pos: r.pos,
        typ: 'OE',
        rt: r.rt,
        txval: toRupees(r.txval),
        iamt: toRupees(r.iamt),
        camt: toRupees(r.camt),
        samt: toRupees(r.samt),
        csamt: 0,
      })),
      // Table 9B for unregistered recipients: only notes against a B2CL invoice; values positive, ntty "C".
      cdnur: cdnur.map(({ invoice: n, lines }) => ({
        typ: 'B2CL',
        ntty: 'C',
        nt_num: n.invoiceNumber,
        nt_dt: portalDate(n.issueDate!),
        val: toRupees(n.total),
        pos: n.placeOfSupplyStateCode,
        itms: igstItems(lines),
      })),
    },
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The portal's CSV date: 12-Mar-2027. */
const portalDateLong = (isoDate: string): string => `${isoDate.slice(8, 10)}-${MONTHS[Number(isoDate.slice(5, 7)) - 1]}-${isoDate.slice(0, 4)}`;

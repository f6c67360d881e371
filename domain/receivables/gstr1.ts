import { CALENDAR_MONTH_RULE, isCalendarMonth } from '../catalogue/calendar.ts';
import { ValidationError } from '../errors.ts';
import type { Invoice, InvoiceLine } from '../invoicing/invoice.ts';
import { formatRupees, toRupees, type Minor } from '../money.ts';

/**
 * GSTR-1 for one supplier GSTIN and month, from stored figures (never re-priced): the B2B
 * invoices (table 4A, `b2b`) and the credit notes to registered recipients (table 9B,
 * `cdnr`) in the layout the GST portal's offline tool imports as JSON, and the same rows as
 * the portal's B2B and CDNR CSVs.
 */
export interface Gstr1Invoice {
  readonly invoice: Invoice;
  readonly lines: readonly InvoiceLine[];
}

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
  readonly invoiceCount: number;
  readonly creditNoteCount: number;
  /** Issued invoices and credit notes of the month without a recipient GSTIN: not B2B, left out of tables 4A and 9B. */
  readonly withoutRecipientGstin: readonly string[];
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
  for (const d of [...docs].sort((a, b) => a.invoice.invoiceNumber!.localeCompare(b.invoice.invoiceNumber!))) map.set(d.invoice.billToGstin!, [...(map.get(d.invoice.billToGstin!) ?? []), d]);
  return [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
}

const itemsOf = (lines: readonly InvoiceLine[]) =>
  byRate(lines).map((r, n) => ({ num: n + 1, itm_det: { rt: r.rate, txval: toRupees(r.txval), iamt: toRupees(r.iamt), camt: toRupees(r.camt), samt: toRupees(r.samt), csamt: 0 } }));

const cell = (v: string): string => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvOf = (header: readonly string[], rows: readonly string[][]): string => `${[header, ...rows.map((r) => r.map(cell))].map((r) => r.join(',')).join('\n')}\n`;

/** `cancelled`: the month's documents voided at the IRP; with any, table 13 (`doc_issue`) reports the series with them counted as cancelled. */
export function gstr1Of(gstin: string, month: string, documents: readonly Gstr1Invoice[], cancelled: readonly Invoice[] = []): Gstr1Export {
  const { fp } = gstr1Period(month);
  const registered = documents.filter((d) => d.invoice.billToGstin !== null);
  const b2b = registered.filter((d) => !d.invoice.creditNoteFor);
  const cdnr = registered.filter((d) => d.invoice.creditNoteFor);
  const json = {
    gstin,
    fp,
    b2b: byRecipient(b2b).map(([ctin, docs]) => ({
      ctin,
      inv: docs.map(({ invoice: i, lines }) => ({ inum: i.invoiceNumber, idt: portalDate(i.issueDate!), val: toRupees(i.total), pos: i.placeOfSupplyStateCode, rchrg: 'N', inv_typ: 'R', itms: itemsOf(lines) })),
    })),
    // Table 9B: a credit note's value and items are positive; ntty "C" says it reduces the supply.
    cdnr: byRecipient(cdnr).map(([ctin, docs]) => ({
      ctin,
      nt: docs.map(({ invoice: n, lines }) => ({ ntty: 'C', nt_num: n.invoiceNumber, nt_dt: portalDate(n.issueDate!), val: toRupees(n.total), pos: n.placeOfSupplyStateCode, rchrg: 'N', inv_typ: 'R', itms: itemsOf(lines) })),
    })),
    ...(cancelled.length > 0 ? { doc_issue: { doc_det: documentsIssued(documents.map((d) => d.invoice), cancelled) } } : {}),
  };
  const rowsOf = (docs: readonly Gstr1Invoice[], row: (d: Invoice, r: RateRow) => string[]) => byRecipient(docs).flatMap(([, ds]) => ds.flatMap(({ invoice, lines }) => byRate(lines).map((r) => row(invoice, r))));
  const pos = (d: Invoice) => `${d.placeOfSupplyStateCode}-${d.placeOfSupply}`;
  return {
    json,
    csv: csvOf(
      ['GSTIN/UIN of Recipient', 'Receiver Name', 'Invoice Number', 'Invoice date', 'Invoice Value', 'Place Of Supply', 'Reverse Charge', 'Applicable % of Tax Rate', 'Invoice Type', 'E-Commerce GSTIN', 'Rate', 'Taxable Value', 'Cess Amount'],
      rowsOf(b2b, (i, r) => [i.billToGstin!, i.billToName, i.invoiceNumber!, portalDateLong(i.issueDate!), formatRupees(i.total), pos(i), 'N', '', 'Regular B2B', '', String(r.rate), formatRupees(r.txval), '0.00']),
    ),
    cdnrCsv: csvOf(
      ['GSTIN/UIN of Recipient', 'Receiver Name', 'Note Number', 'Note Date', 'Note Type', 'Place Of Supply', 'Reverse Charge', 'Note Supply Type', 'Note Value', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount'],
      rowsOf(cdnr, (n, r) => [n.billToGstin!, n.billToName, n.invoiceNumber!, portalDateLong(n.issueDate!), 'C', pos(n), 'N', 'Regular B2B', formatRupees(n.total), '', String(r.rate), formatRupees(r.txval), '0.00']),
    ),
    invoiceCount: b2b.length,
    creditNoteCount: cdnr.length,
    withoutRecipientGstin: documents.filter((d) => d.invoice.billToGstin === null).map((d) => d.invoice.invoiceNumber!),
    cancelled: cancelled.map((i) => i.invoiceNumber!).sort(),
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The portal's CSV date: 12-Mar-2027. */
const portalDateLong = (isoDate: string): string => `${isoDate.slice(8, 10)}-${MONTHS[Number(isoDate.slice(5, 7)) - 1]}-${isoDate.slice(0, 4)}`;

import { expect } from 'vitest';
import type { EInvoicePayload } from '../../domain/invoicing/e-invoice.ts';
import type { Invoice, InvoiceLine } from '../../domain/invoicing/invoice.ts';
import { gstr1Of } from '../../domain/receivables/gstr1.ts';

/**
 * One registered document's figures three ways, in paise: what was sent to the IRP
 * (`ValDtls` and the items, per GST rate), what the books hold (the stored record and its
 * lines) and its GSTR-1 row (b2b for an invoice, cdnr for a credit note to a registered
 * recipient, cdnur otherwise). A test expects the three to be equal; any paisa apart shows.
 */
export interface DocumentFigures {
  readonly taxable: number;
  readonly cgst: number;
  readonly sgst: number;
  readonly igst: number;
  readonly total: number;
  /** Per GST rate: taxable value and the three taxes. */
  readonly byRate: Readonly<Record<string, readonly [number, number, number, number]>>;
}

export const paise = (rupees: number): number => Math.round(rupees * 100);

function perRate(rows: readonly { rate: number; taxable: number; cgst: number; sgst: number; igst: number }[]): DocumentFigures['byRate'] {
  const out: Record<string, [number, number, number, number]> = {};
  for (const r of rows) {
    const t = (out[String(r.rate)] ??= [0, 0, 0, 0]);
    t[0] += r.taxable;
    t[1] += r.cgst;
    t[2] += r.sgst;
    t[3] += r.igst;
  }
  return out;
}

/** What the IRP was sent. Also checks the items add up to ValDtls, with no discount after tax. */
export function sentFigures(sent: EInvoicePayload): DocumentFigures & { readonly discount: number; readonly itemsTotal: number } {
  const v = sent.ValDtls;
  return {
    taxable: paise(v.AssVal),
    cgst: paise(v.CgstVal),
    sgst: paise(v.SgstVal),
    igst: paise(v.IgstVal),
    total: paise(v.TotInvVal),
    discount: paise(v.Discount),
    itemsTotal: sent.ItemList.reduce((s, i) => s + paise(i.TotItemVal), 0),
    byRate: perRate(
      sent.ItemList.map((i) => ({ rate: i.GstRt, taxable: paise(i.AssAmt), cgst: paise(i.CgstAmt), sgst: paise(i.SgstAmt), igst: paise(i.IgstAmt) })),
    ),
  };
}

/** What the books hold: the record's totals, and its lines per rate (which must add up to them). */
export function bookFigures(record: Invoice, lines: readonly InvoiceLine[]): DocumentFigures & { readonly discount: number; readonly itemsTotal: number } {
  return {
    taxable: record.subtotal,
    cgst: record.cgst,
    sgst: record.sgst,
    igst: record.igst,
    total: record.total,
    discount: 0,
    itemsTotal: lines.reduce((s, l) => s + l.lineTotal, 0),
    byRate: perRate(lines.map((l) => ({ rate: l.gstRate, taxable: l.taxableValue, cgst: l.cgst, sgst: l.sgst, igst: l.igst }))),
  };
}

interface Gstr1Row {
  readonly val: number;
  readonly itms: readonly {
    readonly itm_det: { readonly rt: number; readonly txval: number; readonly iamt: number; readonly camt: number; readonly samt: number };
  }[];
}

/** The document's row of the GSTR-1 export of its month (b2b, cdnr or cdnur), and which table it is in. */
export function gstr1Row(record: Invoice, lines: readonly InvoiceLine[]): { readonly table: 'b2b' | 'cdnr' | 'cdnur'; readonly row: Gstr1Row } {
  const json = gstr1Of(record.supplierGstin, record.issueDate!.slice(0, 7), [{ invoice: record, lines }]).json as {
    b2b: { inv: (Gstr1Row & { inum: string })[] }[];
    cdnr: { nt: (Gstr1Row & { nt_num: string })[] }[];
    cdnur?: (Gstr1Row & { nt_num: string })[];
  };
  const b2b = json.b2b.flatMap((r) => r.inv).find((r) => r.inum === record.invoiceNumber);
  if (b2b) return { table: 'b2b', row: b2b };
  const cdnr = json.cdnr.flatMap((r) => r.nt).find((r) => r.nt_num === record.invoiceNumber);
  if (cdnr) return { table: 'cdnr', row: cdnr };
  const cdnur = (json.cdnur ?? []).find((r) => r.nt_num === record.invoiceNumber);
  if (cdnur) return { table: 'cdnur', row: cdnur };
  throw new Error(`${record.invoiceNumber} is in no b2b, cdnr or cdnur row of its GSTR-1 export`);
}

/** The GSTR-1 row's figures: its value and its items per rate (a row carries no tax totals of its own). */
export function gstr1Figures(row: Gstr1Row): DocumentFigures {
  const byRate = perRate(
    row.itms.map(({ itm_det: i }) => ({ rate: i.rt, taxable: paise(i.txval), cgst: paise(i.camt), sgst: paise(i.samt), igst: paise(i.iamt) })),
  );
  const sum = (k: number) => Object.values(byRate).reduce((s, r) => s + r[k]!, 0);
  return { taxable: sum(0), cgst: sum(1), sgst: sum(2), igst: sum(3), total: paise(row.val), byRate };
}

/**
 * The three-way check: the books add up (lines to the record), and the e-invoice sent and the
 * GSTR-1 row each equal them, to the paisa, in total and per rate. `table`: where GSTR-1 must
 * report the document.
 */
export function expectFiguresAgree(record: Invoice, lines: readonly InvoiceLine[], sent: EInvoicePayload, table: 'b2b' | 'cdnr' | 'cdnur'): void {
  const books = bookFigures(record, lines);
  const rates = Object.values(books.byRate);
  expect([books.itemsTotal, rates.reduce((s, r) => s + r[0], 0)], `${record.invoiceNumber}: its lines add up to the record`).toEqual([
    books.total,
    books.taxable,
  ]);
  expect(sentFigures(sent), `${record.invoiceNumber}: the e-invoice sent equals the books`).toEqual(books);
  const row = gstr1Row(record, lines);
  expect(row.table, `${record.invoiceNumber}: its GSTR-1 table`).toBe(table);
  const { itemsTotal: _items, discount: _discount, ...reported } = books;
  expect(gstr1Figures(row.row), `${record.invoiceNumber}: its GSTR-1 row equals the books`).toEqual(reported);
}

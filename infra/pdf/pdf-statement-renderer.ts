import { printedDate } from '../../domain/invoicing/invoice-document.ts';
import type { LedgerEntryView, StatementView } from '../../domain/ledger/read-ledger.ts';
import { formatIndianGrouping, formatInr, type Minor } from '../../domain/money.ts';
import type { StatementHolder, StatementRenderer } from '../../domain/ports/statement-renderer.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import {
  A4,
  ACCENT,
  type Align,
  CELL_PAD,
  CONTENT_WIDTH,
  drawFooters,
  drawPairs,
  drawTableHeader,
  HEADER_FILL,
  INK,
  Layout,
  MARGIN,
  MUTED,
  startPdf,
  TABLE_LEADING,
  TABLE_SIZE,
  wrap,
} from './pdf-layout.ts';

const paise = (rupees: number): Minor => Math.round(rupees * 100);
/** An instant as the India date it falls on, DD-MM-YYYY. */
const indiaDate = (instant: string): string => printedDate(indiaToday(new Date(instant)));

/** One printed row: the statement's balance rows and its entries alike. */
interface Row {
  readonly date: string;
  /** Type, then (muted) the status of an entry that is not in the balance. */
  readonly type: readonly string[];
  /** The partner's booking reference, then (muted) the property-system booking id. */
  readonly reference: readonly string[];
  readonly description: string;
  readonly debit: string;
  readonly credit: string;
  readonly balance: string;
  /** AUTHORIZED and RELEASED entries: listed, counted in neither balance, so printed muted. */
  readonly outside: boolean;
  readonly strong: boolean;
}

interface Column {
  readonly title: string;
  readonly width: number;
  readonly align: Align;
}

const FIXED: Column[] = [
  { title: 'Date', width: 50, align: 'left' },
  { title: 'Type', width: 62, align: 'left' },
  { title: 'Reference', width: 92, align: 'left' },
];
const MONEY: Column[] = [
  { title: 'Debit (₹)', width: 64, align: 'right' },
  { title: 'Credit (₹)', width: 64, align: 'right' },
  { title: 'Balance (₹)', width: 72, align: 'right' },
];
const DESCRIPTION: Column = {
  title: 'Description',
  width: CONTENT_WIDTH - [...FIXED, ...MONEY].reduce((s, c) => s + c.width, 0),
  align: 'left',
};
const COLUMNS: Column[] = [...FIXED, DESCRIPTION, ...MONEY];

const STATUS_NOTE = { AUTHORIZED: 'Authorized,', RELEASED: 'Released,', POSTED: '' } as const;

/**
 * The rows the statement prints, and the posted debits and credits: the same arithmetic as
 * the CSV (ledger-csv.ts statementCsv), in paise. A positive amount grows what the group owes
 * (a debit), a negative one shrinks it (a credit); only POSTED entries move the balance.
 */
export function statementRows(s: StatementView): { rows: Row[]; debits: Minor; credits: Minor } {
  let running = paise(s.openingBalance);
  let debits = 0;
  let credits = 0;
  const balanceRow = (at: string, label: string, amount: number): Row => ({
    date: indiaDate(at),
    type: [],
    reference: [],
    description: label,
    debit: '',
    credit: '',
    balance: formatIndianGrouping(paise(amount)),
    outside: false,
    strong: true,
  });
  const entryRow = (e: LedgerEntryView): Row => {
    const amount = paise(e.amount);
    const posted = e.status === 'POSTED';
    if (posted) {
      running += amount;
      if (amount > 0) debits += amount;
      else credits -= amount;
    }
    return {
      date: indiaDate(e.occurredAt),
      type: [e.type, ...(posted ? [] : [STATUS_NOTE[e.status], 'not in balance'])],
      reference: [e.externalBookingId, e.bookingId].filter((r): r is string => r !== null && r !== ''),
      description: e.description,
      debit: amount > 0 ? formatIndianGrouping(amount) : '',
      credit: amount < 0 ? formatIndianGrouping(-amount) : '',
      balance: formatIndianGrouping(running),
      outside: !posted,
      strong: false,
    };
  };
  const rows = [balanceRow(s.from, 'Opening balance', s.openingBalance), ...s.entries.map(entryRow), balanceRow(s.to, 'Closing balance', s.closingBalance)];
  if (running !== paise(s.closingBalance)) {
    throw new Error(
      `statement ${s.from}–${s.to}: opening ${s.openingBalance} plus the posted entries is ${running / 100}, not the closing ${s.closingBalance}`,
    );
  }
  return { rows, debits, credits };
}

function drawHeader(layout: Layout, s: StatementView, holder: StatementHolder, debits: Minor, credits: Minor): void {
  const { bold, regular } = layout.fonts;
  layout.text('ACCOUNT STATEMENT', MARGIN, layout.y - 18, { font: bold, size: 18, color: ACCENT });
  layout.aligned(`${indiaDate(s.from)} to ${indiaDate(s.to)}`, MARGIN, layout.y - 16, CONTENT_WIDTH, 'right', bold, 10);
  layout.y -= 28;
  layout.rule(layout.y, MARGIN, A4.width - MARGIN, 1.2, ACCENT);
  layout.y -= 6;

  const half = (CONTENT_WIDTH - 24) / 2;
  const right = MARGIN + half + 24;
  let y = layout.y - 8;
  layout.text('ACCOUNT', MARGIN, y, { font: bold, size: 7, color: MUTED });
  y -= 13;
  for (const piece of wrap(holder.name, bold, 10, half)) {
    layout.text(piece, MARGIN, y, { font: bold, size: 10 });
    y -= 13;
  }
  layout.text(holder.gstin === null ? 'GSTIN: not on file' : `GSTIN: ${holder.gstin}`, MARGIN, y, { size: 8.5 });
  y -= 12;
  layout.text(`Period (India dates): ${indiaDate(s.from)} to ${indiaDate(s.to)}`, MARGIN, y, { size: 8.5, color: MUTED });
  y -= 12;
  const holderHeight = layout.y - y;

  layout.text('SUMMARY', right, layout.y - 8, { font: bold, size: 7, color: MUTED });
  const summary: [string, string][] = [
    ['Opening balance', formatInr(paise(s.openingBalance))],
    ['Debits (posted)', formatInr(debits)],
    ['Credits (posted)', formatInr(credits)],
    ['Closing balance', formatInr(paise(s.closingBalance))],
  ];
  const summaryHeight = 12 + drawPairs(layout, right, layout.y - 12, half, summary, { boldLast: true });
  const live: [string, string][] = [
    ['Credit limit (at printing)', formatInr(paise(s.creditLimit))],
    ['Available credit (at printing)', formatInr(paise(s.availableCredit))],
  ];
  const liveHeight = drawPairs(layout, right, layout.y - summaryHeight - 4, half, live, { size: 7.5 });
  layout.y -= Math.max(holderHeight, summaryHeight + 4 + liveHeight) + 8;
  const note =
    'Amounts in rupees, signed from your side: a debit grows what you owe, a credit shrinks it. Entries authorized or released in the period are listed but count in neither balance.';
  for (const piece of wrap(note, regular, 7.5, CONTENT_WIDTH)) {
    layout.text(piece, MARGIN, layout.y - 8, { size: 7.5, color: MUTED });
    layout.y -= 10;
  }
  layout.y -= 6;
}

function drawRows(layout: Layout, rows: readonly Row[]): void {
  const { regular, bold } = layout.fonts;
  const header = () => drawTableHeader(layout, COLUMNS);
  header();
  for (const row of rows) {
    const font = row.strong ? bold : regular;
    const description = wrap(row.description, font, TABLE_SIZE, DESCRIPTION.width - 2 * CELL_PAD);
    const cells: (readonly string[])[] = [[row.date], row.type, row.reference, description, [row.debit], [row.credit], [row.balance]];
    const rowHeight = Math.max(...cells.map((c) => c.length)) * TABLE_LEADING + 5;
    layout.ensure(rowHeight, header);
    if (row.strong) layout.page.drawRectangle({ x: MARGIN, y: layout.y - rowHeight, width: CONTENT_WIDTH, height: rowHeight, color: HEADER_FILL });
    let x = MARGIN;
    COLUMNS.forEach((c, ci) => {
      cells[ci]!.forEach((piece, li) => {
        // A type's status note and a reference's booking id are secondary: muted, a little smaller.
        const secondary = li > 0 && (ci === 1 || ci === 2);
        const color = row.outside || secondary ? MUTED : INK;
        layout.aligned(
          piece,
          x + CELL_PAD,
          layout.y - 9 - li * TABLE_LEADING,
          c.width - 2 * CELL_PAD,
          c.align,
          font,
          secondary ? TABLE_SIZE - 0.5 : TABLE_SIZE,
          color,
        );
      });
      x += c.width;
    });
    layout.y -= rowHeight;
    layout.rule(layout.y, MARGIN, A4.width - MARGIN, 0.3);
  }
}

/**
 * `GET /v1/statement` as a PDF on A4: the account and period, a summary (opening balance,
 * posted debits and credits, closing balance), then one row per entry oldest first between
 * the opening and closing balance rows, with the balance after each, across as many pages as
 * the period needs (the table's header again on each). Pure rendering of the statement's own
 * figures, the CSV's arithmetic, so every amount equals the JSON's; it shows nothing the JSON
 * does not (booking references, never a guest). Indian formats: digit grouping, DD-MM-YYYY.
 */
export class PdfStatementRenderer implements StatementRenderer {
  async render(s: StatementView, holder: StatementHolder): Promise<Uint8Array> {
    const { rows, debits, credits } = statementRows(s);
    const period = `${indiaDate(s.from)} to ${indiaDate(s.to)}`;
    const title = `Account statement ${period}`;
    const { pdf, fonts } = await startPdf({ title, author: holder.name, subject: `${title} for ${holder.name}`, at: new Date(s.to) });
    const subtitle = holder.gstin === null ? holder.name : `${holder.name} · GSTIN ${holder.gstin}`;
    const layout = new Layout(pdf, fonts, { title, subtitle });
    drawHeader(layout, s, holder, debits, credits);
    drawRows(layout, rows);
    drawFooters(layout, subtitle, title);
    return pdf.save();
  }
}

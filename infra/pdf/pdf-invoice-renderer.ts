import { rgb, type PDFPage } from 'pdf-lib';
import encodeQR from 'qr';
import {
  amountInWordsINR,
  checkInvoiceDocument,
  documentTitle,
  isIntraState,
  printedDate,
  statutoryNotes,
  taxSummaryByRate,
  type InvoiceDocument,
  type InvoiceDocumentLine,
} from '../../domain/invoicing/invoice-document.ts';
import { formatIndianGrouping, formatInr } from '../../domain/money.ts';
import type { InvoiceRenderer } from '../../domain/ports/invoice-renderer.ts';
import {
  A4,
  ACCENT,
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

interface Column {
  readonly title: string;
  readonly width: number;
  readonly align: 'left' | 'right' | 'center';
  readonly cell: (line: InvoiceDocumentLine, index: number) => string;
}

const rateLabel = (rate: number, intra: boolean): string => (intra ? `${rate / 2}%+${rate / 2}%` : `${rate}%`);

const nightLabel = (line: InvoiceDocumentLine): string =>
  line.nightDate !== undefined ? printedDate(line.nightDate) : `${printedDate(line.checkIn!)}\nto ${printedDate(line.checkOut!)}`;

/** The line table's columns; intra-state documents show CGST and SGST, inter-state IGST. */
function columns(intra: boolean): Column[] {
  const money = (pick: (l: InvoiceDocumentLine) => number) => (l: InvoiceDocumentLine) => formatIndianGrouping(pick(l));
  const fixed: Column[] = [
    { title: '#', width: 22, align: 'right', cell: (_l, i) => String(i + 1) },
    { title: 'SAC', width: 36, align: 'left', cell: (l) => l.sac },
  ];
  const taxes: Column[] = intra
    ? [
        { title: 'CGST', width: 54, align: 'right', cell: money((l) => l.cgst) },
        { title: 'SGST', width: 54, align: 'right', cell: money((l) => l.sgst) },
      ]
    : [{ title: 'IGST', width: 62, align: 'right', cell: money((l) => l.igst) }];
  const rest: Column[] = [
    { title: 'Night', width: 56, align: 'left', cell: nightLabel },
    { title: 'Qty', width: 24, align: 'right', cell: (l) => String(l.quantity) },
    { title: 'Taxable value', width: 64, align: 'right', cell: money((l) => l.taxableValue) },
    { title: 'GST rate', width: intra ? 50 : 44, align: 'right', cell: (l) => rateLabel(l.gstRate, intra) },
    ...taxes,
    { title: 'Total', width: 64, align: 'right', cell: money((l) => l.lineTotal) },
  ];
  const used = [...fixed, ...rest].reduce((s, c) => s + c.width, 0);
  const description: Column = { title: 'Description', width: CONTENT_WIDTH - used, align: 'left', cell: (l) => l.description };
  return [...fixed, description, ...rest];
}

/** A labelled block of wrapped lines; returns its height. */
function drawBlock(layout: Layout, x: number, top: number, width: number, label: string, lines: { text: string; bold?: boolean; muted?: boolean }[]): number {
  const { regular, bold } = layout.fonts;
  let y = top - 8;
  layout.text(label.toUpperCase(), x, y, { font: bold, size: 7, color: MUTED });
  y -= 12;
  for (const l of lines) {
    const font = l.bold ? bold : regular;
    const size = l.bold ? 10 : 8.5;
    for (const piece of wrap(l.text, font, size, width)) {
      layout.text(piece, x, y, { font, size, color: l.muted ? MUTED : INK });
      y -= size + 3;
    }
  }
  return top - y;
}

function drawHeader(layout: Layout, doc: InvoiceDocument): void {
  const { bold } = layout.fonts;
  const title = documentTitle(doc);
  layout.text(title.toUpperCase(), MARGIN, layout.y - 18, { font: bold, size: 18, color: ACCENT });
  layout.aligned('Original for recipient', MARGIN, layout.y - 16, CONTENT_WIDTH, 'right', layout.fonts.regular, 8, MUTED);
  layout.y -= 28;
  layout.rule(layout.y, MARGIN, A4.width - MARGIN, 1.2, ACCENT);
  layout.y -= 6;

  const half = (CONTENT_WIDTH - 24) / 2;
  const right = MARGIN + half + 24;
  // Rule 46(d) for a registered recipient (its GSTIN); 46(e) for an unregistered one (its State and code).
  const party = (p: InvoiceDocument['recipient']) => [
    { text: p.name, bold: true },
    { text: p.address },
    { text: p.gstin === null ? 'GSTIN: not registered for GST (unregistered person)' : `GSTIN: ${p.gstin}` },
    { text: p.stateCode ? `State: ${p.state} (code ${p.stateCode})` : 'State: as in the address', muted: true },
  ];
  const supplierHeight = drawBlock(layout, MARGIN, layout.y, half, 'Supplier', party(doc.supplier));
  const numberLabel = doc.kind === 'TAX_INVOICE' ? 'Invoice number' : 'Credit note number';
  const dateLabel = doc.kind === 'TAX_INVOICE' ? 'Invoice date' : 'Credit note date';
  const details: [string, string][] = [
    [numberLabel, doc.number],
    [dateLabel, printedDate(doc.issueDate)],
    ...(doc.kind === 'TAX_INVOICE'
      ? ([['Due date', printedDate(doc.dueDate)]] as [string, string][])
      : ([
          ['Against invoice', doc.originalInvoice.number],
          ['Invoice date', printedDate(doc.originalInvoice.date)],
        ] as [string, string][])),
    ['Billing period', `${printedDate(doc.periodFrom)} to ${printedDate(doc.periodTo)}`],
    ['Place of supply', `${doc.placeOfSupply.state} (${doc.placeOfSupply.stateCode})`],
    ['Reverse charge', 'No'],
  ];
  layout.text('DOCUMENT', right, layout.y - 8, { font: bold, size: 7, color: MUTED });
  const detailsHeight = 12 + drawPairs(layout, right, layout.y - 12, half, details);
  layout.y -= Math.max(supplierHeight, detailsHeight) + 8;
  layout.rule(layout.y);
  layout.y -= 4;

  const recipientHeight = drawBlock(layout, MARGIN, layout.y, half, 'Bill to (recipient)', party(doc.recipient));
  const eInvoiceHeight = doc.eInvoice ? drawEInvoice(layout, doc.eInvoice, right, layout.y, half) : 0;
  layout.y -= Math.max(recipientHeight, eInvoiceHeight) + 10;
}

/** Printed side of the signed QR code (with its 4-module quiet zone): about 4.2 cm, which phone scanners read from paper. */
const QR_SIZE = 120;

/**
 * The signed QR code as vector modules: each row's runs of dark modules are one rectangle,
 * so the code stays sharp at any zoom and costs a few thousand drawing operators at most.
 * Medium error correction, as the IRP's own print formats use.
 */
function drawQr(page: PDFPage, text: string, x: number, top: number, size: number): void {
  const modules = encodeQR(text, 'raw', { ecc: 'medium', border: 4 });
  const m = size / modules.length;
  modules.forEach((row, r) => {
    let c = 0;
    while (c < row.length) {
      if (!row[c]) {
        c++;
        continue;
      }
      const start = c;
      while (c < row.length && row[c]) c++;
      page.drawRectangle({ x: x + start * m, y: top - (r + 1) * m, width: (c - start) * m, height: m, color: rgb(0, 0, 0) });
    }
  });
}

/** The IRP's registration beside the recipient: IRN, acknowledgement and the signed QR code. */
function drawEInvoice(layout: Layout, e: NonNullable<InvoiceDocument['eInvoice']>, x: number, top: number, width: number): number {
  drawQr(layout.page, e.signedQr, x + width - QR_SIZE, top - 4, QR_SIZE);
  const textHeight = drawBlock(layout, x, top, width - QR_SIZE - 8, 'e-Invoice (IRN)', [
    { text: e.irn },
    { text: `Ack. No: ${e.ackNo}` },
    { text: `Ack. date: ${e.ackDate}` },
    { text: 'Signed QR code issued by the IRP', muted: true },
  ]);
  return Math.max(textHeight, QR_SIZE + 4);
}

function drawLines(layout: Layout, doc: InvoiceDocument, cols: Column[]): void {
  const { regular } = layout.fonts;
  drawTableHeader(layout, cols);
  doc.lines.forEach((line, i) => {
    const cells = cols.map((c) => {
      const value = c.cell(line, i);
      if (c.title !== 'Description') return value.split('\n');
      const secondary = [line.propertyName, line.bookingId ? `Booking ${line.bookingId}` : undefined].filter((s): s is string => s !== undefined);
      return [
        ...wrap(value, regular, TABLE_SIZE, c.width - 2 * CELL_PAD),
        ...secondary.flatMap((s) => wrap(s, regular, TABLE_SIZE - 0.5, c.width - 2 * CELL_PAD)),
      ];
    });
    const descriptionLines = wrap(line.description, regular, TABLE_SIZE, cols[2]!.width - 2 * CELL_PAD).length;
    const rowHeight = Math.max(...cells.map((c) => c.length)) * TABLE_LEADING + 5;
    layout.ensure(rowHeight, () => drawTableHeader(layout, cols));
    let x = MARGIN;
    cols.forEach((c, ci) => {
      cells[ci]!.forEach((piece, li) => {
        const muted = c.title === 'Description' && li >= descriptionLines;
        layout.aligned(
          piece,
          x + CELL_PAD,
          layout.y - 9 - li * TABLE_LEADING,
          c.width - 2 * CELL_PAD,
          c.align,
          regular,
          muted ? TABLE_SIZE - 0.5 : TABLE_SIZE,
          muted ? MUTED : INK,
        );
      });
      x += c.width;
    });
    layout.y -= rowHeight;
    layout.rule(layout.y, MARGIN, A4.width - MARGIN, 0.3);
  });
}

function drawTaxSummary(layout: Layout, doc: InvoiceDocument, intra: boolean): number {
  const rows = taxSummaryByRate(doc.lines);
  const titles = intra ? ['GST rate', 'Taxable value', 'CGST', 'SGST'] : ['GST rate', 'Taxable value', 'IGST'];
  const width = 290;
  const colWidth = width / titles.length;
  const top = layout.y;
  layout.text('TAX SUMMARY (SAC 996311)', MARGIN, layout.y - 8, { font: layout.fonts.bold, size: 7, color: MUTED });
  layout.y -= 12;
  layout.page.drawRectangle({ x: MARGIN, y: layout.y - 13, width, height: 13, color: HEADER_FILL });
  titles.forEach((t, i) =>
    layout.aligned(t, MARGIN + i * colWidth + CELL_PAD, layout.y - 9.5, colWidth - 2 * CELL_PAD, i === 0 ? 'left' : 'right', layout.fonts.bold, 7),
  );
  layout.y -= 13;
  for (const r of rows) {
    const values = [
      rateLabel(r.gstRate, intra),
      formatIndianGrouping(r.taxableValue),
      ...(intra ? [formatIndianGrouping(r.cgst), formatIndianGrouping(r.sgst)] : [formatIndianGrouping(r.igst)]),
    ];
    values.forEach((v, i) =>
      layout.aligned(v, MARGIN + i * colWidth + CELL_PAD, layout.y - 9.5, colWidth - 2 * CELL_PAD, i === 0 ? 'left' : 'right', layout.fonts.regular, 7.5),
    );
    layout.y -= 13;
    layout.rule(layout.y, MARGIN, MARGIN + width, 0.3);
  }
  const height = top - layout.y;
  layout.y = top;
  return height;
}

function drawTotals(layout: Layout, doc: InvoiceDocument, intra: boolean): void {
  const t = doc.totals;
  const pairs: [string, string][] = [
    ['Taxable value', formatInr(t.taxableValue)],
    ...(intra
      ? ([
          ['CGST', formatInr(t.cgst)],
          ['SGST', formatInr(t.sgst)],
        ] as [string, string][])
      : ([['IGST', formatInr(t.igst)]] as [string, string][])),
    ...(t.discount > 0 ? ([['Discount', `-${formatInr(t.discount)}`]] as [string, string][]) : []),
    [doc.kind === 'TAX_INVOICE' ? 'Invoice total' : 'Credit note total', formatInr(t.total)],
  ];
  const summaryRows = taxSummaryByRate(doc.lines).length;
  const needed = Math.max(12 + 13 * (summaryRows + 1), pairs.length * 14.5) + 80;
  layout.ensure(needed);
  layout.y -= 10;
  const boxWidth = 200;
  const summaryHeight = drawTaxSummary(layout, doc, intra);
  const totalsHeight = drawPairs(layout, A4.width - MARGIN - boxWidth, layout.y, boxWidth, pairs.slice(0, -1), { size: 8.5 });
  const grandTop = layout.y - totalsHeight - 4;
  layout.page.drawRectangle({ x: A4.width - MARGIN - boxWidth - 6, y: grandTop - 20, width: boxWidth + 6, height: 20, color: HEADER_FILL });
  const [grandLabel, grandValue] = pairs[pairs.length - 1]!;
  layout.text(grandLabel, A4.width - MARGIN - boxWidth, grandTop - 14, { font: layout.fonts.bold, size: 10 });
  layout.aligned(grandValue, A4.width - MARGIN - boxWidth + 90, grandTop - 14, boxWidth - 94, 'right', layout.fonts.bold, 10);
  layout.y -= Math.max(summaryHeight, totalsHeight + 24) + 12;

  const words = `Amount in words: ${amountInWordsINR(t.total)}`;
  const wordLines = wrap(words, layout.fonts.bold, 8.5, CONTENT_WIDTH);
  layout.ensure(wordLines.length * 12 + 4);
  for (const l of wordLines) {
    layout.text(l, MARGIN, layout.y - 9, { font: layout.fonts.bold, size: 8.5 });
    layout.y -= 12;
  }
  layout.y -= 6;
}

function drawNotesAndSignature(layout: Layout, doc: InvoiceDocument): void {
  const notes = statutoryNotes(doc).flatMap((n) => wrap(`• ${n}`, layout.fonts.regular, 7.5, CONTENT_WIDTH - 200));
  const signatureHeight = 58;
  layout.ensure(Math.max(notes.length * 10 + 14, signatureHeight));
  layout.rule(layout.y);
  const top = layout.y;
  layout.text('NOTES', MARGIN, layout.y - 10, { font: layout.fonts.bold, size: 7, color: MUTED });
  let y = layout.y - 22;
  for (const n of notes) {
    layout.text(n, MARGIN, y, { size: 7.5, color: INK });
    y -= 10;
  }
  const sx = A4.width - MARGIN - 180;
  layout.aligned(`For ${doc.supplier.name}`, sx, top - 12, 180, 'right', layout.fonts.bold, 8.5);
  layout.aligned('Authorised signatory', sx, top - 48, 180, 'right', layout.fonts.regular, 8, MUTED);
  layout.aligned('Computer-generated document; no signature required.', sx, top - 58, 180, 'right', layout.fonts.regular, 6.5, MUTED);
  layout.y = Math.min(y, top - signatureHeight - 4);
}

/** A PDF date fixed by the document (midnight India time on its issue date), so a re-render is byte-identical. */
const documentInstant = (isoDate: string): Date => new Date(`${isoDate}T00:00:00+05:30`);

/**
 * A GST tax invoice / credit note on A4 with pdf-lib, in DejaVu Sans for the ₹ sign
 * (pdf-layout.ts: the fonts, pages and tables it shares with the statement).
 */
export class PdfInvoiceRenderer implements InvoiceRenderer {
  async render(doc: InvoiceDocument): Promise<Uint8Array> {
    checkInvoiceDocument(doc);
    const title = `${documentTitle(doc)} ${doc.number}`;
    const { pdf, fonts } = await startPdf({
      title,
      author: doc.supplier.name,
      subject: `${title} to ${doc.recipient.name}`,
      at: documentInstant(doc.issueDate),
    });

    const intra = isIntraState(doc);
    const layout = new Layout(pdf, fonts, { title, subtitle: `${doc.supplier.name} · GSTIN ${doc.supplier.gstin}` });
    drawHeader(layout, doc);
    drawLines(layout, doc, columns(intra));
    drawTotals(layout, doc, intra);
    drawNotesAndSignature(layout, doc);
    drawFooters(layout, `${doc.supplier.name} · GSTIN ${doc.supplier.gstin}`, title);
    return pdf.save();
  }
}

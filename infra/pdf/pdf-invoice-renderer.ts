import { readFile } from 'node:fs/promises';
import { createRequire as moduleRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
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

/**
 * A GST tax invoice / credit note on A4 with pdf-lib. The standard PDF fonts cannot encode
 * ₹, so DejaVu Sans (regular and bold) from `dejavu-fonts-ttf` is embedded, subset to the
 * glyphs used. The font files are read from the package at run time: under tsx and vitest
 * from node_modules, in a Lambda artifact from the copy serverless.yml packages beside the
 * bundle (`custom.pdfFontPatterns`); `scripts/check-packaged-fonts.ts` proves the latter.
 */
export const FONT_PACKAGE_DIR = 'dejavu-fonts-ttf/ttf/';
export const FONT_FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

/** Where a font file is for code running from `fromUrl` (a module's import.meta.url). */
export function fontPath(file: string, fromUrl: string = import.meta.url): string {
  return moduleRequire(fromUrl).resolve(`${FONT_PACKAGE_DIR}${file}`);
}

let fontBytes: Promise<{ regular: Uint8Array; bold: Uint8Array }> | undefined;

/** Read once per process (a warm Lambda renders many documents). */
function loadFonts(): Promise<{ regular: Uint8Array; bold: Uint8Array }> {
  fontBytes ??= Promise.all([readFile(fontPath(FONT_FILES.regular)), readFile(fontPath(FONT_FILES.bold))]).then(([regular, bold]) => ({ regular, bold }));
  fontBytes.catch(() => {
    fontBytes = undefined;
  });
  return fontBytes;
}

const A4 = { width: 595.28, height: 841.89 } as const;
const MARGIN = 36;
const CONTENT_WIDTH = A4.width - 2 * MARGIN;
/** Kept free at the bottom of every page for the footer. */
const FOOTER_SPACE = 34;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.4, 0.45);
const RULE = rgb(0.75, 0.77, 0.8);
const HEADER_FILL = rgb(0.92, 0.93, 0.95);
const ACCENT = rgb(0.13, 0.27, 0.45);

interface Fonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
}

/** Breaks text into lines no wider than `width`; a word wider than the line is cut by characters. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

/** The largest size ≤ `size` at which text fits the width (amounts never wrap or overflow a column). */
function fittingSize(text: string, font: PDFFont, size: number, width: number): number {
  const natural = font.widthOfTextAtSize(text, size);
  return natural <= width ? size : Math.max(4, (size * width) / natural);
}

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

const CELL_PAD = 3;
const TABLE_SIZE = 7.5;
const TABLE_LEADING = 9.5;

/** Draws pages top to bottom, starting a new page (with the table header again) when one is full. */
class Layout {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  /** The font each page draws in now (drawFooters goes back to earlier pages). */
  private readonly fontOf = new Map<PDFPage, PDFFont>();
  y = 0;

  constructor(
    private readonly pdf: PDFDocument,
    readonly fonts: Fonts,
    private readonly doc: InvoiceDocument,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.pdf.addPage([A4.width, A4.height]);
    this.pages.push(this.page);
    this.y = A4.height - MARGIN;
    if (this.pages.length > 1) {
      // Continuation pages name the document so a loose page can still be placed.
      this.text(`${documentTitle(this.doc)} ${this.doc.number} (continued)`, MARGIN, this.y - 10, { font: this.fonts.bold, size: 10, color: ACCENT });
      this.text(`${this.doc.supplier.name} · GSTIN ${this.doc.supplier.gstin}`, MARGIN, this.y - 23, { size: 8, color: MUTED });
      this.y -= 34;
    }
  }

  /** Room left above the footer. */
  get room(): number {
    return this.y - MARGIN - FOOTER_SPACE;
  }

  ensure(height: number, onNewPage?: () => void): void {
    if (this.room >= height) return;
    this.newPage();
    onNewPage?.();
  }

  text(value: string, x: number, y: number, opts: { font?: PDFFont; size?: number; color?: ReturnType<typeof rgb> } = {}): void {
    this.draw(value, x, y, opts.font ?? this.fonts.regular, opts.size ?? 9, opts.color ?? INK);
  }

  /**
   * Every string is drawn in the page's current font, set only when it changes: pdf-lib's
   * `drawText({ font })` adds the font to the page's resources under a new name on every call
   * (and again to restore the previous one), two entries per string on a long table's page.
   */
  private draw(value: string, x: number, y: number, font: PDFFont, size: number, color: ReturnType<typeof rgb>): void {
    if (this.fontOf.get(this.page) !== font) {
      this.page.setFont(font);
      this.fontOf.set(this.page, font);
    }
    this.page.drawText(value, { x, y, size, color });
  }

  /** Text aligned in a box of `width` starting at x; shrunk to fit rather than spilling into a neighbour. */
  aligned(value: string, x: number, y: number, width: number, align: 'left' | 'right' | 'center', font: PDFFont, size: number, color = INK): void {
    const fitted = fittingSize(value, font, size, width);
    const w = font.widthOfTextAtSize(value, fitted);
    const left = align === 'left' ? x : align === 'right' ? x + width - w : x + (width - w) / 2;
    this.draw(value, left, y, font, fitted, color);
  }

  rule(y: number, x1 = MARGIN, x2 = A4.width - MARGIN, thickness = 0.5, color = RULE): void {
    this.page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness, color });
  }
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

/** Label/value pairs, labels left and values right-aligned in the box; returns the height. */
function drawPairs(layout: Layout, x: number, top: number, width: number, pairs: [string, string][], opts: { size?: number; boldLast?: boolean } = {}): number {
  const size = opts.size ?? 8.5;
  let y = top - size - 2;
  pairs.forEach(([label, value], i) => {
    const strong = opts.boldLast === true && i === pairs.length - 1;
    const font = strong ? layout.fonts.bold : layout.fonts.regular;
    layout.text(label, x, y, { font, size, color: strong ? INK : MUTED });
    const labelWidth = font.widthOfTextAtSize(label, size) + 8;
    layout.aligned(value, x + labelWidth, y, width - labelWidth, 'right', layout.fonts.bold, size);
    y -= size + 5;
  });
  return top - y - size + 2;
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

function drawTableHeader(layout: Layout, cols: Column[]): void {
  const height = 16;
  layout.page.drawRectangle({ x: MARGIN, y: layout.y - height, width: CONTENT_WIDTH, height, color: HEADER_FILL });
  let x = MARGIN;
  for (const c of cols) {
    layout.aligned(c.title, x + CELL_PAD, layout.y - 11, c.width - 2 * CELL_PAD, c.align, layout.fonts.bold, 7.5);
    x += c.width;
  }
  layout.y -= height;
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

function drawFooters(layout: Layout, doc: InvoiceDocument): void {
  const total = layout.pages.length;
  layout.pages.forEach((page, i) => {
    layout.page = page;
    const y = MARGIN - 4;
    layout.rule(y + 12);
    layout.text(`${doc.supplier.name} · GSTIN ${doc.supplier.gstin}`, MARGIN, y, { size: 7, color: MUTED });
    layout.aligned(`${documentTitle(doc)} ${doc.number} · Page ${i + 1} of ${total}`, MARGIN, y, CONTENT_WIDTH, 'right', layout.fonts.regular, 7, MUTED);
  });
}

/** A PDF date fixed by the document (midnight India time on its issue date), so a re-render is byte-identical. */
const documentInstant = (isoDate: string): Date => new Date(`${isoDate}T00:00:00+05:30`);

/**
 * Measuring and encoding text both run fontkit's shaper, which dominates the time of a long
 * invoice (a 10,000-line one draws about 120,000 strings, most of them repeated: amounts,
 * dates, names, rates). A width is linear in the size, and a string's encoding in a subset
 * font is the same each time once its glyphs are in the subset (the first encoding adds
 * them), so each distinct string is shaped at most twice per document; the bytes written do
 * not change.
 */
function memoizeShaping(font: PDFFont): PDFFont {
  const atUnitSize = new Map<string, number>();
  const measure = font.widthOfTextAtSize.bind(font);
  font.widthOfTextAtSize = (text: string, size: number) => {
    let width = atUnitSize.get(text);
    if (width === undefined) {
      width = measure(text, 1);
      atUnitSize.set(text, width);
    }
    return width * size;
  };
  const encodings = new Map<string, ReturnType<PDFFont['encodeText']>>();
  const encode = font.encodeText.bind(font);
  font.encodeText = (text: string) => {
    let encoded = encodings.get(text);
    if (encoded === undefined) {
      encoded = encode(text);
      encodings.set(text, encoded);
    }
    return encoded;
  };
  return font;
}

export class PdfInvoiceRenderer implements InvoiceRenderer {
  async render(doc: InvoiceDocument): Promise<Uint8Array> {
    checkInvoiceDocument(doc);
    const bytes = await loadFonts();
    const pdf = await PDFDocument.create({ updateMetadata: false });
    pdf.registerFontkit(fontkit);
    // Fixed subset names: pdf-lib otherwise appends a random tag to each embedded font's name.
    const fonts: Fonts = {
      regular: memoizeShaping(await pdf.embedFont(bytes.regular, { subset: true, customName: 'DJVSNS+DejaVuSans' })),
      bold: memoizeShaping(await pdf.embedFont(bytes.bold, { subset: true, customName: 'DJVSNB+DejaVuSans-Bold' })),
    };
    const title = `${documentTitle(doc)} ${doc.number}`;
    const at = documentInstant(doc.issueDate);
    pdf.setTitle(title, { showInWindowTitleBar: true });
    pdf.setAuthor(doc.supplier.name);
    pdf.setSubject(`${title} to ${doc.recipient.name}`);
    pdf.setCreator('partner-distribution');
    pdf.setProducer('partner-distribution (pdf-lib)');
    pdf.setCreationDate(at);
    pdf.setModificationDate(at);
    pdf.setLanguage('en-IN');

    const intra = isIntraState(doc);
    const layout = new Layout(pdf, fonts, doc);
    drawHeader(layout, doc);
    drawLines(layout, doc, columns(intra));
    drawTotals(layout, doc, intra);
    drawNotesAndSignature(layout, doc);
    drawFooters(layout, doc);
    return pdf.save();
  }
}

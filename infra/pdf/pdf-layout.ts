import { readFile } from 'node:fs/promises';
import { createRequire as moduleRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/**
 * What the PDF renderers share: A4 pages drawn with pdf-lib. The standard PDF fonts cannot encode
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

export const A4 = { width: 595.28, height: 841.89 } as const;
export const MARGIN = 36;
export const CONTENT_WIDTH = A4.width - 2 * MARGIN;
/** Kept free at the bottom of every page for the footer. */
export const FOOTER_SPACE = 34;
export const INK = rgb(0.1, 0.1, 0.12);
export const MUTED = rgb(0.38, 0.4, 0.45);
export const RULE = rgb(0.75, 0.77, 0.8);
export const HEADER_FILL = rgb(0.92, 0.93, 0.95);
export const ACCENT = rgb(0.13, 0.27, 0.45);

export interface Fonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
}

/** Breaks text into lines no wider than `width`; a word wider than the line is cut by characters. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
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
export function fittingSize(text: string, font: PDFFont, size: number, width: number): number {
  const natural = font.widthOfTextAtSize(text, size);
  return natural <= width ? size : Math.max(4, (size * width) / natural);
}

export type Align = 'left' | 'right' | 'center';

export const CELL_PAD = 3;
export const TABLE_SIZE = 7.5;
export const TABLE_LEADING = 9.5;

/** Draws pages top to bottom, starting a new page (with the table header again) when one is full. */
export class Layout {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  /** The font each page draws in now (drawFooters goes back to earlier pages). */
  private readonly fontOf = new Map<PDFPage, PDFFont>();
  y = 0;

  constructor(
    private readonly pdf: PDFDocument,
    readonly fonts: Fonts,
    /** The two lines that head every page after the first, so a loose page can still be placed. */
    private readonly continued: { readonly title: string; readonly subtitle: string },
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.pdf.addPage([A4.width, A4.height]);
    this.pages.push(this.page);
    this.y = A4.height - MARGIN;
    if (this.pages.length > 1) {
      this.text(`${this.continued.title} (continued)`, MARGIN, this.y - 10, { font: this.fonts.bold, size: 10, color: ACCENT });
      this.text(this.continued.subtitle, MARGIN, this.y - 23, { size: 8, color: MUTED });
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

/** Label/value pairs, labels left and values right-aligned in the box; returns the height. */
export function drawPairs(
  layout: Layout,
  x: number,
  top: number,
  width: number,
  pairs: [string, string][],
  opts: { size?: number; boldLast?: boolean } = {},
): number {
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

/** A table's header row: titles in bold on a shaded band across the content width. */
export function drawTableHeader(layout: Layout, cols: readonly { readonly title: string; readonly width: number; readonly align: Align }[]): void {
  const height = 16;
  layout.page.drawRectangle({ x: MARGIN, y: layout.y - height, width: CONTENT_WIDTH, height, color: HEADER_FILL });
  let x = MARGIN;
  for (const c of cols) {
    layout.aligned(c.title, x + CELL_PAD, layout.y - 11, c.width - 2 * CELL_PAD, c.align, layout.fonts.bold, 7.5);
    x += c.width;
  }
  layout.y -= height;
}

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

/** Every page's footer, once the pages are known: `left` on the left, `right` and the page's number of all on the right. */
export function drawFooters(layout: Layout, left: string, right: string): void {
  const total = layout.pages.length;
  layout.pages.forEach((page, i) => {
    layout.page = page;
    const y = MARGIN - 4;
    layout.rule(y + 12);
    layout.text(left, MARGIN, y, { size: 7, color: MUTED });
    layout.aligned(`${right} · Page ${i + 1} of ${total}`, MARGIN, y, CONTENT_WIDTH, 'right', layout.fonts.regular, 7, MUTED);
  });
}

/** A document's metadata; its date is fixed by the document, so a re-render is byte-identical. */
export interface PdfMetadata {
  readonly title: string;
  readonly author: string;
  readonly subject: string;
  readonly at: Date;
}

/** A new PDF with both fonts embedded (subset, shaping memoized) and its metadata set. */
export async function startPdf(meta: PdfMetadata): Promise<{ pdf: PDFDocument; fonts: Fonts }> {
  const bytes = await loadFonts();
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  // Fixed subset names: pdf-lib otherwise appends a random tag to each embedded font's name.
  const fonts: Fonts = {
    regular: memoizeShaping(await pdf.embedFont(bytes.regular, { subset: true, customName: 'DJVSNS+DejaVuSans' })),
    bold: memoizeShaping(await pdf.embedFont(bytes.bold, { subset: true, customName: 'DJVSNB+DejaVuSans-Bold' })),
  };
  pdf.setTitle(meta.title, { showInWindowTitleBar: true });
  pdf.setAuthor(meta.author);
  pdf.setSubject(meta.subject);
  pdf.setCreator('partner-distribution');
  pdf.setProducer('partner-distribution (pdf-lib)');
  pdf.setCreationDate(meta.at);
  pdf.setModificationDate(meta.at);
  pdf.setLanguage('en-IN');
  return { pdf, fonts };
}

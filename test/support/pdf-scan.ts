import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import decodeQR from 'qr/decode.js';

/** The text of a PDF (a file's path, or its bytes) as poppler's `pdftotext -raw` extracts it (each drawn string whole). */
export function pdfText(pdf: string | Uint8Array): string {
  if (typeof pdf !== 'string') return withFile(pdf, pdfText);
  const out = spawnSync('pdftotext', ['-raw', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (out.error || out.status !== 0) throw new Error(`pdftotext failed (install poppler-utils): ${out.error?.message ?? out.stderr}`);
  return out.stdout;
}

/** `read` of the bytes written to a temporary file, removed after. */
function withFile<T>(bytes: Uint8Array, read: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-scan-'));
  try {
    const path = join(dir, 'document.pdf');
    writeFileSync(path, bytes);
    return read(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Page 1 rasterised by pdftoppm at 150 dpi and its QR code decoded, as a phone would scan the paper. */
export function scanQr(path: string): string {
  const out = spawnSync('pdftoppm', ['-r', '150', '-f', '1', '-l', '1', '-singlefile', path], { maxBuffer: 64 * 1024 * 1024 });
  if (out.error || out.status !== 0) throw new Error(`pdftoppm failed: ${out.error?.message ?? out.stderr}`);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(out.stdout.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write a binary PPM');
  return decodeQR({ width: Number(header[1]), height: Number(header[2]), data: out.stdout.subarray(header[0].length) });
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 36;
/** The footer sits below this line (top-down coordinates); the body must stay above it. */
const BODY_BOTTOM = A4.height - MARGIN - 24;

export interface Word {
  readonly page: number;
  readonly text: string;
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

/** Each word poppler extracts (`pdftotext -bbox`) with its box, top-down coordinates, page by page. */
export function pdfWords(pdf: Uint8Array): Word[] {
  return withFile(pdf, wordsOf);
}

function wordsOf(path: string): Word[] {
  const out = spawnSync('pdftotext', ['-bbox', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (out.error || out.status !== 0) throw new Error(`pdftotext -bbox failed (install poppler-utils): ${out.error?.message ?? out.stderr}`);
  const found: Word[] = [];
  out.stdout
    .split('<page ')
    .slice(1)
    .forEach((page, i) => {
      for (const m of page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
        found.push({ page: i + 1, x1: Number(m[1]), y1: Number(m[2]), x2: Number(m[3]), y2: Number(m[4]), text: m[5]! });
      }
    });
  return found;
}

/** Boxes include the font's full ascent and descent, so neighbours may touch; a real overlap is deeper than this. */
const TOLERANCE = 0.6;
const overlap = (a: Word, b: Word): boolean =>
  a.page === b.page && a.x1 + TOLERANCE < b.x2 && b.x1 + TOLERANCE < a.x2 && a.y1 + TOLERANCE < b.y2 && b.y1 + TOLERANCE < a.y2;

/**
 * Layout checked on what poppler extracts, word by word with its box: on every page of an A4
 * document with 36 pt margins, no word leaves the margins, none runs into the footer, and no
 * two words overlap. Each problem is one line; none is an empty list.
 */
export function pdfLayoutProblems(pdf: Uint8Array): string[] {
  const all = pdfWords(pdf);
  const problems: string[] = [];
  for (const w of all) {
    const at = `page ${w.page} "${w.text}" (${w.x1.toFixed(1)},${w.y1.toFixed(1)})-(${w.x2.toFixed(1)},${w.y2.toFixed(1)})`;
    if (w.x1 < MARGIN - 0.5 || w.x2 > A4.width - MARGIN + 0.5) problems.push(`outside the side margins: ${at}`);
    if (w.y1 < MARGIN - 0.5 || w.y2 > A4.height - MARGIN + 8) problems.push(`outside the top or bottom margin: ${at}`);
    const inFooter = w.y1 > BODY_BOTTOM;
    if (!inFooter && w.y2 > BODY_BOTTOM + TOLERANCE) problems.push(`runs into the footer: ${at}`);
  }
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length && all[j]!.page === all[i]!.page; j++) {
      if (overlap(all[i]!, all[j]!)) problems.push(`page ${all[i]!.page}: "${all[i]!.text}" overlaps "${all[j]!.text}"`);
    }
  }
  if (all.length === 0) problems.push('no text extracted');
  return problems;
}

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InvoiceDocument } from '../../domain/invoicing/invoice-document.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { creditNote, interStateInvoice, intraStateInvoice, irpRegistration, line, manyLineInvoice, totalsOf } from '../support/invoice-documents.ts';

/**
 * Layout checked on what poppler extracts, word by word with its box (`pdftotext -bbox`):
 * on every page of documents chosen to stress the layout (tables ending just above, at and
 * below a page break; long names and addresses; the largest amounts), no word leaves the
 * margins, none runs into the footer, and no two words overlap.
 */
const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 36;
/** The footer sits below this line (top-down coordinates); the body must stay above it. */
const BODY_BOTTOM = A4.height - MARGIN - 24;
const dir = mkdtempSync(join(tmpdir(), 'invoice-layout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Word {
  readonly page: number;
  readonly text: string;
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

function words(pdf: Uint8Array, name: string): Word[] {
  const path = join(dir, `${name}.pdf`);
  writeFileSync(path, pdf);
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

function layoutProblems(pdf: Uint8Array, name: string): string[] {
  const all = words(pdf, name);
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

const longParty = {
  name: 'Tiruvannamalai Heritage Hospitality and Experiential Travel Services Private Limited',
  address:
    'Survey No. 1142/3B, Old Mahabalipuram Road, Near Sholinganallur Junction Signal, Opposite the Elcot SEZ Gate 2, Sholinganallur, Chennai, Tamil Nadu 600119',
  gstin: '33AAICT7781K1ZP',
  state: 'Tamil Nadu',
  stateCode: '33',
};

function withLines(n: number, opts: { long?: boolean; huge?: boolean } = {}): InvoiceDocument {
  const lines = Array.from({ length: n }, (_, i) =>
    line({
      night: `2026-10-${String((i % 28) + 1).padStart(2, '0')}`,
      taxableValue: opts.huge ? 99_99_99_999_99 - i : 650_000 + i * 1001,
      gstRate: i % 2 === 0 ? 5 : 18,
      intra: true,
      quantity: opts.huge ? 99 : 1,
      bookingId: `PS-${40000 + i}`,
      propertyName: opts.long ? 'The Banyan Courtyard Heritage Mansion and Garden Cottages, Fontainhas, Panaji' : 'Casa Azul, Assagao',
      description: opts.long
        ? 'Villa stay: six-bedroom heritage mansion with private pool, chef, butler and airport transfers for twelve adults and four children'
        : 'Villa stay, one unit-night',
    }),
  );
  const base = opts.long ? { ...intraStateInvoice, recipient: { ...longParty, gstin: '33AAICT7781K1ZP' } } : intraStateInvoice;
  return { ...base, lines, totals: totalsOf(lines, opts.huge ? 1_00_000_00 : 0) };
}

const renderer = new PdfInvoiceRenderer();

describe('PDF invoice layout', () => {
  const cases: [string, InvoiceDocument][] = [
    ['intra-state', intraStateInvoice],
    ['inter-state', interStateInvoice],
    ['credit note', creditNote],
    ['registered e-invoice', { ...intraStateInvoice, eInvoice: irpRegistration(intraStateInvoice) }],
    ['long names, addresses and descriptions', withLines(9, { long: true })],
    ['the largest amounts', withLines(6, { huge: true })],
    ...[12, 13, 14, 15, 16, 17, 18].map((n): [string, InvoiceDocument] => [`${n} lines (the table ends around the first page break)`, withLines(n)]),
    ['120 lines', manyLineInvoice(120)],
  ];

  it.each(cases)(
    '%s: every word inside the margins, clear of the footer and of every other word',
    async (name, doc) => {
      const pdf = await renderer.render(doc);
      expect(layoutProblems(pdf, name.replace(/\W+/g, '-'))).toEqual([]);
    },
    120_000,
  );
});

import { describe, expect, it } from 'vitest';
import type { InvoiceDocument } from '../../domain/invoicing/invoice-document.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { pdfLayoutProblems } from '../support/pdf-scan.ts';
import { creditNote, interStateInvoice, intraStateInvoice, irpRegistration, line, manyLineInvoice, totalsOf } from '../support/invoice-documents.ts';

/**
 * Layout checked on what poppler extracts, word by word with its box (`pdftotext -bbox`):
 * on every page of documents chosen to stress the layout (tables ending just above, at and
 * below a page break; long names and addresses; the largest amounts), no word leaves the
 * margins, none runs into the footer, and no two words overlap (test/support/pdf-scan.ts).
 */

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
    async (_name, doc) => {
      const pdf = await renderer.render(doc);
      expect(pdfLayoutProblems(pdf)).toEqual([]);
    },
    120_000,
  );
});

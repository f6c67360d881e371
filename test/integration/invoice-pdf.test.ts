import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { amountInWordsINR, type InvoiceDocument } from '../../domain/invoicing/invoice-document.ts';
import { formatInr } from '../../domain/money.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { creditNote, interStateInvoice, intraStateInvoice, manyLineInvoice, registeredInvoice } from '../support/invoice-documents.ts';
import { scanQr } from '../support/pdf-scan.ts';

/**
 * The renderer against poppler (`pdftotext`, `pdftoppm`, `pdfinfo`; Debian package
 * poppler-utils, which .ci/run installs): what a reader's PDF software extracts is what a CA
 * would read. Page 1 of each document is also rasterised, as a human looks at it.
 */
const dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function poppler(tool: string, args: string[]): string {
  const out = spawnSync(tool, args, { encoding: 'utf8' });
  if (out.error) throw new Error(`${tool} is missing: install poppler-utils (apt-get install -y poppler-utils). ${out.error.message}`);
  if (out.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed: ${out.stderr}`);
  return out.stdout;
}

const renderer = new PdfInvoiceRenderer();

async function renderToFile(name: string, doc: InvoiceDocument): Promise<{ path: string; bytes: Uint8Array; text: string }> {
  const bytes = await renderer.render(doc);
  const path = join(dir, `${name}.pdf`);
  writeFileSync(path, bytes);
  // -raw keeps each drawn string whole, so a value is found however columns line up.
  const text = poppler('pdftotext', ['-raw', '-enc', 'UTF-8', path, '-']);
  return { path, bytes, text };
}

/** pdftotext may join a word-wrapped string with a newline where the PDF wrapped it. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

function expectParties(text: string, doc: InvoiceDocument): void {
  const t = flat(text);
  for (const s of [doc.supplier.name, doc.supplier.gstin, doc.recipient.name, doc.recipient.gstin, doc.number]) expect(t).toContain(s);
  expect(t).toContain(`Place of supply ${doc.placeOfSupply.state} (${doc.placeOfSupply.stateCode})`);
  expect(t).toContain(`State: ${doc.supplier.state} (code ${doc.supplier.stateCode})`);
  expect(t).toContain(`State: ${doc.recipient.state} (code ${doc.recipient.stateCode})`);
  expect(t).toContain('996311');
  expect(t).toContain('Tax is not payable on reverse charge basis');
  expect(t).toContain(amountInWordsINR(doc.totals.total));
  expect(t).toContain(formatInr(doc.totals.total));
  expect(t).toContain('₹');
  expect(t).toMatch(/Page 1 of 1/);
}

function rasterise(path: string, name: string): Buffer {
  const prefix = join(dir, name);
  poppler('pdftoppm', ['-png', '-r', '72', '-f', '1', '-l', '1', '-singlefile', path, prefix]);
  return readFileSync(`${prefix}.png`);
}

/** Page 1 rasterised at 150 dpi (pdftoppm's raw RGB output) and scanned for a QR code, as a phone would. */
describe('PDF invoice renderer', () => {
  it('prints an intra-state tax invoice with CGST and SGST, readable by pdftotext and rasterised by pdftoppm', async () => {
    const { path, text } = await renderToFile('intra', intraStateInvoice);
    expect(text).toContain('TAX INVOICE');
    expectParties(text, intraStateInvoice);
    const t = flat(text);
    expect(t).toContain('Invoice date 01-11-2026');
    expect(t).toContain('Due date 16-11-2026');
    expect(t).toContain('CGST ₹1,648.55');
    expect(t).toContain('SGST ₹1,648.54');
    expect(t).toContain('Invoice total ₹33,747.59');
    expect(t).toContain('Rupees Thirty-Three Thousand Seven Hundred Forty-Seven and Fifty-Nine Paise Only');
    // Line 3: 12,450.50 at 18% → 1,120.55 + 1,120.54 = 14,691.59.
    expect(t).toMatch(/12,450\.50 9%\+9% 1,120\.55 1,120\.54 14,691\.59/);
    expect(t).not.toMatch(/IGST(?! Act)/);
    const png = rasterise(path, 'intra');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // A4 at 72 dpi: 595.28 × 841.89 points, rounded by pdftoppm.
    expect(Math.abs(png.readUInt32BE(16) - 595)).toBeLessThanOrEqual(1);
    expect(Math.abs(png.readUInt32BE(20) - 842)).toBeLessThanOrEqual(1);
  });

  it('prints an inter-state tax invoice with IGST only and the discount', async () => {
    const { path, text } = await renderToFile('inter', interStateInvoice);
    expectParties(text, interStateInvoice);
    const t = flat(text);
    expect(t).toContain('IGST ₹3,222.00');
    expect(t).toContain('Discount -₹500.00');
    expect(t).toContain('Invoice total ₹24,522.00');
    expect(t).toMatch(/8,200\.00 18% 1,476\.00 9,676\.00/);
    expect(t).not.toMatch(/CGST(?! Act)|SGST/);
    expect(rasterise(path, 'inter').length).toBeGreaterThan(10_000);
  });

  it('prints a credit note naming the invoice it corrects', async () => {
    const { path, text } = await renderToFile('credit', creditNote);
    expect(text).toContain('CREDIT NOTE');
    expect(text).not.toContain('TAX INVOICE');
    expectParties(text, creditNote);
    const t = flat(text);
    expect(t).toContain('Against invoice GA/2026-27/0042');
    expect(t).toContain('Credit note total ₹13,650.00');
    expect(t).toContain('section 34 of the CGST Act, 2017 against tax invoice GA/2026-27/0042 dated 01-11-2026');
    expect(t).not.toContain('Due date');
    expect(rasterise(path, 'credit').length).toBeGreaterThan(10_000);
  });

  it('gives the same bytes for the same document, whatever the clock and random source say', async () => {
    const first = await renderer.render(intraStateInvoice);
    vi.useFakeTimers({ toFake: ['Date'] });
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.987654321);
    try {
      vi.setSystemTime(new Date('2031-07-19T23:59:58Z'));
      const second = await renderer.render(structuredClone(intraStateInvoice));
      expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    } finally {
      random.mockRestore();
      vi.useRealTimers();
    }
    const path = join(dir, 'stable.pdf');
    writeFileSync(path, first);
    const info = poppler('pdfinfo', ['-isodates', path]);
    // Midnight India time on the issue date, which pdfinfo prints in UTC.
    expect(info).toMatch(/CreationDate:\s+2026-10-31T18:30:00Z/);
    expect(info).toMatch(/ModDate:\s+2026-10-31T18:30:00Z/);
    expect(info).toMatch(/Title:\s+Tax Invoice GA\/2026-27\/0042/);
  });

  it('paginates a 1,000-line invoice with the table header and "Page x of y" on every page', async () => {
    const doc = manyLineInvoice(1000);
    const started = performance.now();
    const { path, bytes, text } = await renderToFile('thousand', doc);
    const ms = Math.round(performance.now() - started);
    const pages = Number(/Pages:\s+(\d+)/.exec(poppler('pdfinfo', [path]))![1]);
    // Figures for the report; timing is not a verdict on a shared machine.
    console.info(`1,000-line invoice: ${pages} pages, ${bytes.length} bytes, rendered in ${ms} ms`);
    expect(pages).toBeGreaterThan(10);
    // pdftotext ends every page with a form feed.
    const pageTexts = text.split('\f').slice(0, pages);
    expect(pageTexts).toHaveLength(pages);
    for (let p = 1; p <= pages; p++) {
      const pageText = pageTexts[p - 1]!;
      expect(pageText).toContain(`Page ${p} of ${pages}`);
      // Every page carrying lines repeats the table header; the totals may run onto a page of their own.
      if (/\b\d{1,4} 996311 /.test(pageText)) expect(pageText).toMatch(/# SAC Description Night Qty Taxable value GST rate CGST SGST Total/);
      if (p > 1) expect(pageText).toContain(`Tax Invoice ${doc.number} (continued)`);
    }
    const t = flat(text);
    const rows = [...t.matchAll(/\b(\d{1,4}) 996311 /g)].map((m) => Number(m[1]));
    expect(rows).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(t).toContain(`Invoice total ${formatInr(doc.totals.total)}`);
    expect(t).toContain(amountInWordsINR(doc.totals.total));
    // Rendering 57 pages can take a while on a loaded shared machine; time is reported above, never judged.
  }, 180_000);

  it('prints a registered e-invoice with its IRN, acknowledgement and a signed QR code that scans back', async () => {
    const e = registeredInvoice.eInvoice!;
    const { path, text } = await renderToFile('registered', registeredInvoice);
    expectParties(text, registeredInvoice);
    // The 64-character IRN wraps inside its column; read without the line breaks.
    expect(text.replace(/\s+/g, '')).toContain(e.irn);
    expect(flat(text)).toContain(`Ack. No: ${e.ackNo}`);
    expect(scanQr(path)).toBe(e.signedQr);
  });

  it('prints a tax invoice to a recipient not registered for GST: no GSTIN, its State and code, and the address of delivery (rule 46(e))', async () => {
    const b2c: InvoiceDocument = { ...intraStateInvoice, recipient: { ...intraStateInvoice.recipient, gstin: null } };
    const { text } = await renderToFile('b2c', b2c);
    const t = flat(text);
    expect(t).toContain('TAX INVOICE');
    expect(t).toContain('GSTIN: not registered for GST (unregistered person)');
    expect(t).toContain(`State: ${b2c.recipient.state} (code ${b2c.recipient.stateCode})`);
    expect(t).toContain(
      'Recipient not registered for GST (no GSTIN); address of delivery: the properties named on the lines, in Goa (code 30), the place of supply.',
    );
    expect(t).toContain(`Place of supply ${b2c.placeOfSupply.state} (${b2c.placeOfSupply.stateCode})`);
  });

  it('prints no QR code on a document that is not registered', async () => {
    const { path } = await renderToFile('unregistered', intraStateInvoice);
    expect(() => scanQr(path)).toThrow();
  });

  it('refuses a document whose figures do not add up, printing nothing', async () => {
    const wrong = { ...intraStateInvoice, totals: { ...intraStateInvoice.totals, total: intraStateInvoice.totals.total + 1 } };
    await expect(renderer.render(wrong)).rejects.toThrow(/totals\.total/);
  });
});

import { PDFDocument } from 'pdf-lib';
import { PdfInvoiceRenderer } from '../infra/pdf/pdf-invoice-renderer.ts';
import { manyLineInvoice } from '../test/support/invoice-documents.ts';
import { measure } from './harness.ts';

/**
 * `npx tsx bench/invoice-pdf-bench.ts`: time and size of rendering a tax invoice of 5, 100
 * and 1,000 lines in one process (no emulators needed). The first render of a process also
 * reads the two font files; the warm-up runs absorb it.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const renderer = new PdfInvoiceRenderer();
for (const lines of [5, 100, 1000]) {
  const doc = manyLineInvoice(lines);
  let pdf: Uint8Array = new Uint8Array();
  const s = await measure(
    async () => {
      pdf = await renderer.render(doc);
    },
    RUNS,
    1,
  );
  const pages = (await PDFDocument.load(pdf)).getPageCount();
  console.log(
    `${String(lines).padStart(5)} lines: median ${s.median.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms, ${pdf.byteLength} bytes (${(pdf.byteLength / 1024).toFixed(0)} KiB), ${pages} pages`,
  );
}

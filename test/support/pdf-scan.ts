import { spawnSync } from 'node:child_process';
import decodeQR from 'qr/decode.js';

/** The text of a PDF file as poppler's `pdftotext -raw` extracts it (each drawn string whole). */
export function pdfText(path: string): string {
  const out = spawnSync('pdftotext', ['-raw', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
  if (out.error || out.status !== 0) throw new Error(`pdftotext failed (install poppler-utils): ${out.error?.message ?? out.stderr}`);
  return out.stdout;
}

/** Page 1 rasterised by pdftoppm at 150 dpi and its QR code decoded, as a phone would scan the paper. */
export function scanQr(path: string): string {
  const out = spawnSync('pdftoppm', ['-r', '150', '-f', '1', '-l', '1', '-singlefile', path], { maxBuffer: 64 * 1024 * 1024 });
  if (out.error || out.status !== 0) throw new Error(`pdftoppm failed: ${out.error?.message ?? out.stderr}`);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(out.stdout.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write a binary PPM');
  return decodeQR({ width: Number(header[1]), height: Number(header[2]), data: out.stdout.subarray(header[0].length) });
}

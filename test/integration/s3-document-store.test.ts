import { randomBytes, randomUUID } from 'node:crypto';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../infra/config.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { createS3Client } from '../../infra/s3/client.ts';
import { S3DocumentStore } from '../../infra/s3/s3-document-store.ts';
import { creditNote } from '../support/invoice-documents.ts';
import { stack, testServices } from '../support/stack.ts';

/** The S3 adapter over the wire against fauxqs's S3 (path-style), in the bucket the test setup created. */
const key = (name: string) => `test/${randomUUID()}/${name}`;
const cfg = () => parseConfig(stack().env);
const s3 = await createS3Client(cfg());
afterAll(() => s3.destroy());

describe('S3DocumentStore', () => {
  it('stores a rendered PDF and gives back the same bytes, with its content type', async () => {
    const store = testServices().documents;
    const pdf = await new PdfInvoiceRenderer().render(creditNote);
    const k = key('credit-note.pdf');

    await store.put(k, pdf, 'application/pdf');

    expect(Buffer.from((await store.get(k))!).equals(Buffer.from(pdf))).toBe(true);
    const head = await s3.send(new HeadObjectCommand({ Bucket: cfg().invoiceBucket, Key: k }));
    expect(head.ContentType).toBe('application/pdf');
    expect(head.ContentLength).toBe(pdf.byteLength);
  });

  it('answers undefined for a key never stored', async () => {
    expect(await testServices().documents.get(key('missing.pdf'))).toBeUndefined();
  });

  it('replaces what a key held on a second put', async () => {
    const store = testServices().documents;
    const k = key('doc.bin');
    await store.put(k, new Uint8Array([1, 2, 3]), 'application/octet-stream');
    await store.put(k, new Uint8Array([9, 8]), 'application/octet-stream');
    expect([...(await store.get(k))!]).toEqual([9, 8]);
  });

  it('keeps one whole document when two puts race on the same key', async () => {
    const store = testServices().documents;
    const k = key('raced.pdf');
    const a = randomBytes(256 * 1024);
    const b = randomBytes(256 * 1024);
    await Promise.all([store.put(k, a, 'application/pdf'), store.put(k, b, 'application/pdf')]);
    const stored = Buffer.from((await store.get(k))!);
    expect(stored.equals(a) || stored.equals(b)).toBe(true);
  });

  it('reports a missing bucket as an error, not as a missing document', async () => {
    const store = new S3DocumentStore(s3, `no-such-bucket-${randomUUID().slice(0, 8)}`);
    await expect(store.get('any.pdf')).rejects.toThrow();
    await expect(store.put('any.pdf', new Uint8Array([1]), 'application/pdf')).rejects.toThrow();
  });

  it('refuses to work without a configured bucket', async () => {
    const store = new S3DocumentStore(s3, undefined);
    await expect(store.get('any.pdf')).rejects.toThrow(/INVOICE_BUCKET/);
  });
});

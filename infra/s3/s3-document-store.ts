import type { S3Client } from '@aws-sdk/client-s3';
import { s3Sdk } from './client.ts';
import type { DocumentStore } from '../../domain/ports/document-store.ts';

/**
 * Documents in one private S3 bucket (the stack's InvoiceBucket: versioned, encrypted at
 * rest). A missing key is `undefined`; every other failure is thrown to the caller.
 */
export class S3DocumentStore implements DocumentStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string | undefined,
  ) {}

  private bucketName(): string {
    if (!this.bucket) throw new Error('INVOICE_BUCKET is not configured for this process');
    return this.bucket;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const { PutObjectCommand } = await s3Sdk();
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucketName(), Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.byteLength }));
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const { GetObjectCommand, NoSuchKey } = await s3Sdk();
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucketName(), Key: key }));
      return out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw err;
    }
  }
}

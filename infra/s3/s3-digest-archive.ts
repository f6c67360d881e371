import type { S3Client } from '@aws-sdk/client-s3';
import { DIGEST_PREFIX, type DigestArchive } from '../../domain/audit/digest.ts';
import { s3Sdk } from './client.ts';

/**
 * Audit digests in their own bucket (serverless.yml AuditDigestBucket: Object Lock in
 * compliance mode, so no one, the account's root included, deletes or overwrites a digest
 * before its retention ends). A new digest is put with `If-None-Match: *` (S3 conditional
 * writes): a second object under the same key is refused rather than stacked as a version.
 * fauxqs, the local stand-in, honours neither; docs/audit.md says what that leaves open locally.
 */
export class S3DigestArchive implements DigestArchive {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string | undefined,
  ) {}

  private bucketName(): string {
    if (!this.bucket) throw new Error('AUDIT_DIGEST_BUCKET is not configured for this process');
    return this.bucket;
  }

  async putNew(key: string, body: string): Promise<void> {
    const { PutObjectCommand } = await s3Sdk();
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucketName(), Key: key, Body: body, ContentType: 'application/json', IfNoneMatch: '*' }));
  }

  async keys(startAfter?: string): Promise<string[]> {
    const { ListObjectsV2Command } = await s3Sdk();
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const out = await this.s3
        .send(
          new ListObjectsV2Command({
            Bucket: this.bucketName(),
            Prefix: DIGEST_PREFIX,
            ...(startAfter ? { StartAfter: startAfter } : {}),
            ...(token ? { ContinuationToken: token } : {}),
          }),
        )
        .catch((err: { name?: string }) => {
          // A bucket not created yet holds no digest: `audit verify` then reports "no valid digest" for the trail.
          if (err.name === 'NoSuchBucket') return { Contents: [], IsTruncated: false, NextContinuationToken: undefined };
          throw err;
        });
      keys.push(...(out.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])));
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async get(key: string): Promise<string | undefined> {
    const { GetObjectCommand, NoSuchKey } = await s3Sdk();
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucketName(), Key: key }));
      return out.Body ? await out.Body.transformToString() : '';
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw err;
    }
  }
}

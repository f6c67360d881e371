import { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';

/** Path-style addressing against an emulator endpoint (fauxqs serves buckets under the path, not as subdomains). */
export function createS3Client(cfg: Pick<Config, 'region' | 'endpoints'>): S3Client {
  return new S3Client({
    region: cfg.region,
    ...(cfg.endpoints.s3 ? { endpoint: cfg.endpoints.s3, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: 3,
  });
}

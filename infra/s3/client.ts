import { S3Client } from '@aws-sdk/client-s3';
import { nameServiceOnError } from '../aws-client.ts';
import type { Config } from '../config.ts';

/** Path-style addressing against an emulator endpoint (fauxqs serves buckets under the path, not as subdomains). */
export function createS3Client(cfg: Pick<Config, 'region' | 'endpoints'>): S3Client {
  const client = new S3Client({
    region: cfg.region,
    ...(cfg.endpoints.s3 ? { endpoint: cfg.endpoints.s3, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: 3,
  });
  client.middlewareStack.add(nameServiceOnError('S3'), { step: 'initialize', name: 'nameServiceOnError' });
  return client;
}

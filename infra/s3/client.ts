import type { S3Client } from '@aws-sdk/client-s3';
import { nameServiceOnError } from '../aws-client.ts';
import type { Config } from '../config.ts';

/** The S3 SDK, imported at first use (see sqsSdk in infra/sqs/client.ts): only the invoice functions store documents. */
export const s3Sdk = () => import('@aws-sdk/client-s3');

/** Path-style addressing against an emulator endpoint (fauxqs serves buckets under the path, not as subdomains). */
export async function createS3Client(cfg: Pick<Config, 'region' | 'endpoints'>): Promise<S3Client> {
  const { S3Client } = await s3Sdk();
  const client = new S3Client({
    region: cfg.region,
    ...(cfg.endpoints.s3 ? { endpoint: cfg.endpoints.s3, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: 3,
  });
  client.middlewareStack.add(nameServiceOnError('S3'), { step: 'initialize', name: 'nameServiceOnError' });
  return client;
}

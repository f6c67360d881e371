import { SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../config.ts';

export function createSqsClient(cfg: Pick<Config, 'region' | 'endpoints'>): SQSClient {
  return new SQSClient({
    region: cfg.region,
    ...(cfg.endpoints.sqs ? { endpoint: cfg.endpoints.sqs, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: 3,
  });
}

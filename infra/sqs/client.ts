import { SQSClient } from '@aws-sdk/client-sqs';
import { awsClientOptions } from '../aws-client.ts';
import type { Config } from '../config.ts';

export function createSqsClient(cfg: Pick<Config, 'region' | 'endpoints' | 'aws'>): SQSClient {
  return new SQSClient(awsClientOptions(cfg, cfg.endpoints.sqs));
}

import { SQSClient } from '@aws-sdk/client-sqs';
import { awsClientOptions, nameServiceOnError } from '../aws-client.ts';
import type { Config } from '../config.ts';

export function createSqsClient(cfg: Pick<Config, 'region' | 'endpoints' | 'aws'>): SQSClient {
  const client = new SQSClient(awsClientOptions(cfg, cfg.endpoints.sqs));
  client.middlewareStack.add(nameServiceOnError('SQS'), { step: 'initialize', name: 'nameServiceOnError' });
  return client;
}

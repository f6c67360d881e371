import type { SQSClient } from '@aws-sdk/client-sqs';
import { awsClientOptions, nameServiceOnError } from '../aws-client.ts';
import type { Config } from '../config.ts';

/**
 * The SQS SDK, imported at first use. A dynamic import stays a dynamic import in the bundle
 * while the SDK is the runtime's (external): a static one would be hoisted and evaluated when
 * any function starts, and most functions never send a message.
 */
export const sqsSdk = () => import('@aws-sdk/client-sqs');

export async function createSqsClient(cfg: Pick<Config, 'region' | 'endpoints' | 'aws'>): Promise<SQSClient> {
  const { SQSClient } = await sqsSdk();
  const client = new SQSClient(awsClientOptions(cfg, cfg.endpoints.sqs));
  client.middlewareStack.add(nameServiceOnError('SQS'), { step: 'initialize', name: 'nameServiceOnError' });
  return client;
}

import type { Services } from '../infra/container.ts';

/**
 * A bench case run alone (`npm run bench:<case>`): DynamoDB Local and fauxqs of its own, the
 * table (and, for invoices, the bucket) provisioned and the service's environment set before the
 * services are built, then `run` with them; the emulators stop however it ends.
 */
export async function benchAlone(
  opts: { table: string; invoiceBucket?: boolean; extra?: (sqsEndpoint: string) => Promise<Record<string, string>> },
  run: (svc: Services) => Promise<void>,
): Promise<void> {
  const { invoiceBucketName, provisionBucket, provisionTable, randomKey, serviceEnv, startDynamoLocal, startFauxqs } = await import(
    '../scripts/local-stack.ts'
  );
  const dynamo = await startDynamoLocal();
  const queues = await startFauxqs();
  try {
    await provisionTable(dynamo.endpoint, opts.table);
    if (opts.invoiceBucket) await provisionBucket(queues.endpoint, invoiceBucketName('test'));
    const extra = { LOG_LEVEL: 'ERROR', CURSOR_KEY: randomKey(), ...(await opts.extra?.(queues.endpoint)) };
    Object.assign(process.env, serviceEnv({ stage: 'test', tableName: opts.table, dynamodb: dynamo.endpoint, sqs: queues.endpoint, extra }));
    const { services } = await import('../infra/container.ts');
    await run(services());
  } finally {
    await queues.stop();
    await dynamo.stop();
  }
}

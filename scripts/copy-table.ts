import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { putAll } from '../infra/dynamo/batch-write.ts';
import { OPERATOR_SDK_LIMITS } from '../infra/aws-client.ts';
import { createDocumentClient } from '../infra/dynamo/client.ts';

/**
 * The last step of a point-in-time restore (docs/deploy.md): every item of the restored table
 * put into the live one. Items are written whole, so each item the restore holds is back in
 * its state at the restore point; items created after it stay as they are for the operator
 * to review. Nothing is deleted.
 *
 *   npx tsx scripts/copy-table.ts --from partner-distribution-prod-restore-20270301 --to partner-distribution-prod [--region ap-south-1]
 */
export async function copyTable(db: DynamoDBDocumentClient, from: string, to: string, onPage: (copied: number) => void = () => undefined): Promise<number> {
  if (from === to) throw new Error('--from and --to must be different tables');
  let copied = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: from, ExclusiveStartKey: start, ConsistentRead: true }));
    await putAll(db, to, page.Items ?? []);
    copied += page.Items?.length ?? 0;
    onPage(copied);
    start = page.LastEvaluatedKey;
  } while (start);
  return copied;
}

/** An operator's one-off copy waits out throttling and slow pages instead of failing fast as a partner's request must. */
export const COPY_SDK_LIMITS = OPERATOR_SDK_LIMITS;

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' }, region: { type: 'string', default: 'ap-south-1' } } });
  if (!values.from || !values.to) {
    process.stderr.write('Usage: tsx scripts/copy-table.ts --from <restored table> --to <live table> [--region <region>]\n');
    return 2;
  }
  // DYNAMODB_ENDPOINT points the copy at DynamoDB Local, as for every other tool here.
  const db = createDocumentClient({ region: values.region!, endpoints: { dynamodb: process.env.DYNAMODB_ENDPOINT || undefined }, aws: COPY_SDK_LIMITS });
  const copied = await copyTable(db, values.from, values.to, (n) => process.stdout.write(`\r${n} items copied`));
  process.stdout.write(`\nCopied ${copied} items from ${values.from} into ${values.to}.\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main();

import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, isTransactionContention } from './client.ts';
import { inParallel } from './in-parallel.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit of items per transaction. */
const MAX_TRANSACTION_ITEMS = 100;
const MAX_ATTEMPTS = 40;

/**
 * Independent conditional writes (each on its own item), sent as transactions of up to 100
 * with `inFlight` of them at once instead of one call each: each write lands or is refused
 * by its own condition exactly as a single conditional write would be. A transaction is
 * cancelled whole when one condition fails, so the refused writes (named by the cancellation
 * reasons) are dropped and the rest sent again; one cancelled by a racing transaction is sent
 * again as it was. Answers how many were refused.
 */
export async function transactEach(db: DynamoDBDocumentClient, writes: readonly TransactItem[], inFlight: number): Promise<number> {
  const chunks: TransactItem[][] = [];
  for (let i = 0; i < writes.length; i += MAX_TRANSACTION_ITEMS) chunks.push(writes.slice(i, i + MAX_TRANSACTION_ITEMS));
  let refused = 0;
  await inParallel(chunks, inFlight, async (chunk) => {
    let pending = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      try {
        await db.send(new TransactWriteCommand({ TransactItems: pending }));
        return;
      } catch (err) {
        if ((!isConditionFailure(err) && !isTransactionContention(err)) || attempt + 1 >= MAX_ATTEMPTS) throw err;
        const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
        const before = pending.length;
        pending = pending.filter((_, i) => reasons[i]?.Code !== 'ConditionalCheckFailed');
        refused += before - pending.length;
        if (before === pending.length) await new Promise((r) => setTimeout(r, Math.min(200, 10 * 2 ** attempt)));
      }
    }
  });
  return refused;
}

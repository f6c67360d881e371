import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, type DeleteCommand, type PutCommand, type UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { awsClientOptions, nameServiceOnError } from '../aws-client.ts';
import type { Config } from '../config.ts';
import { refuseAbandonedWork } from '../request-work.ts';
import type { TransactItems } from './items.ts';

export function createDocumentClient(cfg: Pick<Config, 'region' | 'endpoints' | 'aws'>): DynamoDBDocumentClient {
  const client = new DynamoDBClient(awsClientOptions(cfg, cfg.endpoints.dynamodb));
  // The SDK's logger middleware copies every response through its sensitive-data filter for a
  // logger that, unless one is configured (never here), discards it: about a tenth of the CPU
  // of a search that reads 4 MB of shards. Errors still reach the caller; our own logs say what happened.
  client.middlewareStack.remove('loggerMiddleware');
  // Counts every request the SDK sends (retries included): the figure benchmarks and
  // docs/data-model.md report as "DynamoDB calls per request".
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const op = String((context as { commandName?: string }).commandName ?? 'unknown');
      dynamoCalls.total += 1;
      dynamoCalls.byOperation[op] = (dynamoCalls.byOperation[op] ?? 0) + 1;
      const ended = dynamoCalls.observe?.(op);
      try {
        return await next(args);
      } finally {
        ended?.();
      }
    },
    { step: 'finalizeRequest', name: 'countDynamoCalls' },
  );
  client.middlewareStack.add(nameServiceOnError('DynamoDB'), { step: 'initialize', name: 'nameServiceOnError' });
  // A request answered over its budget stops here: no call is sent for work nobody waits for
  // (the rest of a batch read, the next page), so an abandoned request cannot keep the store busy.
  client.middlewareStack.add(
    (next) => async (args) => {
      refuseAbandonedWork();
      return next(args);
    },
    { step: 'initialize', name: 'refuseAbandonedWork' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (err) {
        if (!READS.has(String((context as { commandName?: string }).commandName)) || !isDroppedConnection(err)) throw err;
        // A read dropped by a reset is safe to send again, unlike a write (RetryWhenNotSent).
        return next(args);
      }
    },
    { step: 'initialize', name: 'retryReadOnReset' },
  );
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
}

/** Calls that change nothing: sending one again after a dropped connection cannot apply anything twice. */
const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'ScanCommand', 'TransactGetItemsCommand', 'DescribeTableCommand']);

/**
 * The connection was dropped under the call (reset, broken pipe, hang-up): typically a kept-alive
 * socket the store closed as idle just as the call was written on it, an answer lost, not a slow store.
 */
export function isDroppedConnection(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return !!e && (e.code === 'ECONNRESET' || e.code === 'EPIPE' || /socket hang up/.test(e.message ?? ''));
}

/**
 * Requests sent to DynamoDB by every client this process created. A bench may set `observe`:
 * called as each request is sent, it answers what to call when the request has ended (to time
 * the calls one after another that a run waits for, bench/dynamo-rounds.ts).
 */
export const dynamoCalls: { total: number; byOperation: Record<string, number>; observe?: (op: string) => () => void } = { total: 0, byOperation: {} };

export function resetDynamoCalls(): void {
  dynamoCalls.total = 0;
  dynamoCalls.byOperation = {};
}

/** Why each item of a cancelled transaction was refused, in the order the items were sent; none for any other error. */
export function cancellationReasons(err: unknown): readonly { readonly Code?: string }[] {
  return (err as { CancellationReasons?: { Code?: string }[] } | null)?.CancellationReasons ?? [];
}

/** Positions, in the order sent, of the items of a cancelled transaction refused by their own condition; none for any other error. */
export const refusedItems = (err: unknown): number[] => cancellationReasons(err).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));

/** Whether the item sent at `index` in a cancelled transaction was refused by its own condition. */
export const refusedAt = (err: unknown, index: number): boolean => cancellationReasons(err)[index]?.Code === 'ConditionalCheckFailed';

/** Cancelled by a conflicting transaction in flight on one of our items, rather than by a condition. */
export function isTransactionContention(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'TransactionConflictException' || name === 'TransactionInProgressException') return true;
  if (name !== 'TransactionCanceledException') return false;
  return cancellationReasons(err).some((r) => r.Code === 'TransactionConflict');
}

/** True for the SDK's conditional-check failure, whether from a single write or a transaction. */
export function isConditionFailure(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'ConditionalCheckFailedException') return true;
  if (name === 'TransactionCanceledException') return cancellationReasons(err).some((r) => r.Code === 'ConditionalCheckFailed');
  return false;
}

/** Refused by a condition or by contention: a write the store re-reads and decides again, rather than a failure. */
export const isRefused = (err: unknown): boolean => isConditionFailure(err) || isTransactionContention(err);

/** A random pause before a write refused by contention goes again, growing with the attempt up to `capMs`. */
export const contentionBackoff = (attempt: number, capMs: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(capMs, 5 * 2 ** Math.min(attempt, 6))));

/** Sends a conditional write: true when it was applied, false when its condition refused it; any other failure is thrown. */
export const writeIf = (db: DynamoDBDocumentClient, command: PutCommand | UpdateCommand | DeleteCommand): Promise<boolean> =>
  applied(db.send(command as UpdateCommand), isConditionFailure);

/**
 * Sends a transaction: true when it was applied, false when `refused` holds for its failure (by
 * default, a condition refused it); any other failure is thrown.
 */
export const transactIf = (db: DynamoDBDocumentClient, items: TransactItems, refused: (err: unknown) => boolean = isConditionFailure): Promise<boolean> =>
  applied(db.send(new TransactWriteCommand({ TransactItems: items })), refused);

async function applied(sent: Promise<unknown>, refused: (err: unknown) => boolean): Promise<boolean> {
  try {
    await sent;
    return true;
  } catch (err) {
    if (!refused(err)) throw err;
    return false;
  }
}

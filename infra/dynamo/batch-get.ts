import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Key } from './keys.ts';

/** DynamoDB's own limit of keys per BatchGetItem. */
const BATCH_LIMIT = 100;
const MAX_ROUNDS = 8;

/**
 * Gets these items in batches of 100 (all batches in flight at once, so callers keep the
 * key count to a page), re-asking for what DynamoDB hands back unprocessed with a short
 * backoff. Keys with no item are simply absent from the result, which is in no order.
 */
export async function getAll(
  db: DynamoDBDocumentClient,
  table: string,
  keyList: readonly Key[],
  opts: { projection?: string; consistent?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  const batches: Key[][] = [];
  for (let i = 0; i < keyList.length; i += BATCH_LIMIT) batches.push(keyList.slice(i, i + BATCH_LIMIT));
  await Promise.all(
    batches.map(async (batch) => {
      let pending: Record<string, unknown>[] = batch.map((k) => ({ PK: k.PK, SK: k.SK }));
      for (let round = 0; pending.length > 0; round += 1) {
        if (round === MAX_ROUNDS) throw new Error(`BatchGet left ${pending.length} keys unprocessed after ${MAX_ROUNDS} rounds`);
        if (round > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** round));
        const out = await db.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ...(opts.projection ? { ProjectionExpression: opts.projection } : {}), ...(opts.consistent ? { ConsistentRead: true } : {}) } } }));
        found.push(...(out.Responses?.[table] ?? []));
        pending = out.UnprocessedKeys?.[table]?.Keys ?? [];
      }
    }),
  );
  return found;
}

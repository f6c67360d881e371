import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const BATCH_LIMIT = 25;
const MAX_ROUNDS = 8;

/**
 * Puts the items in batches of 25, re-sending what DynamoDB hands back unprocessed
 * (throttling) with a short backoff. Throws when items remain after the last round, so a
 * caller never believes an unwritten outbox record exists.
 */
export async function putAll(db: DynamoDBDocumentClient, table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH_LIMIT) {
    let requests = items.slice(i, i + BATCH_LIMIT).map((Item) => ({ PutRequest: { Item } }));
    for (let round = 0; requests.length > 0; round += 1) {
      if (round === MAX_ROUNDS) throw new Error(`BatchWrite left ${requests.length} items unprocessed after ${MAX_ROUNDS} rounds`);
      if (round > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** round));
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
      requests = (out.UnprocessedItems?.[table] ?? []) as typeof requests;
    }
  }
}

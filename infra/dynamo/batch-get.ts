import { BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inParallel } from './in-parallel.ts';
import type { Key } from './keys.ts';

/** DynamoDB's own limit of keys per BatchGetItem. */
const BATCH_LIMIT = 100;
const MAX_ROUNDS = 8;

/** How getAll asks: what it projects, consistency, and how it paces and hands back its batches. */
export interface GetAllOptions {
  readonly projection?: string;
  readonly consistent?: boolean;
  /** Keys per BatchGet, at most 100 (the default). */
  readonly batchKeys?: number;
  /** BatchGets in flight at once, the next sent as one returns; every batch at once by default. */
  readonly inFlight?: number;
  /** Called with each response's items as it arrives, so the caller can decode them while the rest are read. */
  readonly onItems?: (items: Record<string, unknown>[]) => void;
  /**
   * Items as DynamoDB sends them (`{ S: "…" }` attribute values), not converted to plain values:
   * for a reader of many flat string attributes that takes each value it wants itself.
   */
  readonly raw?: boolean;
}

/**
 * Gets these items in batches of 100 (all batches in flight at once, so callers keep the
 * key count to a page, unless `inFlight` paces them), re-asking for what DynamoDB hands back
 * unprocessed with a short backoff. Keys with no item are simply absent from the result,
 * which is in no order.
 */
export async function getAll(db: DynamoDBDocumentClient, table: string, keyList: readonly Key[], opts: GetAllOptions = {}): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  const size = Math.min(BATCH_LIMIT, opts.batchKeys ?? BATCH_LIMIT);
  const batches: Key[][] = [];
  for (let i = 0; i < keyList.length; i += size) batches.push(keyList.slice(i, i + size));
  const take = (items: Record<string, unknown>[]) => {
    found.push(...items);
    opts.onItems?.(items);
  };
  const getBatch = async (batch: Key[]) => {
    let pending: Record<string, unknown>[] = batch.map((k) => (opts.raw ? { PK: { S: k.PK }, SK: { S: k.SK } } : { PK: k.PK, SK: k.SK }));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round === MAX_ROUNDS) throw new Error(`BatchGet left ${pending.length} keys unprocessed after ${MAX_ROUNDS} rounds`);
      if (round > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** round));
      const request = {
        RequestItems: {
          [table]: {
            Keys: pending,
            ...(opts.projection ? { ProjectionExpression: opts.projection } : {}),
            ...(opts.consistent ? { ConsistentRead: true } : {}),
          },
        },
      };
      // The document client sends the low-level command as it is: same client, no conversion of the items.
      const out = (await db.send(opts.raw ? (new BatchGetItemCommand(request as never) as never) : new BatchGetCommand(request))) as {
        Responses?: Record<string, Record<string, unknown>[]>;
        UnprocessedKeys?: Record<string, { Keys?: Record<string, unknown>[] }>;
      };
      take(out.Responses?.[table] ?? []);
      pending = out.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  };
  await inParallel(batches, opts.inFlight ?? batches.length, getBatch);
  return found;
}

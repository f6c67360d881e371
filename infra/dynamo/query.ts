import { QueryCommand, ScanCommand, type DynamoDBDocumentClient, type QueryCommandInput, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { GSI2 } from './table.ts';

/** Follows LastEvaluatedKey to the end. Only for admin-sized sets, never on a request path. */
export async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Reads the whole table through a filter. Only for an operator's rare look-up, never on a request path. */
export async function scanAll(db: DynamoDBDocumentClient, input: ScanCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new ScanCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/**
 * The oldest `limit` items of a sharded work queue on GSI2 whose sort key is below `below`,
 * oldest first: each shard gives its own oldest `limit` (in parallel), and the oldest of all
 * are among those. With `group`, only that agent group's items (each queue's items carry
 * `agentGroupId`): a group on a sandbox test clock is swept at its own time.
 */
export async function oldestAcrossShards(
  db: DynamoDBDocumentClient,
  input: { TableName: string; shards: readonly string[]; below: string; limit: number; group?: string },
): Promise<Record<string, unknown>[]> {
  const ofGroup = input.group === undefined ? {} : { FilterExpression: 'agentGroupId = :group', ExpressionAttributeValues: { ':group': input.group } };
  const perShard = await Promise.all(
    input.shards.map(async (shard) => {
      const items: Record<string, unknown>[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const out = await db.send(
          new QueryCommand({
            TableName: input.TableName,
            IndexName: GSI2,
            KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :below',
            ...ofGroup,
            ExpressionAttributeValues: { ':pk': shard, ':below': input.below, ...ofGroup.ExpressionAttributeValues },
            Limit: input.limit - items.length,
            ExclusiveStartKey: startKey,
          }),
        );
        items.push(...(out.Items ?? []));
        startKey = out.LastEvaluatedKey;
      } while (startKey && items.length < input.limit);
      return items;
    }),
  );
  return perShard
    .flat()
    .sort((a, b) => (String(a.GSI2SK) < String(b.GSI2SK) ? -1 : 1))
    .slice(0, input.limit);
}

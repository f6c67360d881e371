import { QueryCommand, ScanCommand, type DynamoDBDocumentClient, type QueryCommandInput, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';

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

import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { getAll } from '../../infra/dynamo/batch-get.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { testServices, uniqueId } from '../support/stack.ts';

/** The real client, counting the BatchGets it has in flight at once. */
function watched(db: DynamoDBDocumentClient) {
  const seen = { calls: 0, inFlight: 0, most: 0 };
  const client = {
    send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
      seen.calls += 1;
      seen.most = Math.max(seen.most, ++seen.inFlight);
      try {
        return await db.send(command);
      } finally {
        seen.inFlight -= 1;
      }
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, seen };
}

describe('getAll', () => {
  it('paces its BatchGets when asked and hands each response to onItems as it arrives', async () => {
    // prepare: seven items, and an eighth key with none
    const { config } = testServices();
    const db = createDocumentClient(config);
    const pk = uniqueId('batch-get');
    const items = Array.from({ length: 7 }, (_, i) => ({ PK: pk, SK: `I#${i}`, n: i }));
    await db.send(new BatchWriteCommand({ RequestItems: { [config.tableName]: items.map((Item) => ({ PutRequest: { Item } })) } }));
    const wanted = [...items.map(({ PK, SK }) => ({ PK, SK })), { PK: pk, SK: 'I#missing' }];
    const { client, seen } = watched(db);
    const handed: number[][] = [];

    // act
    const found = await getAll(client, config.tableName, wanted, { batchKeys: 2, inFlight: 2, onItems: (got) => handed.push(got.map((i) => Number(i.n))) });

    // assess
    expect(seen).toMatchObject({ calls: 4, most: 2 });
    expect(handed).toHaveLength(4);
    expect(handed.flat().sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(found.map((i) => Number(i.n)).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('sends every batch at once by default, 100 keys each', async () => {
    const { config } = testServices();
    const { client, seen } = watched(createDocumentClient(config));
    const pk = uniqueId('batch-get');
    const found = await getAll(
      client,
      config.tableName,
      Array.from({ length: 250 }, (_, i) => ({ PK: pk, SK: `none#${i}` })),
    );
    expect(found).toEqual([]);
    expect(seen).toMatchObject({ calls: 3, most: 3 });
  });

  it('hands back items as DynamoDB sends them when asked for raw items', async () => {
    const { config } = testServices();
    const db = createDocumentClient(config);
    const pk = uniqueId('batch-get');
    await db.send(new BatchWriteCommand({ RequestItems: { [config.tableName]: [{ PutRequest: { Item: { PK: pk, SK: 'I#1', n: 3, text: 'three' } } }] } }));
    const found = await getAll(
      db,
      config.tableName,
      [
        { PK: pk, SK: 'I#1' },
        { PK: pk, SK: 'I#2' },
      ],
      { raw: true },
    );
    expect(found).toEqual([{ PK: { S: pk }, SK: { S: 'I#1' }, n: { N: '3' }, text: { S: 'three' } }]);
  });
});

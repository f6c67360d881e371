import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../infra/dynamo/client.ts';

/** A store that drops the connection under the first `drops` calls, then answers each with an empty item read. */
async function droppingStore(drops: number) {
  const targets: string[] = [];
  const server = createServer((req, res) => {
    targets.push(String(req.headers['x-amz-target']));
    req.resume().on('end', () => {
      if (targets.length <= drops) return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ Item: { PK: { S: 'a' }, SK: { S: 'b' } } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const db = createDocumentClient({
    region: 'ap-south-1',
    endpoints: { dynamodb: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
    aws: { connectTimeoutMs: 1000, requestTimeoutMs: 1000, maxAttempts: 2 },
  });
  return { db, targets, close: () => new Promise<void>((resolve) => (db.destroy(), server.closeAllConnections(), server.close(() => resolve()))) };
}

describe('createDocumentClient', () => {
  it('leaves out the SDK logger middleware, which filters every response for a logger that discards it', () => {
    const db = createDocumentClient({
      region: 'ap-south-1',
      endpoints: { dynamodb: 'http://127.0.0.1:1' },
      aws: { connectTimeoutMs: 100, requestTimeoutMs: 100, maxAttempts: 1 },
    });
    const names = db.middlewareStack.identify().join(' ');
    expect(names).toContain('countDynamoCalls');
    expect(names).not.toContain('loggerMiddleware');
  });

  it('sends a read again once when its connection is dropped under it (a kept-alive socket closed as idle)', async () => {
    const store = await droppingStore(1);
    try {
      const out = await store.db.send(new GetCommand({ TableName: 'pds-test', Key: { PK: 'a', SK: 'b' } }));

      expect(out.Item).toEqual({ PK: 'a', SK: 'b' });
      expect(store.targets).toEqual(['DynamoDB_20120810.GetItem', 'DynamoDB_20120810.GetItem']);
    } finally {
      await store.close();
    }
  });

  it('never sends a write again after a dropped connection: it may have been applied', async () => {
    const store = await droppingStore(1);
    try {
      await expect(store.db.send(new PutCommand({ TableName: 'pds-test', Item: { PK: 'a', SK: 'b' } }))).rejects.toMatchObject({ code: 'ECONNRESET' });

      expect(store.targets).toEqual(['DynamoDB_20120810.PutItem']);
    } finally {
      await store.close();
    }
  });
});

import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkInUnitTest } from '../support/no-network.ts';

/** The unit tier's guard (test/support/no-network.ts): only a server the test itself started is reachable. */
let own: Server;
let ownUrl: string;

beforeAll(async () => {
  own = createServer((_req, res) => res.end('own'));
  await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
  ownUrl = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => own.close(() => resolve())));

const httpGet = (url: string): Promise<string> =>
  new Promise((resolve, reject) => {
    get(url, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString())).on('end', () => resolve(body));
    }).on('error', reject);
  });

describe('the unit tier without a network', () => {
  it('refuses fetch to the internet and to a loopback port this test does not listen on, naming the target', async () => {
    await expect(fetch('https://example.com/')).rejects.toThrow(NetworkInUnitTest);
    await expect(fetch('http://127.0.0.1:8000/')).rejects.toThrow(/reached the network \(fetch http:\/\/127\.0\.0\.1:8000\)/);
  });

  it('refuses node:http and the AWS SDK the same way, before any connection (an emulator on the port would not be reached)', async () => {
    await expect(httpGet('http://localhost:4566/health')).rejects.toThrow(/reached the network \(localhost:4566\)/);
    const db = new DynamoDBClient({
      region: 'ap-south-1',
      endpoint: 'http://127.0.0.1:8000',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      maxAttempts: 1,
    });
    try {
      await expect(db.send(new ListTablesCommand({}))).rejects.toThrow(/reached the network \(127\.0\.0\.1:8000\)/);
    } finally {
      db.destroy();
    }
  });

  it('lets a test reach a server it started in its own worker, by fetch and by node:http', async () => {
    expect(await (await fetch(ownUrl)).text()).toBe('own');
    expect(await httpGet(ownUrl)).toBe('own');
  });
});

import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../infra/dynamo/client.ts';

describe('createDocumentClient', () => {
  it('leaves out the SDK logger middleware, which filters every response for a logger that discards it', () => {
    const db = createDocumentClient({ region: 'ap-south-1', endpoints: { dynamodb: 'http://127.0.0.1:1' }, aws: { connectTimeoutMs: 100, requestTimeoutMs: 100, maxAttempts: 1 } });
    const names = db.middlewareStack.identify().join(' ');
    expect(names).toContain('countDynamoCalls');
    expect(names).not.toContain('loggerMiddleware');
  });
});

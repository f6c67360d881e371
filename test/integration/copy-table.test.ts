import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { COPY_SDK_LIMITS, copyTable } from '../../scripts/copy-table.ts';
import { provisionTable } from '../../scripts/local-stack.ts';
import { stack } from '../support/stack.ts';

describe('scripts/copy-table.ts (the last step of a PITR restore)', () => {
  it('puts back every restored item as it was, keeps items created after the restore point, deletes nothing', async () => {
    const suffix = randomBytes(4).toString('hex');
    const [restored, live] = [`pds-restored-${suffix}`, `pds-live-${suffix}`];
    await Promise.all([provisionTable(stack().env.DYNAMODB_ENDPOINT!, restored), provisionTable(stack().env.DYNAMODB_ENDPOINT!, live)]);
    const db = createDocumentClient({ region: 'ap-south-1', endpoints: { dynamodb: stack().env.DYNAMODB_ENDPOINT }, aws: COPY_SDK_LIMITS });
    // More than one scan page and many batch writes: 1,200 items of ~1 KB.
    const pad = 'x'.repeat(1000);
    const items = Array.from({ length: 1200 }, (_, i) => ({ PK: `GROUP#g-${i % 7}`, SK: `ITEM#${String(i).padStart(5, '0')}`, value: i, pad }));
    await Promise.all(items.map((Item) => db.send(new PutCommand({ TableName: restored, Item }))));
    await db.send(new PutCommand({ TableName: live, Item: { PK: 'GROUP#g-1', SK: 'ITEM#00001', value: -1, damaged: true } }));
    await db.send(new PutCommand({ TableName: live, Item: { PK: 'GROUP#g-9', SK: 'BOOKING#after', value: 'created after the restore point' } }));
    const pages: number[] = [];

    const copied = await copyTable(db, restored, live, (n) => pages.push(n));

    expect(copied).toBe(1200);
    expect(pages.length).toBeGreaterThan(1);
    const repaired = await db.send(new GetCommand({ TableName: live, Key: { PK: 'GROUP#g-1', SK: 'ITEM#00001' } }));
    expect(repaired.Item).toEqual(items[1]);
    const later = await db.send(new GetCommand({ TableName: live, Key: { PK: 'GROUP#g-9', SK: 'BOOKING#after' } }));
    expect(later.Item?.value).toBe('created after the restore point');
    const last = await db.send(new GetCommand({ TableName: live, Key: { PK: items[1199]!.PK, SK: items[1199]!.SK } }));
    expect(last.Item).toEqual(items[1199]);
  }, 120_000);

  it('refuses to copy a table onto itself', async () => {
    const db = createDocumentClient({ region: 'ap-south-1', endpoints: { dynamodb: stack().env.DYNAMODB_ENDPOINT }, aws: COPY_SDK_LIMITS });
    await expect(copyTable(db, 'pds-x', 'pds-x')).rejects.toThrow('different tables');
  });
});

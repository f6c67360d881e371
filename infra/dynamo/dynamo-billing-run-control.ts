import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BillingLock, BillingRunControl } from '../../domain/ports/billing-run-control.ts';
import { isConditionFailure, writeIf } from './client.ts';
import { itemOf } from './items.ts';
import { keys } from './keys.ts';

/*
 * Access patterns of billing control (docs/data-model.md):
 * | pattern                      | key condition                                   | index |
 * |------------------------------|-------------------------------------------------|-------|
 * | billing lock, billing state  | PK = GROUP#<g>, SK = BILLING_LOCK / BILLING_STATE | table |
 */

/** A lease: free, expired, or already ours (a retry of the same run). */
const LOCK_FREE = 'attribute_not_exists(PK) OR leaseUntil < :now OR #owner = :owner';
/** Only the holder releases, so a run whose lease expired cannot free a lock another run took since. */
const LOCK_HELD = '#owner = :owner';

/** Each group's billing lock (a lease) and the last period its scheduled billing closed. */
export class DynamoBillingRunControl implements BillingRunControl {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async acquireLock(agentGroupId: string, owner: string, now: string, leaseUntil: string): Promise<{ acquired: boolean; lock: BillingLock }> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: itemOf('BillingLock', keys.billingLock(agentGroupId), { owner, leaseUntil, takenAt: now }),
          ConditionExpression: LOCK_FREE,
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':now': now, ':owner': owner },
        }),
      );
      return { acquired: true, lock: { owner, leaseUntil } };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const held = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.billingLock(agentGroupId), ConsistentRead: true }));
      // Released between our write and this read: report it as held until now, so the caller waits a moment and retries.
      return { acquired: false, lock: { owner: (held.Item?.owner as string) ?? '', leaseUntil: (held.Item?.leaseUntil as string) ?? now } };
    }
  }

  async releaseLock(agentGroupId: string, owner: string): Promise<void> {
    await writeIf(
      this.db,
      new DeleteCommand({
        TableName: this.table,
        Key: keys.billingLock(agentGroupId),
        ConditionExpression: LOCK_HELD,
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': owner },
      }),
    );
  }

  async lastScheduledPeriod(agentGroupId: string): Promise<string | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.billingState(agentGroupId), ConsistentRead: true }));
    return out.Item?.lastPeriodTo as string | undefined;
  }

  async recordScheduledPeriod(agentGroupId: string, periodTo: string): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: itemOf('BillingState', keys.billingState(agentGroupId), { lastPeriodTo: periodTo }) }));
  }
}

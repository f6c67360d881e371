import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BillingLock, BillingRunControl } from '../../domain/ports/billing-run-control.ts';
import { isConditionFailure, writeIf } from './client.ts';
import { billingLockEntity, billingStateEntity } from './entities/billing-lock.ts';

/*
 * Access patterns of billing control (docs/data-model.md):
 * | pattern                      | key condition                                   | index |
 * |------------------------------|-------------------------------------------------|-------|
 * | billing lock, billing state  | PK = GROUP#<g>, SK = BILLING_LOCK / BILLING_STATE | table |
 */

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
          Item: billingLockEntity.toItem(agentGroupId, { owner, leaseUntil }, now),
          ConditionExpression: billingLockEntity.conditions.lockFree,
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':now': now, ':owner': owner },
        }),
      );
      return { acquired: true, lock: { owner, leaseUntil } };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const held = await this.db.send(new GetCommand({ TableName: this.table, Key: billingLockEntity.key(agentGroupId), ConsistentRead: true }));
      return { acquired: false, lock: billingLockEntity.fromItem(held.Item, now) };
    }
  }

  async releaseLock(agentGroupId: string, owner: string): Promise<void> {
    await writeIf(
      this.db,
      new DeleteCommand({
        TableName: this.table,
        Key: billingLockEntity.key(agentGroupId),
        ConditionExpression: billingLockEntity.conditions.lockHeld,
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': owner },
      }),
    );
  }

  async lastScheduledPeriod(agentGroupId: string): Promise<string | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: billingStateEntity.key(agentGroupId), ConsistentRead: true }));
    return billingStateEntity.fromItem(out.Item);
  }

  async recordScheduledPeriod(agentGroupId: string, periodTo: string): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: billingStateEntity.toItem(agentGroupId, periodTo) }));
  }
}

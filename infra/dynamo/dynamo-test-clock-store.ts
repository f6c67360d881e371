import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TestClockStore } from '../../domain/ports/test-clock-store.ts';
import type { TestClock } from '../../domain/test-clocks/test-clock.ts';
import { refusedAt, transactIf, writeIf } from './client.ts';
import { testClockEntity } from './entities/test-clock.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI2 } from './table.ts';

/**
 * One item per group (`GROUP#<id>` / `TEST_CLOCK`, listed on GSI2 `TEST_CLOCKS`), written
 * conditionally on its version. Creating and removing a clock also sets and removes the group
 * record's `testClockId` in the same transaction: authentication reads that record anyway, so a
 * request of a group without a clock reads nothing more.
 */
export class DynamoTestClockStore implements TestClockStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(agentGroupId: string): Promise<TestClock | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: testClockEntity.key(agentGroupId), ConsistentRead: true }));
    return out.Item ? testClockEntity.fromItem(out.Item) : undefined;
  }

  async list(): Promise<TestClock[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.allTestClocks().GSI2PK },
    });
    return items.map(testClockEntity.fromItem);
  }

  create(clock: TestClock): Promise<boolean> {
    return transactIf(
      this.db,
      [
        { Put: { TableName: this.table, Item: testClockEntity.toItem(clock), ConditionExpression: testClockEntity.conditions.isNew } },
        {
          Update: {
            TableName: this.table,
            Key: keys.agentGroup(clock.agentGroupId),
            UpdateExpression: 'SET testClockId = :id',
            ConditionExpression: testClockEntity.conditions.groupExists,
            ExpressionAttributeValues: { ':id': clock.id },
          },
        },
      ],
      // Only the clock's own condition means "the group has one already"; a missing group is an error.
      (err) => refusedAt(err, 0),
    );
  }

  replace(clock: TestClock, expectedVersion: number): Promise<boolean> {
    return writeIf(
      this.db,
      new PutCommand({
        TableName: this.table,
        Item: testClockEntity.toItem(clock),
        ConditionExpression: testClockEntity.conditions.sameClockAt,
        ExpressionAttributeValues: { ':id': clock.id, ':v': expectedVersion },
      }),
    );
  }

  remove(agentGroupId: string, id: string, expectedVersion: number): Promise<boolean> {
    return transactIf(
      this.db,
      [
        {
          Delete: {
            TableName: this.table,
            Key: testClockEntity.key(agentGroupId),
            ConditionExpression: testClockEntity.conditions.sameClockAt,
            ExpressionAttributeValues: { ':id': id, ':v': expectedVersion },
          },
        },
        {
          Update: {
            TableName: this.table,
            Key: keys.agentGroup(agentGroupId),
            UpdateExpression: 'REMOVE testClockId',
            ConditionExpression: testClockEntity.conditions.groupExists,
          },
        },
        // Only the clock's own condition means "gone, or moved meanwhile"; a missing group is an error.
      ],
      (err) => refusedAt(err, 0),
    );
  }
}

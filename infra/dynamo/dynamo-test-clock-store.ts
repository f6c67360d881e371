import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TestClockStore } from '../../domain/ports/test-clock-store.ts';
import type { TestClock } from '../../domain/test-clocks/test-clock.ts';
import { writeIf } from './client.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI2 } from './table.ts';

const clockOf = (item: Record<string, unknown>): TestClock => {
  const { id, agentGroupId, createdAt, setTo, setAt, status, version } = item as unknown as TestClock;
  return { id, agentGroupId, createdAt, setTo, setAt, status, version };
};

/** One item per group (`GROUP#<id>` / `TEST_CLOCK`, listed on GSI2 `TEST_CLOCKS`), written conditionally on its version. */
export class DynamoTestClockStore implements TestClockStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(agentGroupId: string): Promise<TestClock | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.testClock(agentGroupId), ConsistentRead: true }));
    return out.Item ? clockOf(out.Item) : undefined;
  }

  async list(): Promise<TestClock[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.allTestClocks().GSI2PK },
    });
    return items.map(clockOf);
  }

  create(clock: TestClock): Promise<boolean> {
    return writeIf(this.db, new PutCommand({ TableName: this.table, Item: this.item(clock), ConditionExpression: 'attribute_not_exists(PK)' }));
  }

  replace(clock: TestClock, expectedVersion: number): Promise<boolean> {
    return writeIf(
      this.db,
      new PutCommand({
        TableName: this.table,
        Item: this.item(clock),
        ConditionExpression: 'id = :id AND version = :v',
        ExpressionAttributeValues: { ':id': clock.id, ':v': expectedVersion },
      }),
    );
  }

  remove(agentGroupId: string, id: string, expectedVersion: number): Promise<boolean> {
    return writeIf(
      this.db,
      new DeleteCommand({
        TableName: this.table,
        Key: keys.testClock(agentGroupId),
        ConditionExpression: 'id = :id AND version = :v',
        ExpressionAttributeValues: { ':id': id, ':v': expectedVersion },
      }),
    );
  }

  private item(clock: TestClock) {
    return { ...keys.testClock(clock.agentGroupId), ...keys.testClockIndex(clock.agentGroupId), entity: 'TestClock', ...clock };
  }
}

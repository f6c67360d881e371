import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Minor } from '../../domain/money.ts';
import type { BalanceCheckpoint, BalanceStore } from '../../domain/ports/balance-store.ts';
import { putAll } from './batch-write.ts';
import { keys } from './keys.ts';

/*
 * Access patterns (docs/data-model.md):
 * | pattern                              | key condition                                                  | index |
 * |--------------------------------------|----------------------------------------------------------------|-------|
 * | latest checkpoint at or before t     | PK = GROUP#<g>, SK BETWEEN BALANCE# AND BALANCE#<t>, newest first, Limit 1 | table |
 * | write checkpoints                    | BatchWrite Put PK = GROUP#<g>, SK = BALANCE#<at>               | table |
 */

export class DynamoBalanceStore implements BalanceStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async latest(agentGroupId: string, atOrBefore: string): Promise<BalanceCheckpoint | undefined> {
    const range = keys.balanceCheckpointsUpTo(agentGroupId, atOrBefore);
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lower AND :upper',
        ExpressionAttributeValues: { ':pk': range.PK, ':lower': range.lower, ':upper': range.upper },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    const item = out.Items?.[0];
    return item ? { agentGroupId, at: item.at as string, balance: item.balance as Minor, writtenAt: item.writtenAt as string } : undefined;
  }

  async put(checkpoints: readonly BalanceCheckpoint[]): Promise<void> {
    await putAll(
      this.db,
      this.table,
      checkpoints.map((c) => ({ ...keys.balanceCheckpoint(c.agentGroupId, c.at), entity: 'BalanceCheckpoint', ...c })),
    );
  }
}

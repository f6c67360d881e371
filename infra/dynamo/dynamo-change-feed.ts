import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChangeRecord } from '../../domain/deliveries/catalogue-event.ts';
import type { ChangeFeed } from '../../domain/ports/change-feed.ts';
import type { Page } from '../../domain/ports/delivery-store.ts';
import { putAll } from './batch-write.ts';
import { keys } from './keys.ts';
import { TTL_ATTRIBUTE } from './table.ts';

/**
 * A channel's change feed. Access pattern: PK = CHANNEL#<c>#CHANGES, SK > <position>,
 * ascending (table). SK is `<recordedAt>#<eventId>`, so a position is simply the last SK
 * a partner saw, and an instant works as a position too.
 */

/** How long a change stays readable; a poller that falls further behind re-reads the catalogue. */
export const CHANGE_RETENTION_DAYS = 30;

const toItem = (r: ChangeRecord) => ({
  ...keys.changeRecord(r.channelId, r.recordedAt, r.eventId),
  entity: 'Change',
  channelId: r.channelId,
  recordedAt: r.recordedAt,
  eventId: r.eventId,
  notification: r.notification,
  [TTL_ATTRIBUTE]: Math.floor(Date.parse(r.recordedAt) / 1000) + CHANGE_RETENTION_DAYS * 86_400,
});

const fromItem = (item: Record<string, unknown>): ChangeRecord => ({
  channelId: item.channelId as string,
  recordedAt: item.recordedAt as string,
  eventId: item.eventId as string,
  notification: item.notification as ChangeRecord['notification'],
});

export class DynamoChangeFeed implements ChangeFeed {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async appendAll(records: readonly ChangeRecord[]): Promise<void> {
    await putAll(this.db, this.table, records.map(toItem));
  }

  async read(channelId: string, query: { after?: string; since: string; size: number }): Promise<Page<ChangeRecord> & { next: string }> {
    // Any `<instant>#<eventId>` sorts after the bare instant, so `since` doubles as an exclusive position.
    const position = query.after ?? query.since;
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk AND SK > :position',
        ExpressionAttributeValues: { ':pk': keys.changesOfChannel(channelId).PK, ':position': position },
        ScanIndexForward: true,
        Limit: query.size,
      }),
    );
    const items = out.Items ?? [];
    const last = items.at(-1);
    return { items: items.map(fromItem), next: last ? String(last.SK) : position };
  }
}

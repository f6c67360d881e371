import { GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SimulatorBehaviour } from '../../domain/catalogue/simulator.ts';
import type { ChannexInbox, InboundChanges, InboundOutcome } from '../../domain/ports/channex-inbox.ts';
import { getAll } from './batch-get.ts';
import { writeIf } from './client.ts';
import { channexRequestEntity, channexSimulatorEntity } from './entities/channex.ts';
import { keys } from './keys.ts';
import { GSI1, GSI2, TTL_ATTRIBUTE } from './table.ts';

const recordOf = (item: Record<string, unknown>): InboundChanges => {
  const { PK: _pk, SK: _sk, GSI1PK: _gpk, GSI1SK: _gsk, entity: _entity, [TTL_ATTRIBUTE]: _ttl, ...record } = item;
  return record as unknown as InboundChanges;
};

/** Channex retries a notification for hours at most; a quarter keeps the record (and operators' view of refusals) well past that. */
const KEEP_SECONDS = 90 * 86_400;

/**
 * Idempotency records of Channex notifications, Powertools style: one conditional Put
 * records the request with where its body is (the commit point of receiving it); the
 * apply step flips RECEIVED to APPLIED or REFUSED once.
 */
export class DynamoChannexInbox implements ChannexInbox {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    /** PROPERTY_SYSTEM=channex: every listing is connected. */
    private readonly everyListing: boolean,
  ) {}

  async connected(listingIds: readonly string[]): Promise<ReadonlySet<string>> {
    const ids = [...new Set(listingIds)];
    if (this.everyListing) return new Set(ids);
    const items = (await getAll(this.db, this.table, ids.map(keys.simulator))) as unknown as SimulatorBehaviour[];
    return new Set(items.filter((s) => s.channelManager === 'channex').map((s) => s.listingId));
  }

  async receive(record: InboundChanges): Promise<{ created: boolean; record: InboundChanges }> {
    const expiresAt = Math.floor(Date.parse(record.receivedAt) / 1000) + KEEP_SECONDS;
    const item = {
      ...keys.channexRequest(record.requestId),
      ...keys.channexRequestIndex(record.hotelCode, record.receivedAt, record.requestId),
      entity: 'ChannexRequest',
      ...record,
      [TTL_ATTRIBUTE]: expiresAt,
    };
    const created = await writeIf(this.db, new PutCommand({ TableName: this.table, Item: item, ConditionExpression: channexRequestEntity.conditions.isNew }));
    return { created, record: created ? record : (await this.get(record.requestId))! };
  }

  async get(requestId: string): Promise<InboundChanges | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.channexRequest(requestId), ConsistentRead: true }));
    return out.Item ? recordOf(out.Item) : undefined;
  }

  async recent(hotelCode: string, limit: number): Promise<InboundChanges[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI1,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.channexRequestsOfListing(hotelCode).GSI1PK },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map(recordOf);
  }

  async connections(page: { limit: number; after?: string }): Promise<{ listingIds: string[]; next?: string }> {
    const index = keys.channexConnectionIndex('');
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI2,
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': index.GSI2PK },
        Limit: page.limit,
        ...(page.after ? { ExclusiveStartKey: { ...keys.simulator(page.after), ...keys.channexConnectionIndex(page.after) } } : {}),
      }),
    );
    const listingIds = (out.Items ?? []).map((i) => i.listingId as string);
    return out.LastEvaluatedKey && listingIds.length ? { listingIds, next: listingIds.at(-1)! } : { listingIds };
  }

  /**
   * Scans for simulator items connected to Channex without the index key (written before it existed) and adds it,
   * conditionally on the connection still being there, so a connection removed meanwhile is not indexed. Run once
   * per stage after the deploy that adds the key (`channex index-connections`); running it again indexes nothing.
   */
  async indexConnections(): Promise<number> {
    let indexed = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.send(
        new ScanCommand({
          TableName: this.table,
          FilterExpression: 'SK = :sk AND channelManager = :cx AND attribute_not_exists(GSI2PK)',
          ExpressionAttributeValues: { ':sk': 'SIMULATOR', ':cx': 'channex' },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of out.Items ?? []) {
        const index = keys.channexConnectionIndex(item.listingId as string);
        const done = await writeIf(
          this.db,
          new UpdateCommand({
            TableName: this.table,
            Key: keys.simulator(item.listingId as string),
            UpdateExpression: 'SET GSI2PK = :pk, GSI2SK = :sk',
            ConditionExpression: channexSimulatorEntity.conditions.unindexedChannex,
            ExpressionAttributeValues: { ':pk': index.GSI2PK, ':sk': index.GSI2SK, ':cx': 'channex' },
          }),
        );
        if (done) indexed++;
      }
      start = out.LastEvaluatedKey;
    } while (start);
    return indexed;
  }

  async finish(requestId: string, outcome: InboundOutcome): Promise<void> {
    const fields: Record<string, unknown> = {
      status: outcome.status,
      ...(outcome.refusal ? { refusal: outcome.refusal } : {}),
      ...(outcome.notApplied ? { notApplied: outcome.notApplied } : {}),
      ...(outcome.nights !== undefined ? { nights: outcome.nights } : {}),
      ...(outcome.events !== undefined ? { events: outcome.events } : {}),
      appliedAt: outcome.at,
    };
    const names = Object.keys(fields);
    await writeIf(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: keys.channexRequest(requestId),
        UpdateExpression: `SET ${names.map((n) => `#${n} = :${n}`).join(', ')}`,
        ConditionExpression: channexRequestEntity.conditions.received,
        ExpressionAttributeNames: Object.fromEntries(names.map((n) => [`#${n}`, n])),
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((n) => [`:${n}`, fields[n]])), ':received': 'RECEIVED' },
      }),
    );
  }
}

import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { eachMonth } from '../../domain/catalogue/calendar.ts';
import type { Channel } from '../../domain/catalogue/channel.ts';
import type { PropertyMonth } from '../../domain/catalogue/day.ts';
import type { Stored } from '../../domain/catalogue/versioned.ts';
import type { CatalogueReader, FeedEntry, FeedPageQuery, ListingView, MonthGroup } from '../../domain/ports/catalogue-reader.ts';
import type { CatalogueStore } from '../../domain/ports/catalogue-store.ts';
import { getAll } from './batch-get.ts';
import { limiter } from './in-parallel.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI1, GSI2 } from './table.ts';

/** What a feed entry needs of a distribution row; the rest of the item is never read. */
const FEED_PROJECTION = 'listingId, feedUpdatedAt';
const feedEntry = (item: Record<string, unknown>): FeedEntry => ({ listingId: String(item.listingId), updatedAt: String(item.feedUpdatedAt) });

/** Month keys per group of propertyMonthGroups: half a BatchGet, so the first group comes back early. */
const GROUP_KEYS = 50;
const GROUPS_IN_FLIGHT = 2;

/**
 * Catalogue reads for `/api` and `/v1`. The channel's distribution rows are one Query
 * (ids only); listing views, property owners and property months are BatchGets of
 * exactly the items needed (100 keys a call, 16 calls in flight).
 */
export class DynamoCatalogueReader implements CatalogueReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly store: CatalogueStore,
  ) {}

  async distributedListingIds(channelId: string): Promise<string[]> {
    const { PK, SKPrefix } = keys.distributionsOfChannel(channelId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      ProjectionExpression: 'SK',
    });
    return items.map((i) => String(i.SK).slice(SKPrefix.length));
  }

  /**
   * One Query on GSI1 (`CHANNEL#<c>#FEED`, GSI1SK = `<feedUpdatedAt>#<listingId>`). The
   * position goes into the key condition (`GSI1SK > <position>`) rather than an
   * ExclusiveStartKey: same single read, no table keys to rebuild, and a position whose
   * row has since moved is still a valid bound. A bare `since` instant sorts before every
   * `<since>#<id>`, so `>= since` keeps rows stamped exactly then.
   */
  async feedPage(channelId: string, query: FeedPageQuery): Promise<FeedEntry[]> {
    const position = query.after && keys.channelFeedIndex(channelId, query.after.updatedAt, query.after.listingId).GSI1SK;
    const values: Record<string, string> = { ':pk': keys.channelFeed(channelId).GSI1PK };
    let condition = 'GSI1PK = :pk';
    if (position !== undefined && (query.since === undefined || position >= query.since)) {
      condition += ' AND GSI1SK > :from';
      values[':from'] = position;
    } else if (query.since !== undefined) {
      condition += ' AND GSI1SK >= :from';
      values[':from'] = query.since;
    }
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI1,
        KeyConditionExpression: condition,
        ExpressionAttributeValues: values,
        ProjectionExpression: FEED_PROJECTION,
        ScanIndexForward: true,
        Limit: query.limit,
      }),
    );
    return (out.Items ?? []).map(feedEntry);
  }

  /** One BatchGet of the distribution rows `CHANNEL#<c>` / `LISTING#<l>`: a row exists only where the channel sells the listing. */
  async feedEntries(channelId: string, listingIds: readonly string[]): Promise<FeedEntry[]> {
    const items = await getAll(
      this.db,
      this.table,
      [...new Set(listingIds)].map((id) => keys.distribution(channelId, id)),
      { projection: FEED_PROJECTION },
    );
    return items.map(feedEntry);
  }

  listingViews(listingIds: readonly string[]): Promise<ListingView[]> {
    return this.store.getListingViews(listingIds);
  }

  listingsOfProperties(propertyIds: readonly string[]): Promise<Map<string, string>> {
    return this.store.getPropertyOwners(propertyIds);
  }

  propertyMonths(propertyIds: readonly string[], fromMonth: string, toMonth: string): Promise<PropertyMonth[]> {
    const months = eachMonth(fromMonth, toMonth);
    return this.store.getMonths(propertyIds.flatMap((propertyId) => months.map((month) => ({ propertyId, month }))));
  }

  /**
   * Groups of about GROUP_KEYS month keys (whole properties, at least one), GROUPS_IN_FLIGHT
   * read at a time: the next group is asked for as soon as one arrives, so the store works on
   * it while the caller works on the one that came. All groups at once would have DynamoDB
   * Local hand every one of them back at about the same time, after the caller had sat idle
   * (docs/search.md, "Measured").
   */
  propertyMonthGroups(propertyIds: readonly string[], fromMonth: string, toMonth: string): MonthGroup[] {
    const months = eachMonth(fromMonth, toMonth);
    const perGroup = Math.max(1, Math.floor(GROUP_KEYS / months.length));
    const inTurn = limiter(GROUPS_IN_FLIGHT);
    const groups: MonthGroup[] = [];
    for (let i = 0; i < propertyIds.length; i += perGroup) {
      const ids = propertyIds.slice(i, i + perGroup);
      groups.push({
        propertyIds: ids,
        months: inTurn(() => this.store.getMonths(ids.flatMap((propertyId) => months.map((month) => ({ propertyId, month }))))),
      });
    }
    return groups;
  }

  channel(channelId: string): Promise<Stored<Channel> | undefined> {
    return this.store.getChannel(channelId);
  }

  async channelsOfListing(listingId: string): Promise<string[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.channelsOfListing(listingId).GSI2PK },
      ProjectionExpression: 'GSI2SK',
    });
    return items.map((i) => String(i.GSI2SK)).sort();
  }
}

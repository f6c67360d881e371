import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Channel } from '../../domain/catalogue/channel.ts';
import type { PropertyMonth } from '../../domain/catalogue/day.ts';
import type { Stored } from '../../domain/catalogue/versioned.ts';
import type { CatalogueReader, ListingView } from '../../domain/ports/catalogue-reader.ts';
import type { CatalogueStore } from '../../domain/ports/catalogue-store.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI2 } from './table.ts';

const nextMonth = (yyyyMm: string): string => {
  const [y, m] = yyyyMm.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

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

  listingViews(listingIds: readonly string[]): Promise<ListingView[]> {
    return this.store.getListingViews(listingIds);
  }

  listingsOfProperties(propertyIds: readonly string[]): Promise<Map<string, string>> {
    return this.store.getPropertyOwners(propertyIds);
  }

  propertyMonths(propertyIds: readonly string[], fromMonth: string, toMonth: string): Promise<PropertyMonth[]> {
    const months: string[] = [];
    for (let m = fromMonth; m <= toMonth; m = nextMonth(m)) months.push(m);
    return this.store.getMonths(propertyIds.flatMap((propertyId) => months.map((month) => ({ propertyId, month }))));
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

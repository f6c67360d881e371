import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Channel } from '../../domain/catalogue/channel.ts';
import type { PropertyMonth } from '../../domain/catalogue/day.ts';
import type { Stored } from '../../domain/catalogue/versioned.ts';
import type { CatalogueReader, ListingView } from '../../domain/ports/catalogue-reader.ts';
import type { CatalogueStore } from '../../domain/ports/catalogue-store.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI2 } from './table.ts';

/** Requests in flight at once for per-listing and per-property reads. */
const PARALLEL = 16;

async function mapLimited<T, R>(items: readonly T[], run: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return out;
}

/**
 * Catalogue reads for `/api` and `/v1`. The channel's distribution rows are one Query
 * (ids only); listing views are one Query per listing partition (listing and properties
 * live there); a property's days are one Query per property over its month items.
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

  async listingViews(listingIds: readonly string[]): Promise<ListingView[]> {
    const bundles = await mapLimited(listingIds, (id) => this.store.getListing(id));
    return bundles.flatMap((b) => (b ? [{ listing: b.listing, properties: b.properties }] : []));
  }

  async listingsOfProperties(propertyIds: readonly string[]): Promise<Map<string, string>> {
    const owners = await mapLimited(propertyIds, (id) => this.store.listingIdOfProperty(id));
    const out = new Map<string, string>();
    propertyIds.forEach((id, i) => {
      const owner = owners[i];
      if (owner) out.set(id, owner);
    });
    return out;
  }

  async propertyMonths(propertyIds: readonly string[], fromMonth: string, toMonth: string): Promise<PropertyMonth[]> {
    return (await mapLimited(propertyIds, (id) => this.store.getPropertyMonths(id, fromMonth, toMonth))).flat();
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

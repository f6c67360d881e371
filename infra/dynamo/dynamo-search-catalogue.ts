import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { CancellationPlan } from '../../domain/catalogue/cancellation.ts';
import type { Channel } from '../../domain/catalogue/channel.ts';
import { monthOf } from '../../domain/catalogue/calendar.ts';
import type { DayData } from '../../domain/catalogue/day.ts';
import type { Stored } from '../../domain/catalogue/versioned.ts';
import type { ListingView } from '../../domain/ports/catalogue-reader.ts';
import type { CatalogueStore } from '../../domain/ports/catalogue-store.ts';
import { DayDecoder, shardName, viewOfEntry, type Locator, type Shard } from '../../domain/search/projection.ts';
import type { SearchCatalogue, SearchHead, SearchShards } from '../../domain/search/search-catalogue.ts';
import { getAll } from './batch-get.ts';
import { ATTR, type DynamoSearchProjection, headFromItem, locatorOn } from './dynamo-search-projection.ts';
import { keys } from './keys.ts';

const strip = <T>(item: Record<string, unknown>): T => {
  const { PK: _pk, SK: _sk, entity: _e, ...rest } = item;
  return rest as T;
};

/**
 * A search of many places (the unfiltered one reads 50 listing shards and 50 day shards, about
 * 4 MB) reads its shards PACED_BATCH_KEYS at a time, PACED_IN_FLIGHT at once, decoding each
 * response as it comes while DynamoDB reads the next; all in one BatchGet, the responses came back
 * together and the decoding followed (unfiltered search median 227 → 197 ms on DynamoDB Local,
 * docs/search.md). A search of a few places (one town: 3–5 keys) stays one BatchGet.
 */
const PACE_ABOVE_KEYS = 20;
const PACED_BATCH_KEYS = 10;
const PACED_IN_FLIGHT = 3;

type RawItem = Record<string, { readonly S?: string } | undefined>;

/**
 * Search's reads over the channel's search projection (docs/search.md): a BatchGet of the
 * head (with the channel's bank offers), the channel and pinned properties' locators; the
 * shards' listing entries, their day shards on the stay's months and the plans (with their
 * card shards when that is at most PACE_ABOVE_KEYS keys); without the card shards, a BatchGet
 * of the page's full listing views.
 */
export class DynamoSearchCatalogue implements SearchCatalogue {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly store: CatalogueStore,
    private readonly projection: DynamoSearchProjection,
  ) {}

  async head(channelId: string, pinnedPropertyIds: readonly string[]): Promise<SearchHead> {
    const read = () =>
      getAll(this.db, this.table, [keys.searchHead(channelId), keys.channel(channelId), ...[...new Set(pinnedPropertyIds)].map(keys.searchLocator)]);
    let items = await read();
    const headItem = () => items.find((i) => i.SK === keys.searchHead(channelId).SK && i.PK === keys.searchHead(channelId).PK);
    if (!headFromItem(headItem())) {
      // Missing or built by another projection version: rebuilt from the catalogue, never misread.
      await this.projection.rebuild(channelId);
      items = await read();
    }
    const channelItem = items.find((i) => i.PK === keys.channel(channelId).PK && i.SK === keys.channel(channelId).SK);
    const pinned = new Map<string, Locator>();
    for (const item of items) {
      if (item.SK !== 'SEARCH') continue;
      const at = locatorOn(item, channelId);
      if (at) pinned.set(String(item.PK).slice('PROPERTY#'.length), at);
    }
    return { head: headFromItem(headItem())!, channel: channelItem ? strip<Stored<Channel>>(channelItem) : undefined, pinned };
  }

  async shards(channelId: string, shards: readonly Shard[], nights: readonly string[], planIds: readonly string[]): Promise<SearchShards> {
    const names = shards.map(shardName);
    const months = [...new Set(nights.map(monthOf))];
    const decoder = new DayDecoder(new Set(nights));
    const entries: ListingView[] = [];
    const days = new Map<string, Map<string, DayData>>();
    const plans: CancellationPlan[] = [];
    const cards = new Map<string, string>();
    // Raw items: shards are hundreds of flat string attributes, each taken as `.S` where it is used.
    const decode = (items: Record<string, unknown>[]) => {
      for (const item of items as RawItem[]) {
        const sk = item.SK!.S!;
        if (sk.startsWith('L#')) {
          for (const name in item) if (name.startsWith(ATTR.entry)) entries.push(viewOfEntry(item[name]!.S!));
        } else if (sk.startsWith('C#')) {
          for (const name in item) if (name.startsWith(ATTR.card)) cards.set(name.slice(ATTR.card.length), item[name]!.S!);
        } else if (sk.startsWith('D#')) {
          const month = sk.slice(-7);
          for (const name in item) {
            if (!name.startsWith(ATTR.rest)) continue;
            const propertyId = name.slice(ATTR.rest.length);
            const units = item[`${ATTR.units}${propertyId}`]?.S;
            if (units === undefined) continue;
            days.set(propertyId, decoder.month(month, units, item[name]!.S!, days.get(propertyId)));
          }
        } else if (sk === 'PLAN') plans.push(strip<Stored<CancellationPlan>>(unmarshall(item as Record<string, AttributeValue>)));
      }
    };
    const wanted = [
      ...names.map((n) => keys.searchEntries(channelId, n)),
      ...names.flatMap((n) => months.map((m) => keys.searchDays(channelId, n, m))),
      ...planIds.map(keys.cancellationPlan),
    ];
    // A search of a few shards (one town) reads their cards with them: the page's cards then need no read of their own.
    const withCards = wanted.length + names.length <= PACE_ABOVE_KEYS;
    if (withCards) wanted.push(...names.map((n) => keys.searchCards(channelId, n)));
    await getAll(
      this.db,
      this.table,
      wanted,
      wanted.length > PACE_ABOVE_KEYS ? { batchKeys: PACED_BATCH_KEYS, inFlight: PACED_IN_FLIGHT, onItems: decode, raw: true } : { onItems: decode, raw: true },
    );
    return { entries, days, plans, ...(withCards ? { cards } : {}) };
  }

  listingViews(listingIds: readonly string[]): Promise<ListingView[]> {
    return this.store.getListingViews(listingIds);
  }
}

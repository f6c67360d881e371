import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BankOffer } from '../../domain/catalogue/offers.ts';
import type { CancellationPlan } from '../../domain/catalogue/cancellation.ts';
import type { Channel } from '../../domain/catalogue/channel.ts';
import { dayOfMonth, monthOf } from '../../domain/catalogue/calendar.ts';
import type { PropertyMonth } from '../../domain/catalogue/day.ts';
import type { CatalogueReader, ListingView } from '../../domain/ports/catalogue-reader.ts';
import type { CatalogueStore } from '../../domain/ports/catalogue-store.ts';
import type { SearchCatalogue } from '../../domain/search/search-catalogue.ts';
import type { Config } from '../config.ts';
import type { Services } from '../container.ts';
import { createDocumentClient } from './client.ts';
import { monthFromItem } from './dynamo-catalogue-store.ts';
import { keys } from './keys.ts';

const BATCH_GET_MAX = 100;
const PARALLEL_BATCHES = 16;
const MAX_ROUNDS = 8;

/**
 * The BatchGet of one month's items for a stay, projected to the stay's days of that
 * month: a 3-night stay reads 3 of the 31 days, so DynamoDB sends (and Lambda parses) a
 * tenth of each item. Day keys ("01") are not valid expression names, hence the placeholders.
 */
export function stayDaysRequest(table: string, propertyIds: readonly string[], month: string, dayKeys: readonly string[]) {
  const names: Record<string, string> = { '#days': 'days', '#month': 'month' };
  dayKeys.forEach((dd, i) => (names[`#d${i}`] = dd));
  return {
    table,
    keys: propertyIds.map((id) => keys.propertyMonth(id, month)),
    ProjectionExpression: ['propertyId', '#month', ...dayKeys.map((_, i) => `#days.#d${i}`)].join(', '),
    ExpressionAttributeNames: names,
  };
}

/**
 * Search's reads over the catalogue adapters: the distribution Query, BatchGets of listing
 * views, property owners and plans, GetItem of the channel, Query of its offers, and the
 * stay's days by projected BatchGets of month items.
 */
export class DynamoSearchCatalogue implements SearchCatalogue {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly reader: CatalogueReader,
    private readonly store: CatalogueStore,
  ) {}

  distributedListingIds(channelId: string): Promise<string[]> {
    return this.reader.distributedListingIds(channelId);
  }

  propertyOwners(propertyIds: readonly string[]): Promise<Map<string, string>> {
    return this.reader.listingsOfProperties(propertyIds);
  }

  listingViews(listingIds: readonly string[]): Promise<ListingView[]> {
    return this.reader.listingViews(listingIds);
  }

  async stayDays(propertyIds: readonly string[], dates: readonly string[]): Promise<PropertyMonth[]> {
    const byMonth = new Map<string, string[]>();
    for (const date of dates) byMonth.set(monthOf(date), [...(byMonth.get(monthOf(date)) ?? []), dayOfMonth(date)]);
    const batches = [...byMonth].flatMap(([month, dayKeys]) => {
      const request = stayDaysRequest(this.table, propertyIds, month, dayKeys);
      const out: (typeof request)[] = [];
      for (let i = 0; i < request.keys.length; i += BATCH_GET_MAX) out.push({ ...request, keys: request.keys.slice(i, i + BATCH_GET_MAX) });
      return out;
    });
    const found: PropertyMonth[] = [];
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        let pending: Record<string, unknown>[] = batch.keys.map((k) => ({ PK: k.PK, SK: k.SK }));
        for (let round = 0; pending.length > 0; round++) {
          if (round === MAX_ROUNDS) throw new Error(`BatchGet left ${pending.length} keys unprocessed after ${MAX_ROUNDS} rounds`);
          if (round > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** round));
          const res = await this.db.send(
            new BatchGetCommand({ RequestItems: { [this.table]: { Keys: pending, ProjectionExpression: batch.ProjectionExpression, ExpressionAttributeNames: batch.ExpressionAttributeNames } } }),
          );
          for (const item of res.Responses?.[this.table] ?? []) found.push(monthFromItem({ days: {}, ...item }));
          pending = res.UnprocessedKeys?.[this.table]?.Keys ?? [];
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_BATCHES, batches.length) }, worker));
    return found;
  }

  channel(channelId: string): Promise<Channel | undefined> {
    return this.reader.channel(channelId);
  }

  bankOffers(channelId: string): Promise<BankOffer[]> {
    return this.store.listOffers(channelId);
  }

  cancellationPlans(planIds: readonly string[]): Promise<CancellationPlan[]> {
    return this.store.getCancellationPlans(planIds);
  }
}

let cached: { config: Config; catalogue: DynamoSearchCatalogue } | undefined;

/** One search catalogue per process (its own document client, built at first use like the container's). */
export function searchCatalogue(svc: Services): DynamoSearchCatalogue {
  if (cached?.config !== svc.config) cached = { config: svc.config, catalogue: new DynamoSearchCatalogue(createDocumentClient(svc.config), svc.config.tableName, svc.reader, svc.catalogue) };
  return cached.catalogue;
}

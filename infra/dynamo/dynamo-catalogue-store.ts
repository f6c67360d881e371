import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '../../domain/api-key.ts';
import type { Meal, ValueAddedService } from '../../domain/catalogue/add-ons.ts';
import type { CancellationPlan } from '../../domain/catalogue/cancellation.ts';
import { emptyStoredCatalogue, NO_REFS, type CatalogueRefs, type StoredCatalogue } from '../../domain/catalogue/catalogue-diff.ts';
import type { Channel, StoredDistribution } from '../../domain/catalogue/channel.ts';
import { MEAL_PLANS, parseRatePlans, ratePlansContent, type DayRates, type MealPlan, type PropertyMonth, type StoredDay } from '../../domain/catalogue/day.ts';
import type { GstRegistration, GstSlabTable } from '../../domain/catalogue/gst.ts';
import type { Listing } from '../../domain/catalogue/listing.ts';
import type { BankOffer } from '../../domain/catalogue/offers.ts';
import type { Property } from '../../domain/catalogue/property.ts';
import type { SimulatorBehaviour } from '../../domain/catalogue/simulator.ts';
import type { Stored } from '../../domain/catalogue/versioned.ts';
import type { ListingView } from '../../domain/ports/catalogue-reader.ts';
import type { CatalogueStore, ListingBundle } from '../../domain/ports/catalogue-store.ts';
import type { PendingChunk } from '../../domain/world/import-chunks.ts';
import { DynamoSearchProjection } from './dynamo-search-projection.ts';
import { inParallel } from './in-parallel.ts';
import { apiKeyItem } from './dynamo-tenant-directory.ts';
import { keys, type Key } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI2 } from './table.ts';

type Item = Record<string, unknown>;

/** DynamoDB's own request limits. */
const BATCH_GET_MAX = 100;
const BATCH_WRITE_MAX = 25;
/** Batches in flight at once: enough to hide latency, few enough not to trip throttling. */
const PARALLEL_BATCHES = 16;
const MAX_BATCH_ATTEMPTS = 8;

const ENTITY = {
  listing: 'Listing',
  property: 'Property',
  meal: 'Meal',
  vas: 'ValueAddedService',
  simulator: 'SimulatorBehaviour',
  month: 'PropertyMonth',
  channel: 'Channel',
  distribution: 'Distribution',
  offer: 'BankOffer',
  plan: 'CancellationPlan',
  gstRegistration: 'GstRegistration',
  gstSlabTable: 'GstSlabTable',
} as const;

const strip = <T>(item: Item): T => {
  const { PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g1s, GSI2PK: _g2, GSI2SK: _g2s, entity: _e, ...rest } = item;
  return rest as T;
};

/**
 * A month item holds `days`: "01"…"31" → the day's inventory fields (absent when the day
 * has no inventory), createdAt, updatedAt and `rates`: meal plan → "adults:paise …"
 * (e.g. "1:750000 2:900000"). Rates are packed into one string per meal plan because
 * DynamoDB's cost in time (and DynamoDB Local's by far) grows with the attribute count:
 * a map per adult count made a demo-world import about seven times slower.
 */
interface DayAttributes {
  quantity?: number;
  minimumStay?: number;
  maximumStay?: number;
  stopSell?: boolean;
  closedToArrival?: boolean;
  closedToDeparture?: boolean;
  minimumStayArrival?: number;
  /** Rate-plan restrictions packed as one string (ratePlansContent), for the same reason as rates. */
  ratePlans?: string;
  rates: Partial<Record<MealPlan, string>>;
  createdAt: string;
  updatedAt: string;
}

export const packRates = (rates: DayRates): Partial<Record<MealPlan, string>> => {
  const out: Partial<Record<MealPlan, string>> = {};
  for (const plan of MEAL_PLANS) {
    const byAdults = rates[plan];
    if (byAdults)
      out[plan] = Object.keys(byAdults)
        .sort((a, b) => Number(a) - Number(b))
        .map((n) => `${n}:${byAdults[n]}`)
        .join(' ');
  }
  return out;
};

export const unpackRates = (packed: Partial<Record<MealPlan, string>>): DayRates => {
  const out: Partial<Record<MealPlan, Record<string, number>>> = {};
  for (const plan of MEAL_PLANS) {
    const text = packed[plan];
    if (text === undefined) continue;
    const byAdults: Record<string, number> = {};
    for (const pair of text.split(' ')) {
      if (!pair) continue;
      const [n, paise] = pair.split(':');
      byAdults[n!] = Number(paise);
    }
    out[plan] = byAdults;
  }
  return out;
};

const dayToAttributes = ({ inventory, rates, createdAt, updatedAt }: StoredDay): DayAttributes => {
  const { ratePlans, ...room } = inventory ?? {};
  const plans = ratePlansContent(ratePlans);
  return { ...room, ...(plans ? { ratePlans: plans } : {}), rates: packRates(rates), createdAt, updatedAt };
};

const dayFromAttributes = (a: DayAttributes): StoredDay => ({
  inventory:
    a.quantity === undefined
      ? null
      : {
          quantity: a.quantity,
          minimumStay: a.minimumStay!,
          maximumStay: a.maximumStay!,
          stopSell: a.stopSell!,
          ...(a.closedToArrival ? { closedToArrival: true } : {}),
          ...(a.closedToDeparture ? { closedToDeparture: true } : {}),
          ...(a.minimumStayArrival !== undefined ? { minimumStayArrival: a.minimumStayArrival } : {}),
          ...(a.ratePlans ? { ratePlans: parseRatePlans(a.ratePlans)! } : {}),
        },
  rates: unpackRates(a.rates),
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});

const listingViewItem = (v: ListingView): Item => ({
  ...keys.listingView(v.listing.id),
  entity: 'ListingView',
  listingId: v.listing.id,
  listing: v.listing,
  properties: v.properties,
});

export const catalogueItems = {
  listing: (l: Stored<Listing>): Item => ({ ...keys.listing(l.id), entity: ENTITY.listing, ...l }),
  property: (p: Stored<Property>): Item => ({ ...keys.property(p.listingId, p.id), ...keys.propertyIndex(p.id), entity: ENTITY.property, ...p }),
  meal: (m: Stored<Meal>): Item => ({ ...keys.meal(m.listingId, m.mealId), entity: ENTITY.meal, ...m }),
  vas: (s: Stored<ValueAddedService>): Item => ({ ...keys.vas(s.listingId, s.vasId), entity: ENTITY.vas, ...s }),
  simulator: (s: Stored<SimulatorBehaviour>): Item => ({
    ...keys.simulator(s.listingId),
    // Written with the connection itself (a later write without it drops the key): the operators' list of connections.
    ...(s.channelManager === 'channex' ? keys.channexConnectionIndex(s.listingId) : {}),
    entity: ENTITY.simulator,
    ...s,
  }),
  month: (m: PropertyMonth): Item => ({
    ...keys.propertyMonth(m.propertyId, m.month),
    entity: ENTITY.month,
    propertyId: m.propertyId,
    month: m.month,
    days: Object.fromEntries(Object.entries(m.days).map(([dd, day]) => [dd, dayToAttributes(day)])),
  }),
  channel: (c: Stored<Channel>): Item => ({ ...keys.channel(c.channelId), entity: ENTITY.channel, ...c }),
  distribution: (d: Stored<StoredDistribution>): Item => ({
    ...keys.distribution(d.channelId, d.listingId),
    ...keys.channelFeedIndex(d.channelId, d.feedUpdatedAt, d.listingId),
    ...keys.listingChannelIndex(d.listingId, d.channelId),
    entity: ENTITY.distribution,
    ...d,
  }),
  offer: (o: Stored<BankOffer>): Item => ({ ...keys.offer(o.channelId, o.code), entity: ENTITY.offer, ...o }),
  plan: (p: Stored<CancellationPlan>): Item => ({ ...keys.cancellationPlan(p.planId), entity: ENTITY.plan, ...p }),
  gstRegistration: (r: Stored<GstRegistration>): Item => ({ ...keys.gstRegistration(r.state), entity: ENTITY.gstRegistration, ...r }),
  gstSlabTable: (t: Stored<GstSlabTable>): Item => ({ ...keys.gstSlabTable(t.effectiveFrom), entity: ENTITY.gstSlabTable, ...t }),
};

export const monthFromItem = (item: Item): PropertyMonth => ({
  propertyId: item.propertyId as string,
  month: item.month as string,
  days: Object.fromEntries(Object.entries(item.days as Record<string, DayAttributes>).map(([dd, a]) => [dd, dayFromAttributes(a)])),
});

/** Sorts loaded items into the stored catalogue by their entity attribute. */
function collect(items: readonly Item[]): StoredCatalogue {
  const out = emptyStoredCatalogue();
  for (const item of items) {
    switch (item.entity) {
      case ENTITY.listing:
        out.listings.push(strip(item));
        break;
      case ENTITY.property:
        out.properties.push(strip(item));
        break;
      case ENTITY.meal:
        out.meals.push(strip(item));
        break;
      case ENTITY.vas:
        out.vas.push(strip(item));
        break;
      case ENTITY.simulator:
        out.simulators.push(strip(item));
        break;
      case ENTITY.month:
        out.months.push(monthFromItem(item));
        break;
      case ENTITY.channel:
        out.channels.push(strip(item));
        break;
      case ENTITY.distribution:
        out.distributions.push(strip(item));
        break;
      case ENTITY.offer:
        out.offers.push(strip(item));
        break;
      case ENTITY.plan:
        out.cancellationPlans.push(strip(item));
        break;
      case ENTITY.gstRegistration:
        out.gstRegistrations.push(strip(item));
        break;
      case ENTITY.gstSlabTable:
        out.gstSlabTables.push(strip(item));
        break;
      default:
        break;
    }
  }
  return out;
}

/** The table keys a set of references names, each once (BatchGet rejects duplicates). */
export function keysOfRefs(refs: CatalogueRefs): Key[] {
  const all: Key[] = [
    ...refs.channels.map(keys.channel),
    ...refs.cancellationPlans.map(keys.cancellationPlan),
    ...refs.gstRegistrations.map(keys.gstRegistration),
    ...refs.gstSlabTables.map(keys.gstSlabTable),
    ...refs.listings.map(keys.listing),
    ...refs.properties.map((p) => keys.property(p.listingId, p.propertyId)),
    ...refs.meals.map((m) => keys.meal(m.listingId, m.mealId)),
    ...refs.vas.map((s) => keys.vas(s.listingId, s.vasId)),
    ...refs.simulators.map(keys.simulator),
    ...refs.distributions.map((d) => keys.distribution(d.channelId, d.listingId)),
    ...refs.offers.map((o) => keys.offer(o.channelId, o.code)),
    ...refs.months.map((m) => keys.propertyMonth(m.propertyId, m.month)),
  ];
  const seen = new Set<string>();
  return all.filter((k) => {
    const id = `${k.PK}\u0000${k.SK}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Every item a set of writes becomes; distributions last, so a feed never points at a listing not yet written. */
export function itemsOfWrites(w: StoredCatalogue): { first: Item[]; last: Item[] } {
  return {
    first: [
      ...w.channels.map(catalogueItems.channel),
      ...w.cancellationPlans.map(catalogueItems.plan),
      ...w.gstRegistrations.map(catalogueItems.gstRegistration),
      ...w.gstSlabTables.map(catalogueItems.gstSlabTable),
      ...w.listings.map(catalogueItems.listing),
      ...w.properties.map(catalogueItems.property),
      ...w.meals.map(catalogueItems.meal),
      ...w.vas.map(catalogueItems.vas),
      ...w.simulators.map(catalogueItems.simulator),
      ...w.offers.map(catalogueItems.offer),
      ...w.months.map(catalogueItems.month),
    ],
    last: w.distributions.map(catalogueItems.distribution),
  };
}

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));

export class DynamoCatalogueStore implements CatalogueStore {
  /** Kept in the same flow as every save: the per-channel search projection (docs/search.md). */
  readonly searchProjection: DynamoSearchProjection;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    this.searchProjection = new DynamoSearchProjection(db, table, this);
  }

  async load(refs: CatalogueRefs): Promise<StoredCatalogue> {
    return collect(await this.batchGet(keysOfRefs(refs)));
  }

  async save(writes: StoredCatalogue): Promise<void> {
    const { first, last } = itemsOfWrites(writes);
    await this.batchPut([
      ...first,
      ...writes.properties.map((p) => ({ ...keys.propertyOwner(p.id), entity: 'PropertyOwner', propertyId: p.id, listingId: p.listingId })),
    ]);
    // Views are rebuilt from what is now stored, after the records they summarise and before the feed points at them.
    const touched = [...new Set([...writes.listings.map((l) => l.id), ...writes.properties.map((p) => p.listingId)])];
    await this.batchPut((await this.readViewsFromSource(touched)).map(listingViewItem));
    await this.batchPut(last);
    await this.searchProjection.afterSave(writes);
  }

  /** Listing views of these listings, in the order given; listings not stored are left out. */
  async getListingViews(listingIds: readonly string[]): Promise<ListingView[]> {
    const items = await this.batchGet(listingIds.map(keys.listingView), false);
    const byId = new Map(items.map((i) => [String(i.listingId), { listing: i.listing, properties: i.properties } as ListingView]));
    const missing = listingIds.filter((id) => !byId.has(id));
    for (const v of await this.readViewsFromSource(missing)) byId.set(v.listing.id, v);
    return listingIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  /** Listing of each property; properties not stored are absent. */
  async getPropertyOwners(propertyIds: readonly string[]): Promise<Map<string, string>> {
    const items = await this.batchGet(propertyIds.map(keys.propertyOwner), false);
    const owners = new Map(items.map((i) => [String(i.propertyId), String(i.listingId)]));
    await inParallel(
      propertyIds.filter((id) => !owners.has(id)),
      PARALLEL_BATCHES,
      async (id) => {
        const owner = await this.listingIdOfProperty(id);
        if (owner) owners.set(id, owner);
      },
    );
    return owners;
  }

  /** Exactly these month items (property × yyyy-mm), batched; months never written are absent. */
  async getMonths(refs: readonly { propertyId: string; month: string }[]): Promise<PropertyMonth[]> {
    return (
      await this.batchGet(
        refs.map((r) => keys.propertyMonth(r.propertyId, r.month)),
        false,
      )
    ).map(monthFromItem);
  }

  private async readViewsFromSource(listingIds: readonly string[]): Promise<ListingView[]> {
    // A lane per query, not one per listing: thousands at once would wait in the client's socket queue past its request timeout.
    const bundles: (ListingBundle | undefined)[] = [];
    await inParallel([...listingIds.keys()], PARALLEL_BATCHES, async (i) => void (bundles[i] = await this.getListing(listingIds[i]!)));
    return bundles.flatMap((b) => (b ? [{ listing: b.listing, properties: [...b.properties].sort((x, y) => x.id.localeCompare(y.id)) }] : []));
  }

  async getListing(listingId: string): Promise<ListingBundle | undefined> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.listingPartition(listingId).PK },
    });
    const found = collect(items);
    const listing = found.listings[0];
    if (!listing) return undefined;
    return { listing, properties: found.properties, meals: found.meals, vas: found.vas, simulator: found.simulators[0] };
  }

  async getProperty(propertyId: string): Promise<Stored<Property> | undefined> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI2,
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.propertyIndex(propertyId).GSI2PK },
      }),
    );
    const item = out.Items?.[0];
    return item ? strip<Stored<Property>>(item) : undefined;
  }

  async listingIdOfProperty(propertyId: string): Promise<string | undefined> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI2,
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.propertyIndex(propertyId).GSI2PK },
      }),
    );
    return out.Items?.[0]?.listingId as string | undefined;
  }

  async getPropertyMonths(propertyId: string, fromMonth: string, toMonth: string): Promise<PropertyMonth[]> {
    const from = keys.propertyMonth(propertyId, fromMonth);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': from.PK, ':from': from.SK, ':to': keys.propertyMonth(propertyId, toMonth).SK },
    });
    return items.map(monthFromItem);
  }

  async getChannel(channelId: string): Promise<Stored<Channel> | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.channel(channelId) }));
    return out.Item ? strip<Stored<Channel>>(out.Item) : undefined;
  }

  async listOffers(channelId: string): Promise<Stored<BankOffer>[]> {
    const { PK, SKPrefix } = keys.offersOfChannel(channelId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
    });
    return items.map((i) => strip<Stored<BankOffer>>(i));
  }

  async getCancellationPlans(planIds: readonly string[]): Promise<Stored<CancellationPlan>[]> {
    return collect(await this.batchGet(keysOfRefs({ ...NO_REFS, cancellationPlans: planIds }))).cancellationPlans;
  }

  async getGstRegistration(state: string): Promise<Stored<GstRegistration> | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.gstRegistration(state) }));
    return out.Item ? strip<Stored<GstRegistration>>(out.Item) : undefined;
  }

  async listGstSlabTables(): Promise<Stored<GstSlabTable>[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.gstSlabTables().PK },
    });
    return items.map((i) => strip<Stored<GstSlabTable>>(i));
  }

  async importedSigningSecret(agentGroupId: string): Promise<string | undefined> {
    const [current, imported] = await Promise.all([
      this.db.send(new GetCommand({ TableName: this.table, Key: keys.callbackSecret(agentGroupId), ConsistentRead: true })),
      this.db.send(new GetCommand({ TableName: this.table, Key: keys.importedSigningSecret(agentGroupId), ConsistentRead: true })),
    ]);
    const sealed = imported.Item?.sealed;
    return sealed !== undefined && sealed === current.Item?.encrypted ? (imported.Item?.fingerprint as string) : undefined;
  }

  async recordImportedSigningSecret(agentGroupId: string, fingerprint: string, sealed: string, at: string): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...keys.importedSigningSecret(agentGroupId), entity: 'ImportedSigningSecret', fingerprint, sealed, importedAt: at },
      }),
    );
  }

  async overwriteKey(record: ApiKeyRecord): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: apiKeyItem(record) }));
  }

  async pendingChunk(runKey: string): Promise<PendingChunk | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.importJournal(runKey), ConsistentRead: true }));
    return out.Item ? ({ refs: out.Item.refs, changes: out.Item.changes } as PendingChunk) : undefined;
  }

  async recordPendingChunk(runKey: string, chunk: PendingChunk): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...keys.importJournal(runKey), entity: 'ImportJournal', refs: chunk.refs, changes: chunk.changes } }),
    );
  }

  async clearPendingChunk(runKey: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: keys.importJournal(runKey) }));
  }

  private async batchGet(keyList: readonly Key[], consistent = true): Promise<Item[]> {
    const found: Item[] = [];
    await inParallel(chunks(keyList, BATCH_GET_MAX), PARALLEL_BATCHES, async (batch) => {
      let pending: Record<string, unknown>[] = batch.map((k) => ({ PK: k.PK, SK: k.SK }));
      for (let attempt = 0; pending.length; attempt++) {
        if (attempt >= MAX_BATCH_ATTEMPTS) throw new Error(`BatchGet left ${pending.length} keys unprocessed after ${MAX_BATCH_ATTEMPTS} attempts`);
        if (attempt > 0) await pause(attempt);
        const out = await this.db.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: pending, ConsistentRead: consistent } } }));
        found.push(...(out.Responses?.[this.table] ?? []));
        pending = out.UnprocessedKeys?.[this.table]?.Keys ?? [];
      }
    });
    return found;
  }

  private async batchPut(items: readonly Item[]): Promise<void> {
    await inParallel(chunks(items, BATCH_WRITE_MAX), PARALLEL_BATCHES, async (batch) => {
      let pending = batch.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length; attempt++) {
        if (attempt >= MAX_BATCH_ATTEMPTS) throw new Error(`BatchWrite left ${pending.length} items unprocessed after ${MAX_BATCH_ATTEMPTS} attempts`);
        if (attempt > 0) await pause(attempt);
        const out = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.table]: pending } }));
        pending = (out.UnprocessedItems?.[this.table] ?? []) as typeof pending;
      }
    });
  }
}

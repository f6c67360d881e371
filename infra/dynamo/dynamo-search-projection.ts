import { BatchWriteCommand, UpdateCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { StoredCatalogue } from '../../domain/catalogue/catalogue-diff.ts';
import type { BankOffer } from '../../domain/catalogue/offers.ts';
import type { Stored } from '../../domain/catalogue/versioned.ts';
import type { CatalogueStore } from '../../domain/ports/catalogue-store.ts';
import {
  buildPlace,
  headOfPlaces,
  searchCardOf,
  sortOffers,
  monthStrings,
  placeKeyOf,
  PROJECTION_VERSION,
  searchEntryOf,
  shardFromName,
  shardName,
  shardOf,
  unitsString,
  viewsByPlace,
  type BuiltPlace,
  type Locator,
  type MonthStrings,
  type Place,
  type ProjectionHead,
  SHARD_TARGET_BYTES,
} from '../../domain/search/projection.ts';
import { getAll } from './batch-get.ts';
import { inParallel } from './in-parallel.ts';
import { monthFromItem } from './dynamo-catalogue-store.ts';
import { keys, type Key } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI2 } from './table.ts';

/*
 * The search projection's items (docs/search.md, "Projection"; docs/data-model.md):
 * | item                 | PK                | SK                         | attributes                                        |
 * |----------------------|-------------------|----------------------------|---------------------------------------------------|
 * | head                 | SEARCH#<channel>  | HEAD                       | v, plans (set), p:<place> (JSON), s:<place> (set), o:<code> → offer (JSON) |
 * | listing shard        | SEARCH#<channel>  | L#<place>#<part>           | l:<listingId> → entry (JSON)                      |
 * | card shard           | SEARCH#<channel>  | C#<place>#<part>           | k:<listingId> → the listing's view (JSON)         |
 * | day shard            | SEARCH#<channel>  | D#<place>#<part>#<yyyy-mm> | u:<propertyId> → units, r:<propertyId> → rest     |
 * | locator              | PROPERTY#<id>     | SEARCH                     | listingId, v, c:<channel> → <place>#<part>        |
 * Attributes are flat (not maps) so one listing or property is set or removed with an
 * UpdateItem that also works on an item not yet written.
 */

type Item = Record<string, unknown>;
type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
interface Move {
  readonly kind: 'leave' | 'arrive';
  readonly channelId: string;
  readonly shard: string;
  readonly propertyId: string;
}

export const ATTR = { entry: 'l:', card: 'k:', units: 'u:', rest: 'r:', place: 'p:', localities: 's:', channel: 'c:', offer: 'o:' } as const;
const PARALLEL = 16;
/** Assignments per UpdateItem, well inside DynamoDB's 4 KB expression limit. */
const UPDATE_CHUNK = 40;
const BATCH_WRITE_MAX = 25;

/** The head an item holds, or undefined when there is none or it was built by another projection version. */
export function headFromItem(item: Item | undefined): ProjectionHead | undefined {
  if (!item || item.v !== PROJECTION_VERSION) return undefined;
  const places = new Map<string, Place>();
  const localities = new Map<string, Set<string>>();
  const offers: Stored<BankOffer>[] = [];
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith(ATTR.place)) places.set(name.slice(ATTR.place.length), JSON.parse(value as string) as Place);
    if (name.startsWith(ATTR.localities)) localities.set(name.slice(ATTR.localities.length), new Set(value as Set<string>));
    if (name.startsWith(ATTR.offer)) offers.push(JSON.parse(value as string) as Stored<BankOffer>);
  }
  return { version: PROJECTION_VERSION, places, localities, planIds: [...((item.plans as Set<string> | undefined) ?? [])].sort(), offers: sortOffers(offers) };
}

/** The locator of a property on one channel, from its item. */
export function locatorOn(item: Item | undefined, channelId: string): Locator | undefined {
  const at = item?.[`${ATTR.channel}${channelId}`];
  return typeof at === 'string' && item!.v === PROJECTION_VERSION ? { listingId: String(item!.listingId), shard: shardFromName(at) } : undefined;
}

const keyId = (k: Key) => `${k.PK}\u0000${k.SK}`;

/** SET and REMOVE of flat attributes on one item, gathered before it is written. */
class Changes {
  readonly sets = new Map<string, unknown>();
  readonly removes = new Set<string>();
  readonly adds = new Map<string, Set<string>>();
  constructor(readonly key: Key) {}
  set(name: string, value: unknown) {
    this.removes.delete(name);
    this.sets.set(name, value);
  }
  remove(name: string) {
    if (!this.sets.has(name)) this.removes.add(name);
  }
  add(name: string, values: Iterable<string>) {
    this.adds.set(name, new Set([...(this.adds.get(name) ?? []), ...values]));
  }
}

/** UpdateItem inputs for one item's changes, in chunks that respect the expression limit. */
export function updateInputs(
  table: string,
  c: Changes,
): {
  TableName: string;
  Key: Key;
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}[] {
  const ops: ({ kind: 'set' | 'add'; name: string; value: unknown } | { kind: 'remove'; name: string })[] = [
    ...[...c.sets].map(([name, value]) => ({ kind: 'set' as const, name, value })),
    ...[...c.adds].filter(([, v]) => v.size > 0).map(([name, value]) => ({ kind: 'add' as const, name, value })),
    ...[...c.removes].map((name) => ({ kind: 'remove' as const, name })),
  ];
  const out = [];
  for (let i = 0; i < ops.length; i += UPDATE_CHUNK) {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets: string[] = [];
    const adds: string[] = [];
    const removes: string[] = [];
    ops.slice(i, i + UPDATE_CHUNK).forEach((op, j) => {
      names[`#a${j}`] = op.name;
      if (op.kind === 'remove') removes.push(`#a${j}`);
      else {
        values[`:v${j}`] = op.value;
        (op.kind === 'set' ? sets : adds).push(op.kind === 'set' ? `#a${j} = :v${j}` : `#a${j} :v${j}`);
      }
    });
    const expression = [
      sets.length ? `SET ${sets.join(', ')}` : '',
      adds.length ? `ADD ${adds.join(', ')}` : '',
      removes.length ? `REMOVE ${removes.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    out.push({
      TableName: table,
      Key: c.key,
      UpdateExpression: expression,
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    });
  }
  return out;
}

/** What a rebuild found different between the stored projection and the catalogue. */
export interface DriftReport {
  readonly channelId: string;
  /** The stored head was missing or of another projection version. */
  readonly headStale: boolean;
  readonly listings: { readonly missing: number; readonly extra: number; readonly changed: number };
  /** Result cards (the listings' whole views), compared as the entries are. */
  readonly cards: { readonly missing: number; readonly extra: number; readonly changed: number };
  /** The channel's bank offers in the head. */
  readonly offers: { readonly missing: number; readonly extra: number; readonly changed: number };
  readonly propertyMonths: { readonly missing: number; readonly extra: number; readonly unitsChanged: number; readonly restChanged: number };
  readonly places: number;
  readonly shards: number;
  readonly itemsWritten: number;
}

const sum = (c: { readonly missing: number; readonly extra: number; readonly changed: number }) => c.missing + c.extra + c.changed;

export const noDrift = (r: DriftReport): boolean =>
  !r.headStale &&
  sum(r.listings) +
    sum(r.cards) +
    sum(r.offers) +
    r.propertyMonths.missing +
    r.propertyMonths.extra +
    r.propertyMonths.unitsChanged +
    r.propertyMonths.restChanged ===
    0;

/**
 * Keeps the per-channel search projection: a rebuild from the catalogue (admin tool, and
 * a channel whose head is missing or stale), the incremental update after every catalogue
 * save (world import, catalogue sync), and the projection's half of a unit move (bookings,
 * cancellations) as transaction items.
 */
export class DynamoSearchProjection {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly store: Pick<CatalogueStore, 'getListingViews' | 'getPropertyOwners' | 'listOffers'>,
  ) {}

  async readHead(channelId: string): Promise<ProjectionHead | undefined> {
    return headFromItem((await getAll(this.db, this.table, [keys.searchHead(channelId)], { consistent: true }))[0]);
  }

  /**
   * Recomputes the channel's projection from the catalogue, reports how the stored one
   * differed, and replaces it: shards first, then locators, then the head, so a reader
   * that finds the new head finds everything it names.
   */
  async rebuild(channelId: string): Promise<DriftReport> {
    const ids = await this.distributedListingIds(channelId);
    const views = await this.store.getListingViews(ids);
    const stored = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.searchPartition(channelId).PK },
      ConsistentRead: true,
    });
    const storedHead = stored.find((i) => i.SK === keys.searchHead(channelId).SK);

    const built: BuiltPlace[] = [];
    for (const here of viewsByPlace(views).values()) {
      const strings = new Map<string, MonthStrings[]>();
      await inParallel(
        here.flatMap((v) => v.properties.map((p) => p.id)),
        PARALLEL,
        async (propertyId) => {
          const months = await queryAll(this.db, {
            TableName: this.table,
            KeyConditionExpression: 'PK = :pk AND begins_with(SK, :month)',
            ExpressionAttributeValues: { ':pk': keys.propertyMonth(propertyId, '').PK, ':month': keys.propertyMonth(propertyId, '').SK },
            ConsistentRead: true,
          });
          strings.set(
            propertyId,
            months.map((m) => ({ month: String(m.month), ...monthStrings(monthOfItem(m)) })),
          );
        },
      );
      built.push(buildPlace(here, (id) => strings.get(id) ?? []));
    }
    const head = headOfPlaces(
      built,
      views.flatMap((v) => v.listing.cancellationPlanIds),
      await this.store.listOffers(channelId),
    );

    const items = new Map(built.flatMap((b) => shardItems(channelId, b)).map((i) => [keyId(i as unknown as Key), i]));
    const report = drift(
      channelId,
      storedHead,
      stored.filter((i) => i !== storedHead),
      items,
      head,
      built,
    );

    await this.batchWrite([...items.values()].map((Item) => ({ PutRequest: { Item } })));
    const gone = stored.filter((i) => i !== storedHead && !items.has(keyId(i as unknown as Key)));
    await this.batchWrite(gone.map((i) => ({ DeleteRequest: { Key: { PK: i.PK, SK: i.SK } } })));
    const locators = built.flatMap((b) => [...b.locators]);
    await inParallel(locators, PARALLEL, async ([propertyId, at]) => {
      const c = new Changes(keys.searchLocator(propertyId));
      c.set('entity', 'SearchLocator');
      c.set('listingId', at.listingId);
      c.set('v', PROJECTION_VERSION);
      c.set(`${ATTR.channel}${channelId}`, shardName(at.shard));
      for (const input of updateInputs(this.table, c)) await this.db.send(new UpdateCommand(input));
    });
    await this.db.send(new BatchWriteCommand({ RequestItems: { [this.table]: [{ PutRequest: { Item: headItem(channelId, head) } }] } }));
    return { ...report, itemsWritten: items.size + 1 };
  }

  /**
   * After a catalogue save (world import, catalogue sync): the entries of listings whose
   * record, properties or distribution were written, and the day strings of every month
   * written, on every channel selling them. A channel without a current head is rebuilt
   * whole instead. Writes per channel: one UpdateItem per listing shard and per day shard
   * touched (a listing's 365 days are 13 day shards), plus the head when a place or plan
   * is new and one locator per property whose shard changed.
   */
  async afterSave(writes: StoredCatalogue): Promise<void> {
    const entryListings = new Set([
      ...writes.listings.map((l) => l.id),
      ...writes.properties.map((p) => p.listingId),
      ...writes.distributions.map((d) => d.listingId),
    ]);
    if (entryListings.size === 0 && writes.months.length === 0 && writes.offers.length === 0) return;
    const ownerOf = new Map(writes.properties.map((p) => [p.id, p.listingId]));
    const unowned = [...new Set(writes.months.map((m) => m.propertyId))].filter((id) => !ownerOf.has(id));
    for (const [id, owner] of unowned.length ? await this.store.getPropertyOwners(unowned) : []) ownerOf.set(id, owner);
    const listingIds = [...new Set([...entryListings, ...writes.months.flatMap((m) => (ownerOf.has(m.propertyId) ? [ownerOf.get(m.propertyId)!] : []))])];

    const views = new Map((await this.store.getListingViews(listingIds)).map((v) => [v.listing.id, v]));
    const channelsOf = new Map<string, string[]>();
    await inParallel(listingIds, PARALLEL, async (id) => void channelsOf.set(id, await this.channelsOfListing(id)));
    const channels = [...new Set([...[...channelsOf.values()].flat(), ...writes.offers.map((o) => o.channelId)])].sort();
    const headItems = await getAll(this.db, this.table, channels.map(keys.searchHead), { consistent: true });
    const heads = new Map(channels.map((ch) => [ch, headFromItem(headItems.find((i) => i.PK === keys.searchHead(ch).PK))] as const));

    const stale = channels.filter((ch) => !heads.get(ch));
    const fresh = channels.filter((ch) => heads.get(ch));
    await inParallel(stale, 2, async (ch) => void (await this.rebuild(ch)));
    if (fresh.length === 0) return;

    const propertyIds = [...views.values()].flatMap((v) => v.properties.map((p) => p.id));
    const locatorItems = new Map((await getAll(this.db, this.table, propertyIds.map(keys.searchLocator), { consistent: true })).map((i) => [String(i.PK), i]));
    const monthsOf = new Map<string, StoredCatalogue['months']>();
    for (const m of writes.months) monthsOf.set(m.propertyId, [...(monthsOf.get(m.propertyId) ?? []), m]);

    const changes = new Map<string, Changes>();
    const changesOf = (key: Key) => changes.get(keyId(key)) ?? changes.set(keyId(key), new Changes(key)).get(keyId(key))!;
    /** Properties that leave a shard (their days go) or arrive in one (their stored months are copied in). */
    const relocated: Move[] = [];

    for (const ch of fresh) {
      const head = heads.get(ch)!;
      const places = new Map(head.places);
      const headChanges = changesOf(keys.searchHead(ch));
      for (const offer of writes.offers) if (offer.channelId === ch) headChanges.set(`${ATTR.offer}${offer.code}`, offerText(offer));
      for (const view of views.values()) {
        if (!channelsOf.get(view.listing.id)?.includes(ch)) continue;
        const placeKey = placeKeyOf(view.listing);
        if (!places.has(placeKey)) {
          const place: Place = { state: view.listing.state.toLowerCase(), city: view.listing.city.toLowerCase(), parts: 1 };
          places.set(placeKey, place);
          headChanges.set(`${ATTR.place}${placeKey}`, JSON.stringify(place));
        }
        const shard = shardName(shardOf(view.listing, places));
        if (entryListings.has(view.listing.id)) {
          changesOf(keys.searchEntries(ch, shard)).set(`${ATTR.entry}${view.listing.id}`, searchEntryOf(view));
          changesOf(keys.searchCards(ch, shard)).set(`${ATTR.card}${view.listing.id}`, searchCardOf(view));
          headChanges.add(`${ATTR.localities}${placeKey}`, [view.listing.locality.toLowerCase()]);
          headChanges.add('plans', view.listing.cancellationPlanIds);
        }
        for (const p of view.properties) {
          const locator = locatorItems.get(keys.searchLocator(p.id).PK);
          const was = locatorOn(locator, ch);
          const before = was ? shardName(was.shard) : undefined;
          if (before !== shard || was?.listingId !== view.listing.id) {
            if (was && before !== shard) {
              changesOf(keys.searchEntries(ch, before!)).remove(`${ATTR.entry}${was.listingId}`);
              changesOf(keys.searchCards(ch, before!)).remove(`${ATTR.card}${was.listingId}`);
              relocated.push({ kind: 'leave', channelId: ch, shard: before!, propertyId: p.id });
            }
            relocated.push({ kind: 'arrive', channelId: ch, shard, propertyId: p.id });
            const lc = changesOf(keys.searchLocator(p.id));
            lc.set('entity', 'SearchLocator');
            lc.set('listingId', view.listing.id);
            lc.set('v', PROJECTION_VERSION);
            lc.set(`${ATTR.channel}${ch}`, shard);
          }
          for (const m of monthsOf.get(p.id) ?? []) {
            const s = monthStrings(m);
            const dc = changesOf(keys.searchDays(ch, shard, m.month));
            dc.set(`${ATTR.units}${p.id}`, s.units);
            dc.set(`${ATTR.rest}${p.id}`, s.rest);
          }
        }
      }
    }
    await this.relocate(relocated, changesOf, monthsOf);

    // A save that brings a place more than a shard holds (a new city's whole catalogue) is a
    // rebuild of the channel, which sizes the place's parts, instead of an item over the limit.
    const crowded = new Set([...changes.values()].filter((c) => rank(c.key) === 0 && bytesOf(c) > SHARD_TARGET_BYTES).map((c) => c.key.PK));
    const rebuilt = fresh.filter((ch) => crowded.has(keys.searchHead(ch).PK));
    await inParallel(rebuilt, 2, async (ch) => void (await this.rebuild(ch)));

    // Shards before locators and the head, so nothing points at a shard not yet written.
    const ordered = [...changes.values()].filter((c) => !rebuilt.some((ch) => c.key.PK === keys.searchHead(ch).PK)).sort((a, b) => rank(a.key) - rank(b.key));
    try {
      for (const stage of [0, 1, 2]) {
        await inParallel(
          ordered.filter((c) => rank(c.key) === stage),
          PARALLEL,
          async (c) => {
            for (const input of updateInputs(this.table, c)) await this.db.send(new UpdateCommand(input));
          },
        );
      }
    } catch (err) {
      // A shard grown past DynamoDB's item limit by many small syncs: the rebuild spreads its place over more parts.
      if (!isItemTooLarge(err)) throw err;
      await inParallel(
        fresh.filter((ch) => !rebuilt.includes(ch)),
        2,
        async (ch) => void (await this.rebuild(ch)),
      );
    }
  }

  /**
   * A property that left a shard loses its days there; one that arrived gets every stored
   * month this save did not write (a listing newly distributed, or moved to another city).
   */
  private async relocate(moves: readonly Move[], changesOf: (k: Key) => Changes, written: ReadonlyMap<string, readonly { month: string }[]>): Promise<void> {
    await inParallel(moves, PARALLEL, async ({ kind, channelId, shard, propertyId }) => {
      if (kind === 'leave') {
        const prefix = keys.searchDays(channelId, shard, '');
        const items = await queryAll(this.db, {
          TableName: this.table,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
          ExpressionAttributeValues: { ':pk': prefix.PK, ':sk': prefix.SK },
          ProjectionExpression: 'PK, SK',
        });
        for (const i of items) {
          const c = changesOf({ PK: String(i.PK), SK: String(i.SK) });
          c.remove(`${ATTR.units}${propertyId}`);
          c.remove(`${ATTR.rest}${propertyId}`);
        }
        return;
      }
      const done = new Set((written.get(propertyId) ?? []).map((m) => m.month));
      const prefix = keys.propertyMonth(propertyId, '');
      const months = await queryAll(this.db, {
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': prefix.PK, ':sk': prefix.SK },
        ConsistentRead: true,
      });
      for (const item of months) {
        const m = monthOfItem(item);
        if (done.has(m.month)) continue;
        const s = monthStrings(m);
        const c = changesOf(keys.searchDays(channelId, shard, m.month));
        c.set(`${ATTR.units}${propertyId}`, s.units);
        c.set(`${ATTR.rest}${propertyId}`, s.rest);
      }
    });
  }

  private async distributedListingIds(channelId: string): Promise<string[]> {
    const { PK, SKPrefix } = keys.distributionsOfChannel(channelId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      ProjectionExpression: 'SK',
      ConsistentRead: true,
    });
    return items.map((i) => String(i.SK).slice(SKPrefix.length));
  }

  private async channelsOfListing(listingId: string): Promise<string[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.channelsOfListing(listingId).GSI2PK },
      ProjectionExpression: 'GSI2SK',
    });
    return items.map((i) => String(i.GSI2SK));
  }

  private async batchWrite(requests: readonly Record<string, unknown>[]): Promise<void> {
    const batches: Record<string, unknown>[][] = [];
    for (let i = 0; i < requests.length; i += BATCH_WRITE_MAX) batches.push(requests.slice(i, i + BATCH_WRITE_MAX));
    await inParallel(batches, PARALLEL, async (batch) => {
      let pending = batch;
      for (let round = 0; pending.length; round++) {
        if (round === 8) throw new Error(`BatchWrite left ${pending.length} requests unprocessed after 8 rounds`);
        if (round > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** round));
        const out = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.table]: pending as never } }));
        pending = (out.UnprocessedItems?.[this.table] ?? []) as Record<string, unknown>[];
      }
    });
  }
}

const bytesOf = (c: Changes): number => [...c.sets.values()].reduce<number>((n, v) => n + (typeof v === 'string' ? v.length : 0), 0);

const isItemTooLarge = (err: unknown): boolean =>
  (err as { name?: string }).name === 'ValidationException' && /item size/i.test((err as { message?: string }).message ?? '');

/** Day and listing shards first (0), then locators (1), then heads (2). */
const rank = (k: Key): number => (k.SK === 'HEAD' ? 2 : k.SK === 'SEARCH' ? 1 : 0);

/** A month item's days as the projection reads them (inventory fields and packed rates). */
const monthOfItem = (item: Item) => monthFromItem({ days: {}, ...item });

/** The listing and day shard items of one built place, as a rebuild writes them. */
export function shardItems(channelId: string, b: BuiltPlace): Item[] {
  const items: Item[] = [];
  for (const [name, content] of b.shards) {
    items.push({
      ...keys.searchEntries(channelId, name),
      entity: 'SearchEntries',
      ...Object.fromEntries([...content.entries].map(([id, e]) => [`${ATTR.entry}${id}`, e])),
    });
    items.push({
      ...keys.searchCards(channelId, name),
      entity: 'SearchCards',
      ...Object.fromEntries([...content.cards].map(([id, c]) => [`${ATTR.card}${id}`, c])),
    });
    for (const [month, props] of content.months) {
      const attrs: Item = { ...keys.searchDays(channelId, name, month), entity: 'SearchDays' };
      for (const [pid, s] of props) {
        attrs[`${ATTR.units}${pid}`] = s.units;
        attrs[`${ATTR.rest}${pid}`] = s.rest;
      }
      items.push(attrs);
    }
  }
  return items;
}

/**
 * An offer as the head stores it: its fields in name order, so the copy a save writes and the
 * one a rebuild reads from the catalogue (whose fields come back in another order) are the same text.
 */
const offerText = (offer: Stored<BankOffer>): string => JSON.stringify(Object.fromEntries(Object.entries(offer).sort(([a], [b]) => (a < b ? -1 : 1))));

/** The projection head item. */
export function headItem(channelId: string, head: ProjectionHead): Item {
  const item: Item = { ...keys.searchHead(channelId), entity: 'SearchHead', v: head.version };
  if (head.planIds.length) item.plans = new Set(head.planIds);
  for (const [key, place] of head.places) item[`${ATTR.place}${key}`] = JSON.stringify(place);
  for (const [key, set] of head.localities) if (set.size) item[`${ATTR.localities}${key}`] = new Set(set);
  for (const offer of head.offers) item[`${ATTR.offer}${offer.code}`] = offerText(offer);
  return item;
}

function drift(
  channelId: string,
  storedHead: Item | undefined,
  stored: readonly Item[],
  built: ReadonlyMap<string, Item>,
  head: ProjectionHead,
  places: readonly BuiltPlace[],
): Omit<DriftReport, 'itemsWritten'> {
  const compare = (before: Map<string, unknown>, after: Map<string, unknown>) => {
    let missing = 0;
    let changed = 0;
    for (const [k, v] of after)
      if (!before.has(k)) missing++;
      else if (before.get(k) !== v) changed++;
    return { missing, extra: [...before.keys()].filter((k) => !after.has(k)).length, changed };
  };
  // Keyed by attribute alone (not shard), so a listing in another shard counts once as changed, not missing and extra.
  const byName = (items: Iterable<Item>, prefix: string, withMonth: boolean) => {
    const out = new Map<string, unknown>();
    for (const item of items)
      for (const [name, value] of Object.entries(item))
        if (name.startsWith(prefix)) out.set(withMonth ? `${name}\u0000${String(item.SK).slice(-7)}` : name, value);
    return out;
  };
  const isEntries = (i: Item) => String(i.SK).startsWith('L#');
  const isCards = (i: Item) => String(i.SK).startsWith('C#');
  const isDays = (i: Item) => String(i.SK).startsWith('D#');
  const listings = compare(byName(stored.filter(isEntries), ATTR.entry, false), byName([...built.values()].filter(isEntries), ATTR.entry, false));
  const cards = compare(byName(stored.filter(isCards), ATTR.card, false), byName([...built.values()].filter(isCards), ATTR.card, false));
  const offers = compare(byName(storedHead ? [storedHead] : [], ATTR.offer, false), byName([headItem(channelId, head)], ATTR.offer, false));
  const units = compare(byName(stored.filter(isDays), ATTR.units, true), byName([...built.values()].filter(isDays), ATTR.units, true));
  const rest = compare(byName(stored.filter(isDays), ATTR.rest, true), byName([...built.values()].filter(isDays), ATTR.rest, true));
  return {
    channelId,
    headStale: headFromItem(storedHead) === undefined,
    listings,
    cards,
    offers,
    propertyMonths: { missing: rest.missing, extra: rest.extra, unitsChanged: units.changed, restChanged: rest.changed },
    places: head.places.size,
    shards: places.reduce((s, b) => s + b.shards.size, 0),
  };
}

/** The locator keys to read with a unit move's months, so its projection items need no round trip of their own. */
export const locatorKeys = (propertyIds: readonly string[]): Key[] => [...new Set(propertyIds)].map(keys.searchLocator);

/**
 * The search projection's half of a unit move, for the same transaction as the month
 * updates: for each property month whose units moved, the month's new units string on
 * every channel its locator names, one Update per day shard (two properties of a shard
 * share it: a transaction may touch an item once). `unitsAfter` gives each moved property
 * month's quantities after the move, as the month items will hold them.
 */
export function unitMoveItems(
  table: string,
  readItems: readonly Item[],
  moved: readonly { propertyId: string; month: string; quantityOn: (dd: string) => number | undefined }[],
): TransactItems {
  const locators = new Map(readItems.filter((i) => i.SK === 'SEARCH').map((i) => [String(i.PK), i]));
  const byShard = new Map<string, Changes>();
  for (const m of moved) {
    const item = locators.get(keys.searchLocator(m.propertyId).PK);
    if (!item || item.v !== PROJECTION_VERSION) continue;
    const units = unitsString(m.quantityOn);
    for (const [name, shard] of Object.entries(item)) {
      if (!name.startsWith(ATTR.channel)) continue;
      const key = keys.searchDays(name.slice(ATTR.channel.length), String(shard), m.month);
      const c = byShard.get(keyId(key)) ?? byShard.set(keyId(key), new Changes(key)).get(keyId(key))!;
      c.set(`${ATTR.units}${m.propertyId}`, units);
    }
  }
  return [...byShard.values()].flatMap((c) => updateInputs(table, c).map((Update) => ({ Update })));
}

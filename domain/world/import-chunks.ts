import {
  CATALOGUE_KINDS,
  emptyStoredCatalogue,
  identityOf,
  refsOf,
  type CatalogueDiff,
  type CatalogueKind,
  type CatalogueRefs,
  type DateChanges,
  type StoredCatalogue,
} from '../catalogue/catalogue-diff.ts';

/** What one chunk changed: what a sync announces for it. */
export type ChunkChanges = Pick<CatalogueDiff, 'changed' | 'inventory' | 'rates'>;

export interface ImportChunk {
  readonly writes: StoredCatalogue;
  readonly changes: ChunkChanges;
  /** Catalogue records in the chunk (each one item of the table, before read models). */
  readonly records: number;
}

/**
 * The unfinished chunk of an import or sync, recorded before its first write and cleared
 * once it is whole (records, read models, announcements): what a re-run of the same file
 * must finish first. Date changes keep only their first and last date, the window a
 * sync announces, so the record stays small.
 */
export interface PendingChunk {
  readonly refs: CatalogueRefs;
  readonly changes: ChunkChanges;
}

/** About 100 listings of two properties and two months each: small enough for a journal item, large enough that the per-chunk work is paid rarely. */
export const CHUNK_RECORDS = 1_000;

const FIELD: Record<CatalogueKind, keyof StoredCatalogue> = {
  channel: 'channels',
  cancellationPlan: 'cancellationPlans',
  gstRegistration: 'gstRegistrations',
  gstSlabTable: 'gstSlabTables',
  listing: 'listings',
  property: 'properties',
  meal: 'meals',
  vas: 'vas',
  simulator: 'simulators',
  distribution: 'distributions',
  offer: 'offers',
  propertyMonth: 'months',
};

const recordsOf = (w: StoredCatalogue): number => CATALOGUE_KINDS.reduce((n, k) => n + w[FIELD[k]].length, 0);

/**
 * Splits a diff's writes into chunks of about `budget` records that can each be stored and
 * announced on their own: a listing travels with its properties, meals, services,
 * simulator, distributions and its properties' months; a property whose listing is not
 * written travels with all its months; channels, plans, GST data and offers come first.
 * So every event a sync derives from a chunk is the one it would derive from the whole
 * diff (a property's date window is never split), and a chunk's records never depend on
 * a later chunk's.
 */
export function chunksOf(diff: CatalogueDiff, budget: number = CHUNK_RECORDS): ImportChunk[] {
  const w = diff.writes;
  const ownerOf = new Map(w.properties.map((p) => [p.id, p.listingId]));
  const ofListing = (listingId: string) => `L:${listingId}`;
  const ofProperty = (propertyId: string) => (ownerOf.has(propertyId) ? ofListing(ownerOf.get(propertyId)!) : `P:${propertyId}`);
  const units = new Map<string, StoredCatalogue>([['W', emptyStoredCatalogue()]]);
  const unit = (key: string) => units.get(key) ?? units.set(key, emptyStoredCatalogue()).get(key)!;
  const put = <K extends keyof StoredCatalogue>(field: K, key: string, record: StoredCatalogue[K][number]) =>
    (unit(key)[field] as StoredCatalogue[K][number][]).push(record);

  for (const field of ['channels', 'cancellationPlans', 'gstRegistrations', 'gstSlabTables', 'offers'] as const) for (const r of w[field]) put(field, 'W', r);
  for (const r of w.listings) put('listings', ofListing(r.id), r);
  for (const r of w.properties) put('properties', ofListing(r.listingId), r);
  for (const r of w.meals) put('meals', ofListing(r.listingId), r);
  for (const r of w.vas) put('vas', ofListing(r.listingId), r);
  for (const r of w.simulators) put('simulators', ofListing(r.listingId), r);
  for (const r of w.distributions) put('distributions', ofListing(r.listingId), r);
  for (const r of w.months) put('months', ofProperty(r.propertyId), r);
  const datesOf = (changes: readonly DateChanges[]) => {
    const byUnit = new Map<string, DateChanges[]>();
    for (const c of changes) byUnit.set(ofProperty(c.propertyId), [...(byUnit.get(ofProperty(c.propertyId)) ?? []), c]);
    return byUnit;
  };
  const inventory = datesOf(diff.inventory);
  const rates = datesOf(diff.rates);
  // Date changes with no month written (a merge that changed nothing stored) still belong to a unit.
  for (const key of [...inventory.keys(), ...rates.keys()]) unit(key);

  const chunks: ImportChunk[] = [];
  let writes = emptyStoredCatalogue();
  let keysInChunk: string[] = [];
  const close = () => {
    const records = recordsOf(writes);
    if (records === 0 && keysInChunk.every((k) => !inventory.has(k) && !rates.has(k))) return;
    const changed = Object.fromEntries(
      CATALOGUE_KINDS.map((k) => [k, (writes[FIELD[k]] as never[]).map((r) => (identityOf[k] as (r: never) => string)(r))]),
    ) as ChunkChanges['changed'];
    chunks.push({
      writes,
      records,
      changes: { changed, inventory: keysInChunk.flatMap((k) => inventory.get(k) ?? []), rates: keysInChunk.flatMap((k) => rates.get(k) ?? []) },
    });
    writes = emptyStoredCatalogue();
    keysInChunk = [];
  };
  for (const [key, u] of units) {
    if (keysInChunk.length > 0 && recordsOf(writes) + recordsOf(u) > budget) close();
    for (const field of Object.values(FIELD)) (writes[field] as unknown[]).push(...u[field]);
    keysInChunk.push(key);
  }
  close();
  return chunks;
}

/** The stored records a chunk wrote, as a store loads them again. */
export const refsOfWrites = (w: StoredCatalogue): CatalogueRefs => ({
  ...refsOf({ ...w, days: new Map() }),
  months: w.months.map((m) => ({ propertyId: m.propertyId, month: m.month })),
});

/** The journal's form of a chunk: its refs, and each date change cut to its window. */
export function pendingOf(chunk: ImportChunk): PendingChunk {
  const window = (c: DateChanges): DateChanges => ({
    propertyId: c.propertyId,
    dates: c.dates.length > 1 ? [c.dates[0]!, c.dates[c.dates.length - 1]!] : [...c.dates],
  });
  return {
    refs: refsOfWrites(chunk.writes),
    changes: { changed: chunk.changes.changed, inventory: chunk.changes.inventory.map(window), rates: chunk.changes.rates.map(window) },
  };
}

import type { DateChanges } from '../catalogue/catalogue-diff.ts';
import type { CatalogueEvent } from '../deliveries/catalogue-event.ts';
import { ValidationError } from '../errors.ts';
import type { CatalogueReader } from '../ports/catalogue-reader.ts';
import type { ChunkChanges } from '../world/import-chunks.ts';
import { importWorld, type ImportSummary, type ImportWorldDeps, type ImportWorldOptions } from '../world/import-world.ts';

/**
 * What the provider's property system may push: listings (with their properties, meals and
 * services), daily inventory and rates. Tenants, keys, channels, offers, plans and GST data
 * are operator concerns and belong to a world import, not to a sync.
 */
const SYNCABLE_CATALOGUE = new Set(['listings', 'inventory', 'rates']);
const SYNCABLE_TOP = new Set(['version', 'catalogue']);

export interface SyncDeps extends ImportWorldDeps {
  readonly reader: Pick<CatalogueReader, 'channelsOfListing' | 'listingsOfProperties'>;
  /** Durable fan-out of catalogue events (outbox rows, change feed, then queue messages). */
  readonly publish: (events: readonly CatalogueEvent[]) => Promise<unknown>;
}

export interface SyncResult {
  readonly summary: ImportSummary;
  readonly events: readonly CatalogueEvent[];
}

/** Refuses anything a sync may not carry, naming its path, before anything is read or written. */
export function assertSyncDocument(document: unknown): void {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) throw new ValidationError('$', 'A sync document is a JSON object.');
  for (const key of Object.keys(document)) {
    if (!SYNCABLE_TOP.has(key)) throw new ValidationError(key, `${key} cannot be changed by a catalogue sync; use a world import.`);
  }
  const catalogue = (document as { catalogue?: unknown }).catalogue;
  if (catalogue !== undefined && catalogue !== null && typeof catalogue === 'object') {
    for (const key of Object.keys(catalogue)) {
      if (!SYNCABLE_CATALOGUE.has(key))
        throw new ValidationError(`catalogue.${key}`, `catalogue.${key} cannot be changed by a catalogue sync; use a world import.`);
    }
  }
}

const listingOfIdentity = (identity: string): string => identity.split('/')[0]!;

/**
 * Applies a sync and announces exactly what changed. The comparison with what is stored is
 * the import's (records and days whose content is unchanged are neither written nor
 * announced), so an identical re-sync writes nothing and sends nothing.
 *
 * Events: listing.updated for a listing whose own record, meals, services or
 * distribution changed; property.updated per changed property; inventory.changed and
 * rate.changed per property with the smallest window covering the changed dates. Each goes
 * to every channel that sells the listing.
 */
export async function syncCatalogue(
  deps: SyncDeps,
  document: unknown,
  opts: Pick<ImportWorldOptions, 'onProgress' | 'chunkRecords'> = {},
): Promise<SyncResult> {
  assertSyncDocument(document);
  const events: CatalogueEvent[] = [];
  // Announced chunk by chunk, once each chunk is stored: a sync stopped halfway has announced
  // exactly what it stored, and its re-run announces the rest (the stopped chunk included) once.
  const summary = await importWorld(deps, document, {
    allowPlaintextKeys: false,
    dayMode: 'merge',
    onProgress: opts.onProgress,
    chunkRecords: opts.chunkRecords,
    afterChunk: async (changes) => {
      const announced = await eventsOf(deps, changes);
      if (announced.length > 0) await deps.publish(announced);
      events.push(...announced);
    },
  });
  return { summary, events };
}

async function eventsOf(deps: SyncDeps, changes: ChunkChanges): Promise<CatalogueEvent[]> {
  const changed = changes.changed;
  const occurredAt = deps.clock.now().toISOString();

  const listings = new Set<string>([
    ...changed.listing,
    ...changed.meal.map(listingOfIdentity),
    ...changed.vas.map(listingOfIdentity),
    ...changed.distribution.map((id) => id.split('/')[1]!),
  ]);
  const properties = new Set<string>([...changed.property, ...changes.inventory.map((c) => c.propertyId), ...changes.rates.map((c) => c.propertyId)]);

  const ownerOf = await deps.reader.listingsOfProperties([...properties]);
  const channelsOf = new Map<string, string[]>();
  await Promise.all(
    [...new Set([...listings, ...ownerOf.values()])].map(async (listingId) => channelsOf.set(listingId, await deps.reader.channelsOfListing(listingId))),
  );
  const channelsOfProperty = (propertyId: string) => channelsOf.get(ownerOf.get(propertyId) ?? '') ?? [];
  // The dates come sorted, so the smallest window covering them is first..last.
  const windowEvent = (eventType: 'inventory.changed' | 'rate.changed', entityType: string, c: DateChanges): CatalogueEvent => ({
    eventType,
    entityType,
    entityId: c.propertyId,
    fromDate: c.dates[0]!,
    toDate: c.dates[c.dates.length - 1]!,
    occurredAt,
    channelIds: channelsOfProperty(c.propertyId),
  });

  return [
    ...[...listings].sort().map((id) => ({
      eventType: 'listing.updated' as const,
      entityType: 'listing',
      entityId: id,
      fromDate: null,
      toDate: null,
      occurredAt,
      channelIds: channelsOf.get(id) ?? [],
    })),
    ...[...changed.property].sort().map((id) => ({
      eventType: 'property.updated' as const,
      entityType: 'property',
      entityId: id,
      fromDate: null,
      toDate: null,
      occurredAt,
      channelIds: channelsOfProperty(id),
    })),
    ...changes.inventory.map((c) => windowEvent('inventory.changed', 'inventory', c)),
    ...changes.rates.map((c) => windowEvent('rate.changed', 'rate', c)),
  ].filter((e) => e.channelIds.length > 0);
}

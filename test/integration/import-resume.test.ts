import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { describe, expect, it } from 'vitest';
import { emptyStoredCatalogue, type StoredCatalogue } from '../../domain/catalogue/catalogue-diff.ts';
import type { CatalogueEvent } from '../../domain/deliveries/catalogue-event.ts';
import type { CatalogueStore } from '../../domain/ports/catalogue-store.ts';
import { syncCatalogue, type SyncDeps } from '../../domain/sync/sync-catalogue.ts';
import { importWorld, type ImportWorldDeps } from '../../domain/world/import-world.ts';
import { adminDeps, syncDeps } from '../../infra/container.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { DynamoSearchProjection, noDrift } from '../../infra/dynamo/dynamo-search-projection.ts';
import { searchWorld } from '../../bench/search-world.ts';
import { testServices, uniqueId } from '../support/stack.ts';

/**
 * An import or sync stopped halfway (here by a crash seam in the catalogue store or the
 * publisher, the real ones underneath) is finished by running the same file again: the
 * catalogue, its listing views and the search projection end as one clean run leaves
 * them, and every change is announced exactly once.
 */
const FROM = '2027-05-01';
const LISTINGS = 60;
/** About 8 listings a chunk, so the world takes several. */
const CHUNK = 80;

class Crash extends Error {}

function world(tag: string) {
  return searchWorld({ channelId: `rs-${tag}`, listings: LISTINGS, from: FROM, days: 40, idPrefix: `rs-${tag}-l` });
}

/** The real store, whose `save` of the `nth` chunk (1-based) writes only the records and views of its listings and properties, then crashes. */
function crashingOnSave(real: CatalogueStore, nth: number): CatalogueStore {
  let saves = 0;
  return new Proxy(real, {
    get(target, prop, receiver) {
      if (prop !== 'save') return Reflect.get(target, prop, receiver);
      return async (writes: StoredCatalogue) => {
        saves += 1;
        if (saves !== nth) return target.save(writes);
        await target.save({ ...emptyStoredCatalogue(), listings: writes.listings, properties: writes.properties });
        throw new Crash(`crashed in chunk ${nth}`);
      };
    },
  });
}

async function catalogueOf(tag: string) {
  const svc = testServices();
  const doc = world(tag);
  const ids = doc.catalogue!.listings!.map((l) => l.id);
  const views = await svc.catalogue.getListingViews(ids);
  const propertyIds = views.flatMap((v) => v.properties.map((p) => p.id));
  const months = await svc.reader.propertyMonths(propertyIds, '2027-05', '2027-06');
  return {
    listings: views.map((v) => [v.listing.id, v.listing.title, v.properties.map((p) => p.id)]),
    distributed: (await svc.reader.distributedListingIds(`rs-${tag}`)).sort(),
    days: months.map((m) => [m.propertyId, m.month, Object.keys(m.days).length]).sort(),
  };
}

describe('an interrupted import or sync, run again', () => {
  it('a world import that crashed mid-chunk converges on the clean catalogue, views and search projection', async () => {
    // Prepare
    const tag = uniqueId('i').slice(2);
    const svc = testServices();
    const deps: ImportWorldDeps = { ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue };
    const progress: [number, number][] = [];

    // Act: the third chunk stops after its listings and properties, before its months and distributions
    await expect(
      importWorld({ ...deps, catalogue: crashingOnSave(svc.catalogue, 3) }, world(tag), { allowPlaintextKeys: true, chunkRecords: CHUNK }),
    ).rejects.toBeInstanceOf(Crash);
    const halfway = await catalogueOf(tag);
    await importWorld(deps, world(tag), {
      allowPlaintextKeys: true,
      chunkRecords: CHUNK,
      onProgress: (written, total) => void progress.push([written, total]),
    });

    // Assess
    expect(halfway.distributed.length).toBeGreaterThan(0);
    expect(halfway.distributed.length).toBeLessThan(LISTINGS);
    const after = await catalogueOf(tag);
    expect(after.listings).toHaveLength(LISTINGS);
    expect(after.distributed).toHaveLength(LISTINGS);
    expect(after.days).toHaveLength(LISTINGS * 2 * 2);
    expect(after.days.every(([, month, n]) => n === (month === '2027-05' ? 31 : 9))).toBe(true);
    expect(progress.at(-1)![0]).toBe(progress.at(-1)![1]);
    // The stopped chunk's read models were rebuilt: the projection needs no repair.
    const report = await new DynamoSearchProjection(createDocumentClient(svc.config), svc.config.tableName, svc.catalogue).rebuild(`rs-${tag}`);
    expect(noDrift(report)).toBe(true);
    const again = await importWorld(deps, world(tag), { allowPlaintextKeys: true, chunkRecords: CHUNK });
    expect(Object.values(again.written).every((n) => n === 0)).toBe(true);
  }, 240_000);

  it('a sync that crashed before announcing a stored chunk announces every change exactly once over both runs', async () => {
    // Prepare
    const tag = uniqueId('s').slice(2);
    const svc = testServices();
    await importWorld({ ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue }, world(tag), { allowPlaintextKeys: true });
    const properties = world(tag).catalogue!.listings!.flatMap((l) => l.properties.map((p) => p.id));
    const sync = {
      version: 1,
      catalogue: {
        rates: properties.map((propertyId, i) => ({
          propertyId,
          from: '2027-05-03',
          to: `2027-05-${String(4 + (i % 5)).padStart(2, '0')}`,
          mealPlan: 'EP',
          adults: { '1': 4_321 },
        })),
      },
    };
    const announced: CatalogueEvent[] = [];
    const real = syncDeps(svc);
    let publishes = 0;
    const crashing: SyncDeps = {
      ...real,
      publish: async (events) => {
        publishes += 1;
        // The third chunk is stored, then the process dies before its announcement leaves.
        if (publishes === 3) throw new Crash('crashed before publishing chunk 3');
        announced.push(...events);
        return real.publish(events);
      },
    };
    const counting: SyncDeps = { ...real, publish: async (events) => (announced.push(...events), real.publish(events)) };
    const since = new Date(Date.now() - 1000).toISOString();

    // Act
    await expect(syncCatalogue(crashing, sync, { chunkRecords: 40 })).rejects.toBeInstanceOf(Crash);
    const second = await syncCatalogue(counting, sync, { chunkRecords: 40 });

    // Assess
    const byProperty = new Map<string, number>();
    for (const e of announced) byProperty.set(e.entityId, (byProperty.get(e.entityId) ?? 0) + 1);
    expect([...byProperty.keys()].sort()).toEqual([...properties].sort());
    expect([...byProperty.values()].every((n) => n === 1)).toBe(true);
    expect(announced.every((e) => e.eventType === 'rate.changed' && e.fromDate === '2027-05-03')).toBe(true);
    expect(second.events.length).toBeGreaterThan(0);
    expect(second.events.length).toBeLessThan(properties.length);
    const feed = (await svc.changes.read(`rs-${tag}`, { since, size: 500 })).items.map((r) => r.notification.entityId);
    expect(feed.sort()).toEqual([...properties].sort());
    const months = await svc.reader.propertyMonths(properties, '2027-05', '2027-05');
    expect(months.every((m) => m.days['03']!.rates.EP?.['1'] === 432_100)).toBe(true);
    expect((await syncCatalogue(counting, sync)).events).toEqual([]);
  }, 240_000);
});

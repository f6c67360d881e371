import { beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { syncCatalogue } from '../../domain/sync/sync-catalogue.ts';
import { syncDeps } from '../../infra/container.ts';
import { seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { testServices } from '../support/stack.ts';

let fx: CatalogueFixture;
beforeAll(async () => {
  fx = await seedCatalogue();
}, 120_000);

const recentChanges = async (channelId: string) =>
  (await testServices().changes.read(channelId, { since: new Date(Date.now() - 60_000).toISOString(), size: 100 })).items.map((r) => r.notification);

describe('syncCatalogue', () => {
  it('announces a rate change with the smallest window covering the changed dates, on every channel selling it', async () => {
    const p1 = fx.propertiesOf[fx.both]![0]!;
    const doc = {
      version: 1,
      catalogue: {
        rates: [
          { propertyId: p1, from: '2027-03-03', to: '2027-03-03', mealPlan: 'EP', adults: { '2': 5_100 } },
          { propertyId: p1, from: '2027-03-07', to: '2027-03-07', mealPlan: 'CP', adults: { '1': 4_600 } },
        ],
      },
    };

    const result = await syncCatalogue(syncDeps(testServices()), doc);

    expect(result.events).toEqual([
      expect.objectContaining({
        eventType: 'rate.changed',
        entityType: 'rate',
        entityId: p1,
        fromDate: '2027-03-03',
        toDate: '2027-03-07',
        channelIds: [fx.channelA, fx.channelB].sort(),
      }),
    ]);
    const feedA = await recentChanges(fx.channelA);
    expect(feedA).toContainEqual(expect.objectContaining({ eventType: 'rate.changed', entityId: p1, fromDate: '2027-03-03', toDate: '2027-03-07' }));
    const rates = await testServices().reader.propertyMonths([p1], '2027-03', '2027-03');
    expect(rates[0]!.days['03']!.rates.EP).toEqual({ '1': 400_000, '2': 510_000 });
  });

  it('writes nothing and sends nothing when the same sync is applied again', async () => {
    const p2 = fx.propertiesOf[fx.onlyA]![1]!;
    const doc = { version: 1, catalogue: { inventory: [{ propertyId: p2, from: '2027-03-02', to: '2027-03-04', quantity: 1 }] } };
    const first = await syncCatalogue(syncDeps(testServices()), doc);
    expect(first.events.map((e) => [e.eventType, e.fromDate, e.toDate, e.channelIds])).toEqual([
      ['inventory.changed', '2027-03-02', '2027-03-04', [fx.channelA]],
    ]);

    const again = await syncCatalogue(syncDeps(testServices()), doc);

    expect(again.events).toEqual([]);
    expect(Object.values(again.summary.written).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('announces listing.updated and property.updated for changed records only', async () => {
    const listing = (fx.world.catalogue!.listings! as Record<string, unknown>[]).find((l) => l.id === fx.onlyB)!;
    const properties = listing.properties as Record<string, unknown>[];
    const changed = { ...listing, title: 'Renamed villa', properties: [properties[0], { ...properties[1], name: 'Garden Suite' }] };

    const result = await syncCatalogue(syncDeps(testServices()), { version: 1, catalogue: { listings: [changed] } });

    expect(result.events.map((e) => [e.eventType, e.entityId, e.channelIds])).toEqual([
      ['listing.updated', fx.onlyB, [fx.channelB]],
      ['property.updated', fx.propertiesOf[fx.onlyB]![1], [fx.channelB]],
    ]);
  });

  it('refuses sections a sync may not carry, naming the path, and writes nothing', async () => {
    const attempt = syncCatalogue(syncDeps(testServices()), { version: 1, channels: [{ channelId: 'x-chan', name: 'X' }] });
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toMatchObject({ param: 'channels' });
    expect(await testServices().reader.channel('x-chan')).toBeUndefined();
    await expect(syncCatalogue(syncDeps(testServices()), { version: 1, catalogue: { offers: [] } })).rejects.toMatchObject({ param: 'catalogue.offers' });
  });

  it('names the path of a bad value and changes nothing', async () => {
    const p1 = fx.propertiesOf[fx.both]![0]!;
    const bad = {
      version: 1,
      catalogue: {
        inventory: [
          { propertyId: p1, from: '2027-03-01', to: '2027-03-02', quantity: 1 },
          { propertyId: p1, from: '2027-03-09', to: '2027-03-01', quantity: 1 },
        ],
      },
    };
    await expect(syncCatalogue(syncDeps(testServices()), bad)).rejects.toMatchObject({ param: expect.stringContaining('catalogue.inventory[1]') });
    const months = await testServices().reader.propertyMonths([p1], '2027-03', '2027-03');
    expect(months[0]!.days['01']!.inventory!.quantity).toBe(2);
  });
});

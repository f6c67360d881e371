import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffCatalogue, emptyStoredCatalogue } from '../../domain/catalogue/catalogue-diff.ts';
import { channelRate } from '../../domain/catalogue/channel.ts';
import { gstRatePercent, slabTableOn } from '../../domain/catalogue/gst.ts';
import { worldCatalogue } from '../../domain/world/world-catalogue.ts';
import { parseWorldShape } from '../../domain/world/world-schema.ts';
import { packRates, unpackRates } from '../../infra/dynamo/dynamo-catalogue-store.ts';
import { clone, smallWorld } from '../support/world-fixture.ts';

describe('Function: channelRate', () => {
  it('adjusts by whole percent and rounds half up to whole rupees', () => {
    expect(channelRate(750_000, -10)).toBe(675_000);
    expect(channelRate(333_300, -10)).toBe(300_000); // 2999.70 → 3000
    expect(channelRate(10_500, -10)).toBe(9_500); // 94.50 → 95
    expect(channelRate(10_400, -10)).toBe(9_400); // 93.60 → 94
    expect(channelRate(123_456, 0)).toBe(123_500);
  });

  it('always lands on whole rupees within half a rupee of the exact value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), fc.integer({ min: -90, max: 200 }), (base, pct) => {
        const out = channelRate(base, pct);
        expect(out % 100).toBe(0);
        expect(Math.abs(out - (base * (100 + pct)) / 100)).toBeLessThanOrEqual(50);
      }),
    );
  });
});

describe('Function: gstRatePercent', () => {
  const tables = worldCatalogue(parseWorldShape(smallWorld('t'))).gstSlabTables;

  it('picks the table in force on the date and the slab of the unit-night value', () => {
    const today = slabTableOn(tables, '2026-11-22')!;
    const before = slabTableOn(tables, '2025-09-21')!;

    expect(gstRatePercent(today, 750_000)).toBe(5);
    expect(gstRatePercent(today, 750_001)).toBe(18);
    expect(gstRatePercent(before, 100_000)).toBe(0);
    expect(gstRatePercent(before, 750_000)).toBe(12);
    expect(slabTableOn(tables, '2019-09-30')).toBeUndefined();
  });
});

describe('Function: diffCatalogue', () => {
  const content = () => worldCatalogue(parseWorldShape(smallWorld('t')));

  it('writes everything once and nothing the second time', () => {
    const first = diffCatalogue(emptyStoredCatalogue(), content(), '2027-01-01T00:00:00.000Z');
    const second = diffCatalogue(first.writes, content(), '2027-01-02T00:00:00.000Z');

    expect(first.counts.listing).toEqual({ written: 2, unchanged: 0 });
    expect(first.inventory.map((c) => c.dates.length)).toEqual([7, 7, 7]);
    expect(Object.values(second.counts).every((c) => c.written === 0)).toBe(true);
    expect(second.inventory).toEqual([]);
  });

  it('keeps createdAt, moves updatedAt and reports only the dates whose inventory changed', () => {
    const stored = diffCatalogue(emptyStoredCatalogue(), content(), '2027-01-01T00:00:00.000Z').writes;
    const world = clone(smallWorld('t'));
    world.catalogue.inventory!.push({ propertyId: 'l2p1-t', from: '2027-03-06', to: '2027-03-07', quantity: 1, stopSell: true });
    world.catalogue.listings![1]!.title = 'Chalet Fixture, renamed';

    const diff = diffCatalogue(stored, worldCatalogue(parseWorldShape(world)), '2027-01-05T00:00:00.000Z');

    expect(diff.inventory).toEqual([{ propertyId: 'l2p1-t', dates: ['2027-03-06', '2027-03-07'] }]);
    expect(diff.rates).toEqual([]);
    expect(diff.changed.listing).toEqual(['l2-t']);
    expect(diff.writes.listings[0]).toMatchObject({ createdAt: '2027-01-01T00:00:00.000Z', updatedAt: '2027-01-05T00:00:00.000Z' });
    expect(diff.writes.distributions).toEqual([
      {
        channelId: 'web-t',
        listingId: 'l2-t',
        feedUpdatedAt: '2027-01-05T00:00:00.000Z',
        createdAt: '2027-01-01T00:00:00.000Z',
        updatedAt: '2027-01-05T00:00:00.000Z',
      },
    ]);
    expect(diff.writes.months[0]!.days['05']!.updatedAt).toBe('2027-01-01T00:00:00.000Z');
    expect(diff.writes.months[0]!.days['06']!.updatedAt).toBe('2027-01-05T00:00:00.000Z');
  });
});

describe('Function: packRates / unpackRates', () => {
  it('round-trips any rates', () => {
    const plain = { noNullPrototype: true };
    const adults = fc.dictionary(
      fc.integer({ min: 1, max: 99 }).map(String),
      fc.integer({ min: 0, max: 1e9 }).map((r) => r * 100),
      plain,
    );
    const rates = fc.dictionary(fc.constantFrom('EP', 'CP', 'MAP', 'AP'), adults, plain);
    fc.assert(
      fc.property(rates, (r) => {
        expect(unpackRates(packRates(r))).toEqual(r);
      }),
    );
  });
});

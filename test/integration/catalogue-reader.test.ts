import { beforeAll, describe, expect, it } from 'vitest';
import type { PropertyMonth } from '../../domain/catalogue/day.ts';
import { seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { testServices } from '../support/stack.ts';

let fx: CatalogueFixture;
beforeAll(async () => {
  fx = await seedCatalogue();
}, 120_000);

const byKey = (months: readonly PropertyMonth[]) => [...months].sort((a, b) => `${a.propertyId} ${a.month}`.localeCompare(`${b.propertyId} ${b.month}`));

describe('propertyMonthGroups', () => {
  it('reads exactly the months propertyMonths reads, in groups of whole properties that keep the order asked', async () => {
    const reader = testServices().reader;
    const ids = [...Object.values(fx.propertiesOf).flat(), 'no-such-property'].sort();
    // Thirteen months a property: three properties fill a group of 50 keys, so seven ids make three groups.
    const groups = reader.propertyMonthGroups(ids, '2027-01', '2028-01');
    expect(groups.map((g) => g.propertyIds.length)).toEqual([3, 3, 1]);
    expect(groups.flatMap((g) => g.propertyIds)).toEqual(ids);
    const read = await Promise.all(groups.map((g) => g.months));
    read.forEach((months, i) => expect(months.every((m) => groups[i]!.propertyIds.includes(m.propertyId))).toBe(true));
    const all = read.flat();
    expect(all.length).toBeGreaterThan(0);
    expect(byKey(all)).toEqual(byKey(await reader.propertyMonths(ids, '2027-01', '2028-01')));
  });

  it('puts every property in one group when a short window fits them in one read', () => {
    const ids = Object.values(fx.propertiesOf).flat();
    expect(
      testServices()
        .reader.propertyMonthGroups(ids, '2027-03', '2027-03')
        .map((g) => g.propertyIds),
    ).toEqual([ids]);
  });
});

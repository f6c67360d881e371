import { describe, expect, it } from 'vitest';
import { addDays, dayOfMonth, monthOf } from '../../domain/catalogue/calendar.ts';
import type { PropertyMonth, StoredDay } from '../../domain/catalogue/day.ts';
import type { CatalogueReader, MonthGroup } from '../../domain/ports/catalogue-reader.ts';
import { MAX_ROWS, readRates } from '../../domain/reads/partner-reads.ts';

const FROM = '2027-01-01';
const TO = '2027-12-31';
/** Four meal plans × eight adult counts: 32 rate rows a day. */
const DAY: StoredDay = {
  inventory: { quantity: 1, minimumStay: 1, maximumStay: 30, stopSell: false },
  rates: Object.fromEntries(
    ['EP', 'CP', 'MAP', 'AP'].map((plan) => [plan, Object.fromEntries(Array.from({ length: 8 }, (_, a) => [String(a + 1), 100_00 * (a + 1)]))]),
  ),
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
} as StoredDay;

/** A year of that day for each property, handed back four properties a group. */
function reader(propertyIds: readonly string[]): CatalogueReader {
  const monthsOf = (id: string): PropertyMonth[] => {
    const byMonth = new Map<string, Record<string, StoredDay>>();
    for (let d = FROM; d <= TO; d = addDays(d, 1)) byMonth.set(monthOf(d), { ...byMonth.get(monthOf(d)), [dayOfMonth(d)]: DAY });
    return [...byMonth].map(([month, days]) => ({ propertyId: id, month, days }));
  };
  return {
    distributedListingIds: async () => ['l1'],
    listingsOfProperties: async (ids: readonly string[]) => new Map(ids.filter((id) => propertyIds.includes(id)).map((id) => [id, 'l1'])),
    channel: async () => undefined,
    propertyMonthGroups: (ids: readonly string[]): MonthGroup[] =>
      Array.from({ length: Math.ceil(ids.length / 4) }, (_, g) => {
        const group = ids.slice(g * 4, g * 4 + 4);
        return { propertyIds: group, months: Promise.resolve(group.flatMap(monthsOf)) };
      }),
  } as unknown as CatalogueReader;
}

const read = (count: number) => {
  const ids = Array.from({ length: count }, (_, i) => `p${String(i).padStart(2, '0')}`);
  const deps = { reader: reader(ids), clock: { now: () => new Date('2026-11-25T06:00:00.000Z') } };
  const partner = { kind: 'partner' as const, partnerId: 'p', channelId: 'c', keyId: 'k', keyPrefix: 'k' };
  return readRates(deps, partner, { propertyIds: ids, from: FROM, to: TO });
};

describe('readRates row budget', () => {
  it('answers every row of a window under the budget, by property then date', async () => {
    const rows = await (await read(30)).all();
    expect(rows).toHaveLength(30 * 365 * 32);
    expect(rows.length).toBeLessThanOrEqual(MAX_ROWS);
    expect(rows[0]).toEqual({ propertyId: 'p00', date: FROM, mealPlan: 'EP', adults: 1, rate: 100 });
    expect(rows.at(-1)).toEqual({ propertyId: 'p29', date: TO, mealPlan: 'AP', adults: 8, rate: 800 });
  });

  it('refuses a read over the budget with a 400 naming the window, rather than cutting it short', async () => {
    // 40 properties × 365 days × 32 rows = 467,200 rows.
    await expect((await read(40)).all()).rejects.toMatchObject({
      param: 'to',
      message: expect.stringMatching(/would return at least \d+ rows \(more than 400000\); narrow the window or the id filters/),
    });
  });
});

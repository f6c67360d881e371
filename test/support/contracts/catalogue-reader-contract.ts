import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emptyStoredCatalogue, NO_REFS, type StoredCatalogue } from '../../../domain/catalogue/catalogue-diff.ts';
import type { PropertyMonth } from '../../../domain/catalogue/day.ts';
import type { CatalogueReader } from '../../../domain/ports/catalogue-reader.ts';
import { FIXTURE_FROM, fixtureCatalogue } from '../catalogue-world.ts';
import type { CataloguePricingReads } from '../memory/in-memory-catalogue.ts';

export interface CatalogueReaderSubject {
  readonly reader: CatalogueReader;
  /** Writes catalogue records as CatalogueStore.save does (the records the reader reads). */
  save(writes: StoredCatalogue): Promise<void>;
  /** The catalogue store's pricing reads over the same records. */
  readonly pricing: CataloguePricingReads;
}

const SAVED_AT = '2027-01-10T09:00:00.000Z';
const byKey = (months: readonly PropertyMonth[]) => [...months].sort((a, b) => `${a.propertyId} ${a.month}`.localeCompare(`${b.propertyId} ${b.month}`));

/** A fresh copy of the fixture catalogue (its own ids), stored through the subject. */
async function seeded(subject: CatalogueReaderSubject) {
  const { ids, writes } = fixtureCatalogue(randomUUID().slice(0, 8), SAVED_AT);
  await subject.save(writes);
  return { ids, writes };
}

/**
 * The CatalogueReader port's contract, run against every adapter (as creditLedgerContract):
 * InMemoryCatalogue in the unit tier, DynamoCatalogueReader on DynamoDB Local, each reading
 * what a catalogue store's save wrote: the channel-scoped reads, the feed's order and
 * positions, views in the order asked, and months exactly as stored.
 */
export function catalogueReaderContract(adapter: string, subject: () => Promise<CatalogueReaderSubject>): void {
  describe(`CatalogueReader contract: ${adapter}`, () => {
    it('reads listings only through a channel that distributes them, and the channels of a listing', async () => {
      const s = await subject();
      const { ids } = await seeded(s);

      expect(await s.reader.distributedListingIds(ids.channelA)).toEqual([ids.both, ids.onlyA].sort());
      expect(await s.reader.distributedListingIds(ids.channelB)).toEqual([ids.both, ids.onlyB].sort());
      expect(await s.reader.distributedListingIds(`no-such-${ids.channelA}`)).toEqual([]);
      expect(await s.reader.channelsOfListing(ids.both)).toEqual([ids.channelA, ids.channelB].sort());
      expect(await s.reader.channelsOfListing(ids.onlyB)).toEqual([ids.channelB]);
      expect((await s.reader.feedEntries(ids.channelA, [ids.onlyB, ids.onlyA, 'no-such-listing'])).map((e) => e.listingId)).toEqual([ids.onlyA]);
      expect(await s.reader.channel(ids.channelB)).toMatchObject({ channelId: ids.channelB, rateAdjustmentPercent: -10 });
      expect(await s.reader.channel(`no-such-${ids.channelB}`)).toBeUndefined();
    });

    it('answers views in the order asked with their properties by id, leaving unknown listings out, and the listing of each known property', async () => {
      const s = await subject();
      const { ids, writes } = await seeded(s);

      const views = await s.reader.listingViews([ids.onlyB, 'no-such-listing', ids.both]);

      expect(views.map((v) => v.listing.id)).toEqual([ids.onlyB, ids.both]);
      expect(views[1]!.listing).toEqual(writes.listings.find((l) => l.id === ids.both));
      expect(views[1]!.properties.map((p) => p.id)).toEqual([`${ids.both}-p1`, `${ids.both}-p2`]);
      expect(views[1]!.properties[0]).toEqual(writes.properties.find((p) => p.id === `${ids.both}-p1`));
      const owners = await s.reader.listingsOfProperties([`${ids.onlyA}-p2`, 'no-such-property', `${ids.both}-p1`]);
      expect([...owners.entries()].sort()).toEqual([
        [`${ids.both}-p1`, ids.both],
        [`${ids.onlyA}-p2`, ids.onlyA],
      ]);
    });

    it('reads the months stored in the window asked, and the same months in groups of whole properties in the order asked', async () => {
      const s = await subject();
      const { ids, writes } = await seeded(s);
      const propertyIds = [...Object.values(ids.propertiesOf).flat(), 'no-such-property'];

      const months = await s.reader.propertyMonths(propertyIds, '2027-02', '2027-04');
      const groups = s.reader.propertyMonthGroups(propertyIds, '2027-02', '2027-04');
      const grouped = await Promise.all(groups.map((g) => g.months));

      expect(byKey(months)).toEqual(byKey(writes.months));
      expect(months[0]!.days[FIXTURE_FROM.slice(8)]!.inventory).toMatchObject({ quantity: 2, minimumStay: 1, maximumStay: 14, stopSell: false });
      expect(await s.reader.propertyMonths(propertyIds, '2027-04', '2027-05')).toEqual([]);
      expect(groups.flatMap((g) => g.propertyIds)).toEqual(propertyIds);
      grouped.forEach((group, i) => expect(group.every((m) => groups[i]!.propertyIds.includes(m.propertyId))).toBe(true));
      expect(byKey(grouped.flat())).toEqual(byKey(months));
    });

    it("answers pricing's reads: a listing's bundle, a property's owner, a channel's offers, plans asked, GST registration and slab tables", async () => {
      const s = await subject();
      const { ids, writes } = await seeded(s);
      const stamp = { createdAt: SAVED_AT, updatedAt: SAVED_AT };
      const meal = {
        listingId: ids.both,
        mealId: 'dinner',
        name: 'Dinner',
        mealType: 'DINNER' as const,
        adultPrice: 900_00,
        childPrice: 450_00,
        chefOnCallPrice: 0,
        ...stamp,
      };
      const offer = (code: string) => ({
        channelId: ids.channelA,
        code,
        title: code,
        discountType: 'PERCENTAGE' as const,
        percent: 10,
        flatAmount: null,
        maxDiscount: null,
        minOrderValue: 0,
        stayFrom: null,
        stayTo: null,
        minNights: 2,
        validFrom: null,
        validTo: null,
        ...stamp,
      });
      // GST records are not scoped to a tenant: a state no other test writes, and a slab table long before any stay (the same each run).
      const state = `State ${ids.channelA}`;
      const registration = { state, stateCode: '29', gstin: '29ABCDE1234F1Z5', legalName: 'Villas Pvt Ltd', address: 'Bengaluru', ...stamp };
      const slabs = { effectiveFrom: '1999-01-01', slabs: [{ upToPerUnitNight: null, ratePercent: 5 }], ...stamp };
      await s.save({
        ...emptyStoredCatalogue(),
        meals: [meal],
        offers: [offer('ZED'), offer('ALPHA')],
        gstRegistrations: [registration],
        gstSlabTables: [slabs],
      });
      const planId = writes.cancellationPlans[0]!.planId;

      const bundle = await s.pricing.getListing(ids.both);

      expect(bundle?.listing).toEqual(writes.listings.find((l) => l.id === ids.both));
      expect(bundle?.properties.map((p) => p.id)).toEqual([`${ids.both}-p1`, `${ids.both}-p2`]);
      expect(bundle?.meals).toEqual([meal]);
      expect(bundle?.vas).toEqual([]);
      expect(await s.pricing.getListing('no-such-listing')).toBeUndefined();
      expect(await s.pricing.getProperty(`${ids.onlyA}-p2`)).toEqual(writes.properties.find((p) => p.id === `${ids.onlyA}-p2`));
      expect(await s.pricing.listingIdOfProperty(`${ids.onlyA}-p2`)).toBe(ids.onlyA);
      expect(await s.pricing.listingIdOfProperty('no-such-property')).toBeUndefined();
      expect(await s.pricing.getChannel(ids.channelB)).toEqual(writes.channels.find((c) => c.channelId === ids.channelB));
      expect((await s.pricing.listOffers(ids.channelA)).map((o) => o.code)).toEqual(['ALPHA', 'ZED']);
      expect(await s.pricing.listOffers(ids.channelB)).toEqual([]);
      expect(await s.pricing.getCancellationPlans([planId, 'no-such-plan'])).toEqual(writes.cancellationPlans);
      expect(await s.pricing.getGstRegistration(state)).toEqual(registration);
      expect(await s.pricing.getGstRegistration(`no-such-${state}`)).toBeUndefined();
      const loaded = await s.pricing.load({
        ...NO_REFS,
        channels: [ids.channelA, 'no-such-channel'],
        distributions: [
          { channelId: ids.channelA, listingId: ids.onlyA },
          { channelId: ids.channelA, listingId: ids.onlyB },
        ],
        cancellationPlans: [planId],
        properties: [
          { listingId: ids.onlyA, propertyId: `${ids.onlyA}-p1` },
          { listingId: ids.onlyB, propertyId: `${ids.onlyA}-p2` },
        ],
        meals: [{ listingId: ids.both, mealId: 'dinner' }],
        offers: [{ channelId: ids.channelA, code: 'ZED' }],
        months: [
          { propertyId: `${ids.onlyA}-p1`, month: FIXTURE_FROM.slice(0, 7) },
          { propertyId: `${ids.onlyA}-p1`, month: '1999-01' },
        ],
      });
      expect(loaded.channels.map((c) => c.channelId)).toEqual([ids.channelA]);
      expect(loaded.distributions.map((d) => d.listingId)).toEqual([ids.onlyA]);
      expect(loaded.cancellationPlans).toEqual(writes.cancellationPlans);
      expect(loaded.properties.map((p) => p.id)).toEqual([`${ids.onlyA}-p1`]);
      expect(loaded.meals).toEqual([meal]);
      expect(loaded.offers.map((o) => o.code)).toEqual(['ZED']);
      expect(loaded.months.map((m) => `${m.propertyId} ${m.month}`)).toEqual([`${ids.onlyA}-p1 ${FIXTURE_FROM.slice(0, 7)}`]);
      expect(loaded.listings).toEqual([]);
      const tables = await s.pricing.listGstSlabTables();
      expect(tables).toContainEqual(slabs);
      expect(tables.map((t) => t.effectiveFrom)).toEqual(tables.map((t) => t.effectiveFrom).sort());
    });

    it('pages a feed by (updatedAt, listingId): since keeps entries stamped exactly then, after is strict, limit cuts', async () => {
      const s = await subject();
      const { ids } = await seeded(s);
      const LATER = '2027-01-11T09:00:00.000Z';
      // onlyA moves to the end of channel A's feed, as a change to it would move it.
      await s.save({
        ...emptyStoredCatalogue(),
        distributions: [{ channelId: ids.channelA, listingId: ids.onlyA, feedUpdatedAt: LATER, createdAt: SAVED_AT, updatedAt: LATER }],
      });

      const all = await s.reader.feedPage(ids.channelA, { limit: 10 });
      const first = await s.reader.feedPage(ids.channelA, { limit: 1 });
      const rest = await s.reader.feedPage(ids.channelA, { after: first[0]!, limit: 10 });
      const since = await s.reader.feedPage(ids.channelA, { since: LATER, limit: 10 });
      const sinceBeforeAfter = await s.reader.feedPage(ids.channelA, { since: LATER, after: { listingId: ids.both, updatedAt: SAVED_AT }, limit: 10 });

      expect(all).toEqual([
        { listingId: ids.both, updatedAt: SAVED_AT },
        { listingId: ids.onlyA, updatedAt: LATER },
      ]);
      expect(first).toEqual(all.slice(0, 1));
      expect(rest).toEqual(all.slice(1));
      expect(since).toEqual(all.slice(1));
      expect(sinceBeforeAfter).toEqual(all.slice(1));
      expect(await s.reader.feedPage(ids.channelA, { after: all[1]!, limit: 10 })).toEqual([]);
      expect((await s.reader.feedEntries(ids.channelA, [ids.onlyA]))[0]).toEqual({ listingId: ids.onlyA, updatedAt: LATER });
    });
  });
}

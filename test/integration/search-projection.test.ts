import { TEST_OPERATOR } from '../support/audit-origin.ts';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, monthOf } from '../../domain/catalogue/calendar.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { PROJECTION_VERSION, viewOfEntry } from '../../domain/search/projection.ts';
import { searchListings } from '../../domain/search/search-listings.ts';
import { syncCatalogue } from '../../domain/sync/sync-catalogue.ts';
import { importWorld } from '../../domain/world/import-world.ts';
import { adminDeps, syncDeps, type Services } from '../../infra/container.ts';
import { bookingItem } from '../../infra/dynamo/entities/booking.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { DynamoSearchProjection, noDrift } from '../../infra/dynamo/dynamo-search-projection.ts';
import { bookingFixture } from '../support/booking-seed.ts';
import {
  catalogueArb,
  GEN_DAYS,
  GEN_FROM,
  GEN_TODAY,
  idsOf,
  listingInput,
  outcome,
  searchArb,
  searchBody,
  worldOf,
  type GenIds,
  type GenListing,
} from '../support/search-arbitraries.ts';
import { legacySearchListings, type LegacySearchCatalogue } from '../support/search-oracle.ts';
import { stack, testServices, uniqueId } from '../support/stack.ts';
import { randomised, sizedTimeout } from '../support/randomised.ts';

/**
 * The equivalence property against DynamoDB Local: generated catalogues are imported,
 * then changed by catalogue syncs (rates, inventory, a listing moved, retagged,
 * deactivated or newly distributed), bookings and cancellations through the real stores;
 * after every change generated searches must answer over the projection exactly as the
 * whole-catalogue search (the oracle) does, and a rebuild must find no drift.
 */
const clock = { now: () => new Date(`${GEN_TODAY}T06:00:00.000Z`) };
let svc: Services;
beforeAll(() => {
  Object.assign(process.env, stack().env);
  svc = testServices();
});

const stepArb = fc.oneof(
  fc.record({
    kind: fc.constant('rates' as const),
    property: fc.nat(),
    start: fc.integer({ min: 0, max: GEN_DAYS - 1 }),
    length: fc.integer({ min: 1, max: 20 }),
    rate: fc.integer({ min: 1_500, max: 20_000 }),
  }),
  fc.record({
    kind: fc.constant('inventory' as const),
    property: fc.nat(),
    start: fc.integer({ min: 0, max: GEN_DAYS - 1 }),
    length: fc.integer({ min: 1, max: 20 }),
    quantity: fc.integer({ min: 0, max: 3 }),
    stopSell: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('listing' as const),
    listing: fc.nat(),
    place: fc.integer({ min: 0, max: 2 }),
    tags: fc.subarray(['beach', 'pool', 'quiet']),
    inactive: fc.boolean(),
    channels: fc.constantFrom('A', 'AB', 'B'),
  }),
  fc.record({
    kind: fc.constant('book' as const),
    listing: fc.nat(),
    start: fc.integer({ min: 0, max: GEN_DAYS - 8 }),
    nights: fc.integer({ min: 1, max: 7 }),
    quantity: fc.integer({ min: 1, max: 2 }),
    cancel: fc.boolean(),
  }),
);
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

async function apply(step: Step, suffix: string, gen: readonly GenListing[], ids: GenIds): Promise<void> {
  const deps = syncDeps(svc);
  switch (step.kind) {
    case 'rates': {
      const propertyId = ids.propertyIds[step.property % ids.propertyIds.length]!;
      const to = addDays(GEN_FROM, Math.min(GEN_DAYS - 1, step.start + step.length - 1));
      await syncCatalogue(deps, {
        version: 1,
        catalogue: { rates: [{ propertyId, from: addDays(GEN_FROM, step.start), to, mealPlan: 'EP', adults: { '1': step.rate } }] },
      });
      return;
    }
    case 'inventory': {
      const k = step.property % ids.propertyIds.length;
      const propertyId = ids.propertyIds[k]!;
      const units = gen.flatMap((l) => l.properties)[k]!.quantity;
      const to = addDays(GEN_FROM, Math.min(GEN_DAYS - 1, step.start + step.length - 1));
      await syncCatalogue(deps, {
        version: 1,
        catalogue: { inventory: [{ propertyId, from: addDays(GEN_FROM, step.start), to, quantity: Math.min(step.quantity, units), stopSell: step.stopSell }] },
      });
      return;
    }
    case 'listing': {
      const i = step.listing % gen.length;
      await syncCatalogue(deps, {
        version: 1,
        catalogue: { listings: [listingInput(suffix, gen[i]!, i, { place: step.place, tags: step.tags, inactive: step.inactive, channels: step.channels })] },
      });
      return;
    }
    case 'book': {
      const i = step.listing % gen.length;
      const listingId = ids.listingIds[i]!;
      const checkIn = addDays(GEN_FROM, step.start);
      const owner = { agentGroupId: `gen-group-${suffix}`, partnerId: `gen-partner-${suffix}`, channelId: ids.channelA };
      const booking: Booking = bookingFixture(owner, {
        listingId,
        checkIn,
        checkOut: addDays(checkIn, step.nights),
        selectedProperties: gen[i]!.properties.map((_, k) => ({ propertyId: `${listingId}-p${k}`, quantity: step.quantity })),
      });
      const db = createDocumentClient(svc.config);
      await db.send(new PutCommand({ TableName: svc.config.tableName, Item: bookingItem(booking) }));
      db.destroy();
      const taken = { ...booking, version: 2 };
      expect(await svc.bookings.update(booking, taken, { kind: 'inventory', direction: 'take' })).toBe(true);
      if (step.cancel) expect(await svc.bookings.update(taken, { ...taken, version: 3 }, { kind: 'inventory', direction: 'return' })).toBe(true);
      return;
    }
  }
}

function legacyCatalogue(): LegacySearchCatalogue {
  return {
    distributedListingIds: (channelId) => svc.reader.distributedListingIds(channelId),
    propertyOwners: (ids) => svc.reader.listingsOfProperties(ids),
    listingViews: (ids) => svc.reader.listingViews(ids),
    async stayDays(propertyIds, dates) {
      const months = [...new Set(dates.map(monthOf))];
      const found = await svc.catalogue.getMonths(propertyIds.flatMap((propertyId) => months.map((month) => ({ propertyId, month }))));
      return found.map((m) => ({ ...m, days: Object.fromEntries(Object.entries(m.days).filter(([dd]) => dates.includes(`${m.month}-${dd}`))) }));
    },
    channel: (channelId) => svc.reader.channel(channelId),
    bankOffers: (channelId) => svc.catalogue.listOffers(channelId),
    cancellationPlans: (ids) => svc.catalogue.getCancellationPlans(ids),
  };
}

describe('Search projection over DynamoDB: kept by imports, syncs, bookings and cancellations', () => {
  const { seed, runs } = randomised({
    name: 'search equivalence over DynamoDB',
    file: 'test/integration/search-projection.test.ts',
    seedVar: 'SEARCH_DB_SEED',
    runsVar: 'SEARCH_DB_RUNS',
    fixedSeed: 20_261_127,
    ci: 30,
    soak: 300,
  });
  it(
    'answers every generated search exactly as the whole-catalogue search, after every change, and a rebuild finds no drift',
    async () => {
      let cases = 0;
      const legacy = legacyCatalogue();
      const projection = new DynamoSearchProjection(createDocumentClient(svc.config), svc.config.tableName, svc.catalogue);
      await fc.assert(
        fc.asyncProperty(
          catalogueArb,
          fc.array(stepArb, { minLength: 2, maxLength: 4 }),
          fc.array(searchArb, { minLength: 6, maxLength: 6 }),
          async (gen, steps, searches) => {
            const suffix = uniqueId('sp');
            const ids = idsOf(suffix, gen);
            await importWorld({ ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue }, worldOf(suffix, gen), { allowPlaintextKeys: true });
            const principal = (channelId: string): AgentGroupPrincipal => ({
              kind: 'agent-group',
              agentGroupId: `gen-group-${suffix}`,
              partnerId: 'p',
              channelId,
              keyId: 'k',
              keyPrefix: 'k',
            });
            // The searches only read (nothing changes between two steps): all of them, both ways, at once, compared in order.
            const compare = async () => {
              const answers = await Promise.all(
                searches.map((s, n) => {
                  const who = principal(n % 3 === 2 ? ids.channelB : ids.channelA);
                  const body = searchBody(s, ids);
                  return Promise.all([
                    outcome(() => searchListings({ catalogue: svc.search, clock }, who, body)),
                    outcome(() => legacySearchListings({ catalogue: legacy, clock }, who, body)),
                  ]);
                }),
              );
              for (const [now, was] of answers) {
                expect(now).toEqual(was);
                cases++;
              }
            };
            await compare();
            for (const step of steps) {
              await apply(step, suffix, gen, ids);
              await compare();
            }
            const channels = [ids.channelA, ids.channelB];
            const reports = await Promise.all(channels.map((channelId) => projection.rebuild(channelId)));
            for (const [k, report] of reports.entries()) expect(report, `drift on ${channels[k]} after ${JSON.stringify(steps)}`).toSatisfy(noDrift);
          },
        ),
        { numRuns: runs, seed },
      );
      // Each run compares at least 18 searches (6 before and after each of at least 2 steps): 500 or more at the CI size.
      expect(cases).toBeGreaterThanOrEqual(Math.min(500, runs * 18));
    },
    sizedTimeout(900_000),
  );
});

describe('Search projection: bank offers in the head', () => {
  it('takes an offer a later import adds into the head, searches with it as the catalogue lists it, and a rebuild finds no drift', async () => {
    const suffix = uniqueId('offers');
    // Every listing active on both channels and open every night, so the search finds them and shows their offers.
    const gen = fc
      .sample(catalogueArb, { numRuns: 1, seed: 7 })[0]!
      .map((l) => ({ ...l, inactive: false, channels: 'AB' as const, properties: l.properties.map((p) => ({ ...p, closures: [] })) }));
    const ids = idsOf(suffix, gen);
    const world = worldOf(suffix, gen);
    await importWorld({ ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue }, world, { allowPlaintextKeys: true });
    const projection = new DynamoSearchProjection(createDocumentClient(svc.config), svc.config.tableName, svc.catalogue);
    expect((await projection.readHead(ids.channelA))!.offers.map((o) => o.code)).toEqual(['BIG', 'LONG3', 'ZED5']);

    const added = { channelId: ids.channelA, code: 'AAA1', title: 'A first offer', discountType: 'FLAT', flatAmount: 100 };
    await importWorld(
      { ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue },
      { ...world, catalogue: { ...world.catalogue!, offers: [...(world.catalogue!.offers ?? []), added] } } as typeof world,
      { allowPlaintextKeys: true },
    );
    expect((await projection.readHead(ids.channelA))!.offers.map((o) => o.code)).toEqual(['AAA1', 'BIG', 'LONG3', 'ZED5']);
    expect((await projection.readHead(ids.channelB))!.offers.map((o) => o.code)).toEqual(['BONLY']);

    const who: AgentGroupPrincipal = {
      kind: 'agent-group',
      agentGroupId: `gen-group-${suffix}`,
      partnerId: 'p',
      channelId: ids.channelA,
      keyId: 'k',
      keyPrefix: 'k',
    };
    const body = {
      rawParams: [
        { filterName: 'checkIn', filterValues: [addDays(GEN_FROM, 1)] },
        { filterName: 'checkOut', filterValues: [addDays(GEN_FROM, 4)] },
      ],
    };
    const now = await searchListings({ catalogue: svc.search, clock }, who, body);
    expect(now).toEqual(await legacySearchListings({ catalogue: legacyCatalogue(), clock }, who, body));
    expect(now.singleListings.flatMap((l) => l.offerTitles)).toContain('A first offer');
    expect(await projection.rebuild(ids.channelA)).toSatisfy(noDrift);
  }, 120_000);
});

describe('Search projection: rebuild and versions', () => {
  const gen = (): GenListing[] =>
    fc.sample(
      catalogueArb.filter((g) => g.some((l) => l.channels.includes('A'))),
      { seed: 42, numRuns: 1 },
    )[0]!;

  it('reports drift a rebuild repairs, and none on the next rebuild', async () => {
    const suffix = uniqueId('drift');
    const ids = idsOf(suffix, gen());
    await importWorld({ ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue }, worldOf(suffix, gen()), { allowPlaintextKeys: true });
    const db = createDocumentClient(svc.config);
    const projection = new DynamoSearchProjection(db, svc.config.tableName, svc.catalogue);
    const stored = await db.send(
      new QueryCommand({
        TableName: svc.config.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :d)',
        ExpressionAttributeValues: { ':pk': `SEARCH#${ids.channelA}`, ':d': 'D#' },
      }),
    );
    const item = stored.Items![0]!;
    const unitsAttr = Object.keys(item).find((k) => k.startsWith('u:'))!;
    await db.send(new PutCommand({ TableName: svc.config.tableName, Item: { ...item, [unitsAttr]: '9,9,9' } }));

    const first = await projection.rebuild(ids.channelA);
    const second = await projection.rebuild(ids.channelA);
    db.destroy();

    expect(first.propertyMonths).toMatchObject({ unitsChanged: 1, missing: 0, extra: 0, restChanged: 0 });
    expect(noDrift(first)).toBe(false);
    expect(noDrift(second)).toBe(true);
  });

  it('rebuilds a projection of another version before a search reads it, never misreading it', async () => {
    const suffix = uniqueId('ver');
    const ids = idsOf(suffix, gen());
    await importWorld({ ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue }, worldOf(suffix, gen()), { allowPlaintextKeys: true });
    const db = createDocumentClient(svc.config);
    const partition = { TableName: svc.config.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `SEARCH#${ids.channelA}` } };
    const shard = (await db.send(new QueryCommand(partition))).Items!.find((i) => String(i.SK).startsWith('L#'))!;
    const [entryName, entry] = Object.entries(shard).find(([name]) => name.startsWith('l:'))! as [string, string];
    // A projection as the previous version left it: its head's version, and an entry in the
    // named form that version wrote, here saying the listing is inactive when it is not.
    const { listing, properties } = viewOfEntry(entry);
    await db.send(
      new PutCommand({
        TableName: svc.config.tableName,
        Item: { ...shard, [entryName]: JSON.stringify({ listing: { ...listing, status: 'INACTIVE' }, properties }) },
      }),
    );
    await db.send(
      new PutCommand({ TableName: svc.config.tableName, Item: { PK: `SEARCH#${ids.channelA}`, SK: 'HEAD', entity: 'SearchHead', v: PROJECTION_VERSION - 1 } }),
    );
    const who: AgentGroupPrincipal = { kind: 'agent-group', agentGroupId: 'g', partnerId: 'p', channelId: ids.channelA, keyId: 'k', keyPrefix: 'k' };
    const body = searchBody(fc.sample(searchArb, { seed: 1, numRuns: 1 })[0]!, ids);

    const now = await outcome(() => searchListings({ catalogue: svc.search, clock }, who, body));
    const head = await db.send(new GetCommand({ TableName: svc.config.tableName, Key: { PK: `SEARCH#${ids.channelA}`, SK: 'HEAD' } }));
    const rebuilt = await db.send(new GetCommand({ TableName: svc.config.tableName, Key: { PK: shard.PK, SK: shard.SK } }));
    db.destroy();

    expect(now).toEqual(await outcome(() => legacySearchListings({ catalogue: legacyCatalogue(), clock }, who, body)));
    expect(head.Item?.v).toBe(PROJECTION_VERSION);
    expect(rebuilt.Item?.[entryName]).toBe(entry);
  });
});

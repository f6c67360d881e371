import { operatorOrigin } from '../domain/audit/audit-event.ts';
import { invoiceBucketName, provisionBucket, randomKey, provisionTable, serviceEnv, startDynamoLocal, startFauxqs } from '../scripts/local-stack.ts';
import { benchGroupInput, benchWorld } from './bench-world.ts';
import { seeding } from './seeding.ts';
import { benchBookings, bookingBenchEnabled, bookingQueueEnv } from './booking-bench.ts';
import { amendmentBenchEnabled, benchAmendments } from './amendment-bench.ts';
import { fmt, httpEvent, lambdaContext, measure, measureInTurns, type Summary } from './harness.ts';
import { benchInvoicing, invoicingBenchEnabled } from './invoicing-bench.ts';

/**
 * `npm run bench`: in-process handler latency and DynamoDB calls per request against
 * DynamoDB Local, each beside its bare-storage floor (the same reads issued directly).
 * Numbers are for this machine and DynamoDB Local; the call counts are what carries over.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
/**
 * BENCH_ONLY=search runs only what the search targets are measured against: the rates
 * case, the order previews (the search baseline) and the search cases — no feed, listing,
 * availability or booking cases.
 */
const ONLY = process.env.BENCH_ONLY;
if (ONLY !== undefined && ONLY !== 'search') throw new Error(`BENCH_ONLY must be "search" or unset; got "${ONLY}"`);
const everything = ONLY === undefined;
const CHANNEL = 'bench';
const FROM = '2027-01-01';
const TO = '2027-12-31';

const dynamo = await startDynamoLocal();
const queues = await startFauxqs();
const rows: { case: string; handler: Summary; floor: Summary }[] = [];
try {
  const table = 'pds-bench';
  await provisionTable(dynamo.endpoint, table);
  if (invoicingBenchEnabled) await provisionBucket(queues.endpoint, invoiceBucketName('test'));
  // A booking that goes PROCESSING queues a check, and a callback is queued: the booking cases need both queues.
  const bookingQueues = everything && bookingBenchEnabled ? await bookingQueueEnv(queues.endpoint, 'test') : {};
  Object.assign(
    process.env,
    serviceEnv({
      stage: 'test',
      tableName: table,
      dynamodb: dynamo.endpoint,
      sqs: queues.endpoint,
      extra: { LOG_LEVEL: 'ERROR', CURSOR_KEY: randomKey(), ...bookingQueues },
    }),
  );

  // Imported only now: handlers read their configuration from the environment at first use.
  const { adminDeps, services } = await import('../infra/container.ts');
  const { createPartner, issueKey } = await import('../domain/admin.ts');
  const { importWorld } = await import('../domain/world/import-world.ts');
  const { sha256Hex } = await import('../infra/crypto/api-keys.ts');
  const svc = services();
  // The world is written with the operator's SDK limits (bench/seeding.ts); what is measured uses svc's, the request path's.
  const seed = await seeding(svc);

  const t0 = performance.now();
  await importWorld(
    { ...adminDeps(seed, operatorOrigin('bench', 'seed')), catalogue: seed.catalogue },
    benchWorld({ channelId: CHANNEL, listings: 120, from: FROM, days: 365 }),
    { allowPlaintextKeys: true },
  );
  console.log(`bench world imported: 120 listings × 2 properties × 365 days in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const deps = adminDeps(seed, operatorOrigin('bench', 'seed'));
  await createPartner(deps, { partnerId: 'bench-partner', name: 'Bench', channelId: CHANNEL });
  // A generous override so the limiter never refuses a measured run; it still spends a token each time.
  const { apiKey } = await issueKey(deps, { owner: { kind: 'partner', id: 'bench-partner' }, rateLimit: { perMinute: 100_000, burst: 10_000 } });
  const key = await svc.tenants.findKeyByHash(sha256Hex(apiKey));
  if (!key) throw new Error('bench key not stored');

  const authFloor = async () => {
    const k = await svc.tenants.findKeyByHash(sha256Hex(apiKey));
    await Promise.all([svc.tenants.getPartner(k!.owner.id), svc.rateLimiter.consume(k!.keyId, k!.rateLimit!, Date.now())]);
  };

  const call = async (module: string, event: ReturnType<typeof httpEvent>): Promise<number> => {
    const { handler } = (await import(module)) as { handler: (e: unknown, c: unknown) => Promise<{ statusCode: number }> };
    return (await handler(event, lambdaContext)).statusCode;
  };

  if (everything)
    rows.push({
      case: 'GET /api/ping',
      handler: await measure(() => call('../functions/system/api-ping.ts', httpEvent('GET', '/api/ping', { key: apiKey })), RUNS),
      floor: await measure(authFloor, RUNS),
    });

  const ids = await svc.reader.distributedListingIds(CHANNEL);
  if (everything)
    rows.push({
      case: 'GET /api/listings page of 100',
      handler: await measure(
        () => call('../functions/partner/list-listings.ts', httpEvent('GET', '/api/listings', { key: apiKey, query: { page: '1', size: '100' } })),
        RUNS,
      ),
      floor: await measure(async () => {
        await authFloor();
        const [all] = await Promise.all([svc.reader.distributedListingIds(CHANNEL), svc.reader.channel(CHANNEL)]);
        await svc.reader.listingViews(all.slice(0, 100));
      }, RUNS),
    });

  const propertyIds = (await svc.reader.listingViews(ids.slice(0, 25))).flatMap((v) => v.properties.map((p) => p.id));
  const bulk = { propertyIds: propertyIds.join(','), from: FROM, to: TO };
  const bulkFloor = async () => {
    await authFloor();
    await svc.reader.distributedListingIds(CHANNEL);
    await svc.reader.listingsOfProperties(propertyIds);
    await Promise.all([svc.reader.propertyMonths(propertyIds, FROM.slice(0, 7), TO.slice(0, 7)), svc.reader.channel(CHANNEL)]);
  };
  // Taken in turns with its floor: the ratio is a target (docs/search.md), and blocks measured
  // one after the other drifted apart with what else the machine was doing.
  const [ratesHandler, ratesFloor] = await measureInTurns(
    () => call('../functions/partner/list-rates.ts', httpEvent('GET', '/api/rates', { key: apiKey, query: bulk, headers: { 'accept-encoding': 'gzip' } })),
    bulkFloor,
    Math.min(RUNS, 20),
  );
  rows.push({
    case: `GET /api/rates ${propertyIds.length} properties × 365 days (gzip), taken in turns with its floor`,
    handler: ratesHandler,
    floor: ratesFloor,
  });
  if (everything)
    rows.push({
      case: `GET /api/inventories ${propertyIds.length} properties × 365 days`,
      handler: await measure(
        () =>
          call(
            '../functions/partner/list-inventories.ts',
            httpEvent('GET', '/api/inventories', { key: apiKey, query: bulk, headers: { 'accept-encoding': 'gzip' } }),
          ),
        Math.min(RUNS, 15),
      ),
      floor: await measure(bulkFloor, Math.min(RUNS, 15)),
    });

  const { createAgentGroup } = await import('../domain/admin.ts');
  await createAgentGroup(deps, benchGroupInput('bench-group', 'bench-partner', CHANNEL, 50_000_00));
  const { apiKey: groupKey } = await issueKey(deps, { owner: { kind: 'agent-group', id: 'bench-group' }, rateLimit: { perMinute: 100_000, burst: 10_000 } });
  const groupAuthFloor = async () => {
    const k = await svc.tenants.findKeyByHash(sha256Hex(groupKey));
    await Promise.all([svc.tenants.getAgentGroup(k!.owner.id), svc.rateLimiter.consume(k!.keyId, k!.rateLimit!, Date.now())]);
  };
  const feed = await svc.reader.feedPage(CHANNEL, { limit: 100 });
  if (everything)
    rows.push({
      case: 'GET /v1/listings feed page of 100',
      handler: await measure(
        () => call('../functions/distribution/list-listings.ts', httpEvent('GET', '/v1/listings', { key: groupKey, query: { size: '100' } })),
        RUNS,
      ),
      floor: await measure(async () => {
        await groupAuthFloor();
        const [page] = await Promise.all([svc.reader.feedPage(CHANNEL, { limit: 100 }), svc.reader.channel(CHANNEL)]);
        await svc.reader.listingViews(page.map((e) => e.listingId));
      }, RUNS),
    });
  if (everything)
    rows.push({
      case: 'GET /v1/listings?listingIds= 100 ids',
      handler: await measure(
        () =>
          call(
            '../functions/distribution/list-listings.ts',
            httpEvent('GET', '/v1/listings', { key: groupKey, query: { listingIds: feed.map((e) => e.listingId).join(',') } }),
          ),
        RUNS,
      ),
      floor: await measure(async () => {
        await groupAuthFloor();
        const [entries] = await Promise.all([
          svc.reader.feedEntries(
            CHANNEL,
            feed.map((e) => e.listingId),
          ),
          svc.reader.channel(CHANNEL),
        ]);
        await svc.reader.listingViews(entries.map((e) => e.listingId));
      }, RUNS),
    });
  const availabilityIds = feed.slice(0, 25).map((e) => e.listingId);
  if (everything)
    rows.push({
      case: 'GET /v1/availability 25 listings × 365 days (gzip)',
      handler: await measure(
        () =>
          call(
            '../functions/distribution/read-availability.ts',
            httpEvent('GET', '/v1/availability', {
              key: groupKey,
              query: { listingIds: availabilityIds.join(','), from: FROM, to: TO },
              headers: { 'accept-encoding': 'gzip' },
            }),
          ),
        Math.min(RUNS, 15),
      ),
      floor: await measure(
        async () => {
          await groupAuthFloor();
          await svc.reader.feedEntries(CHANNEL, availabilityIds);
          const views = await svc.reader.listingViews(availabilityIds);
          await svc.reader.propertyMonths(
            views.flatMap((v) => v.properties.map((p) => p.id)),
            FROM.slice(0, 7),
            TO.slice(0, 7),
          );
        },
        Math.min(RUNS, 15),
      ),
    });

  // ── Orders: POST /v1/orders/preview. Its own agent group on the bench channel; the floor
  // issues the pricing-context loader's reads (domain/orders/load-pricing-context.ts) directly. ──
  {
    const { createAgentGroup: createOrdersGroup } = await import('../domain/admin.ts');
    // Pricing needs the GST slab table in force on each night; the bench world has none.
    const gst = {
      slabTables: [
        {
          effectiveFrom: '2025-09-22',
          slabs: [
            { upToPerUnitNight: 7_500, ratePercent: 5 },
            { upToPerUnitNight: null, ratePercent: 18 },
          ],
        },
      ],
    };
    await importWorld({ ...adminDeps(seed, operatorOrigin('bench', 'seed')), catalogue: seed.catalogue }, { version: 1, gst }, { allowPlaintextKeys: true });
    const groupId = 'bench-orders-group';
    await createOrdersGroup(deps, {
      agentGroupId: groupId,
      partnerId: 'bench-partner',
      name: 'Bench order agents',
      channelId: CHANNEL,
      creditLimit: 50_000_00,
      onHold: false,
      distributionEnabled: true,
      billingCycle: 'MONTHLY',
      billingAnchorDay: 1,
      gstin: '27AAPFU0939F1ZV',
      legalName: 'Bench Order Agents Pvt Ltd',
      address: { line1: '2 Bench Road', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'IN' },
    });
    const { apiKey: ordersKey } = await issueKey(deps, { owner: { kind: 'agent-group', id: groupId }, rateLimit: { perMinute: 100_000, burst: 10_000 } });
    const ordersAuthFloor = async () => {
      const k = await svc.tenants.findKeyByHash(sha256Hex(ordersKey));
      await Promise.all([svc.tenants.getAgentGroup(k!.owner.id), svc.rateLimiter.consume(k!.keyId, k!.rateLimit!, Date.now())]);
    };
    const listingId = ids[0]!;
    const noRefs = { gstRegistrations: [], gstSlabTables: [], listings: [], properties: [], meals: [], vas: [], simulators: [], offers: [] };
    type PreviewBody = {
      listingId: string;
      checkIn: string;
      checkOut: string;
      adults: number;
      selectedProperties?: { propertyId: string; quantity: number }[];
    };
    const previewCase = async (label: string, body: PreviewBody, propertyIds: string[], months: string[]) => {
      const floor = async () => {
        await ordersAuthFloor();
        const [bundle] = await Promise.all([svc.catalogue.getListing(listingId), svc.catalogue.listOffers(CHANNEL), svc.catalogue.listGstSlabTables()]);
        await svc.catalogue.load({
          ...noRefs,
          channels: [CHANNEL],
          distributions: [{ channelId: CHANNEL, listingId }],
          cancellationPlans: bundle!.listing.cancellationPlanIds,
          months: propertyIds.flatMap((propertyId) => months.map((month) => ({ propertyId, month }))),
        });
      };
      rows.push({
        case: label,
        handler: await measure(
          () => call('../functions/orders/preview-order.ts', httpEvent('POST', '/v1/orders/preview', { key: ordersKey, body: JSON.stringify(body) })),
          RUNS,
        ),
        floor: await measure(floor, RUNS),
      });
    };
    const [p1, p2] = (await svc.catalogue.getListing(listingId))!.properties.map((p) => p.id).sort() as [string, string];
    await previewCase(
      'POST /v1/orders/preview 3 nights, listing-level, 6 adults',
      { listingId, checkIn: '2027-03-02', checkOut: '2027-03-05', adults: 6 },
      [p1, p2],
      ['2027-03'],
    );
    await previewCase(
      'POST /v1/orders/preview 30 nights over 2 months, 2 properties × 2 units',
      {
        listingId,
        checkIn: '2027-03-20',
        checkOut: '2027-04-19',
        adults: 8,
        selectedProperties: [
          { propertyId: p1, quantity: 2 },
          { propertyId: p2, quantity: 2 },
        ],
      },
      [p1, p2],
      ['2027-03', '2027-04'],
    );
  }

  // Feed page of 100 at 1,000 vs 100,000 listings: the same first page, from catalogues 100× apart.
  if (everything) {
    const { writeFeedWorld } = await import('./feed-scale.ts');
    const { createAgentGroup: createFeedGroup } = await import('../domain/admin.ts');
    const medians: Record<string, number> = {};
    for (const count of [1_000, 100_000]) {
      const channelId = `feed-${count}`;
      const t = performance.now();
      await writeFeedWorld(seed, channelId, count);
      console.log(`feed world ${channelId}: ${count} listings written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const groupId = `bench-feed-${count}`;
      await createFeedGroup(deps, {
        agentGroupId: groupId,
        partnerId: 'bench-partner',
        name: groupId,
        channelId,
        creditLimit: 0,
        onHold: false,
        distributionEnabled: true,
        billingCycle: 'MONTHLY',
        billingAnchorDay: 1,
        gstin: null,
        legalName: 'Feed Bench',
        address: { line1: '1 Road', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'IN' },
      });
      const { apiKey: feedKey } = await issueKey(deps, { owner: { kind: 'agent-group', id: groupId }, rateLimit: { perMinute: 100_000, burst: 10_000 } });
      const first = await measure(
        () => call('../functions/distribution/list-listings.ts', httpEvent('GET', '/v1/listings', { key: feedKey, query: { size: '100' } })),
        RUNS,
      );
      const deep = await measure(
        () =>
          call(
            '../functions/distribution/list-listings.ts',
            httpEvent('GET', '/v1/listings', {
              key: feedKey,
              query: { size: '100', updatedSince: new Date(Date.parse('2026-11-01T00:00:00.000Z') + (count - 200) * 1000).toISOString() },
            }),
          ),
        RUNS,
      );
      const feedFloor = await measure(async () => {
        const k = await svc.tenants.findKeyByHash(sha256Hex(feedKey));
        await Promise.all([svc.tenants.getAgentGroup(k!.owner.id), svc.rateLimiter.consume(k!.keyId, k!.rateLimit!, Date.now())]);
        const [page] = await Promise.all([svc.reader.feedPage(channelId, { limit: 100 }), svc.reader.channel(channelId)]);
        await svc.reader.listingViews(page.map((e) => e.listingId));
      }, RUNS);
      medians[count] = first.median;
      rows.push({ case: `GET /v1/listings first page of 100, ${count} listings on the channel`, handler: first, floor: feedFloor });
      rows.push({ case: `GET /v1/listings page of 100 near the end (updatedSince), ${count} listings`, handler: deep, floor: feedFloor });
    }
    console.log(`feed page of 100: median at 100,000 listings / at 1,000 = ${(medians[100_000]! / medians[1_000]!).toFixed(2)}`);
  }

  console.log('\ncase | handler (in-process) | bare-storage floor | ratio');
  console.log('--- | --- | --- | ---');
  for (const r of rows)
    console.log(`${r.case} | ${fmt(r.handler)} | ${fmt(r.floor)} | handler ÷ floor: median ${(r.handler.median / r.floor.median).toFixed(2)}`);

  // POST /v1/bookings: the synchronous path beside its floor, and one group under contention (bench/booking-bench.ts).
  if (everything && bookingBenchEnabled) await benchBookings(svc, RUNS);

  // PATCH and POST amendments beside their floors (bench/amendment-bench.ts).
  if (everything && amendmentBenchEnabled) await benchAmendments(svc, RUNS);

  // Search over the demo world and a generated 5,000-listing world, in its own table (bench/search-bench.ts).
  const { benchSearch } = await import('./search-bench.ts');
  const preview = rows.find((r) => r.case.startsWith('POST /v1/orders/preview 3 nights'))!;
  await benchSearch(svc, RUNS, preview.handler.median, { listingId: ids[7]!, from: FROM, to: TO });

  // A billing run over 1,000 POSTED bookings and the invoice reads (bench/invoicing-bench.ts).
  if (everything && invoicingBenchEnabled) await benchInvoicing(svc, RUNS);
} finally {
  await queues.stop();
  await dynamo.stop();
}

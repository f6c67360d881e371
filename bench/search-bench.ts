import { operatorOrigin } from '../domain/audit/audit-event.ts';
import { addDays } from '../domain/catalogue/calendar.ts';
import { indiaToday } from '../domain/reads/date-window.ts';
import { searchListings, type SearchBody } from '../domain/search/search-listings.ts';
import type { Services } from '../infra/container.ts';
import { buildDemoWorld } from '../scripts/demo-world.ts';
import { httpEvent, lambdaContext, measure, type Summary } from './harness.ts';
import { dynamoCalls, resetDynamoCalls } from '../infra/dynamo/client.ts';
import { writeSearchWorld } from './search-world.ts';
import { seeding } from './seeding.ts';

/** Listings in the generated world; SEARCH_BENCH_LISTINGS overrides it for a quicker run. */
const GENERATED_LISTINGS = Number(process.env.SEARCH_BENCH_LISTINGS ?? 5_000);
/** Days of the generated world: the full year, now that the world is written straight to the table. */
const GENERATED_DAYS = Number(process.env.SEARCH_BENCH_DAYS ?? 365);
/**
 * The growth world: four times the listings in four times the towns (a town keeps about
 * 100), with 60 days, which cover every measured stay (a search reads only its stay's months).
 */
const GROWTH_LISTINGS = Number(process.env.SEARCH_BENCH_GROWTH_LISTINGS ?? 20_000);
const GROWTH_DAYS = Number(process.env.SEARCH_BENCH_GROWTH_DAYS ?? 60);
/** SEARCH_BENCH_FULL=1 writes the whole catalogue of the generated worlds (months too), not only what search reads. */
const FULL = process.env.SEARCH_BENCH_FULL === '1';
const SEARCH_CHANNEL = 'search-bench';
const GROWTH_CHANNEL = 'search-growth';

const fmt = (s: Summary): string => `median ${s.median.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, ${s.calls} DynamoDB calls (${s.runs} runs)`;

interface Row {
  readonly case: string;
  readonly handler: Summary;
  readonly useCase: Summary;
}

const filters = (checkIn: string, nights: number, ...more: [string, ...string[]][]) => [
  { filterName: 'checkIn', filterValues: [checkIn] },
  { filterName: 'checkOut', filterValues: [addDays(checkIn, nights)] },
  ...more.map(([filterName, ...filterValues]) => ({ filterName, filterValues })),
];

/**
 * POST /v1/listings/search over the demo world and over generated worlds of
 * GENERATED_LISTINGS and GROWTH_LISTINGS listings: the handler in-process (auth, rate-limit
 * token, validation, search, JSON) beside the use case alone, each with its median, p95,
 * p99 and DynamoDB calls per search; then the targets against the order preview's median
 * from the same run, and what a year-long sync of one listing writes. Prints its own table.
 */
export async function benchSearch(svc: Services, runs: number, previewMedian: number, sync: { listingId: string; from: string; to: string }): Promise<void> {
  const { adminDeps } = await import('../infra/container.ts');
  const { createAgentGroup, createPartner, issueKey } = await import('../domain/admin.ts');
  const { importWorld } = await import('../domain/world/import-world.ts');
  const { handler } = (await import('../functions/distribution/search-listings.ts')) as unknown as {
    handler: (e: unknown, c: unknown) => Promise<{ statusCode: number }>;
  };
  const seed = await seeding(svc);
  const deps = adminDeps(seed, operatorOrigin('bench', 'seed'));
  const today = indiaToday(new Date());
  const catalogue = svc.search;

  const groupOn = async (channelId: string) => {
    const partnerId = `search-bench-${channelId}`;
    await createPartner(deps, { partnerId, name: 'Search bench', channelId });
    const group = await createAgentGroup(deps, {
      agentGroupId: `${partnerId}-group`,
      partnerId,
      name: 'Search bench agents',
      channelId,
      creditLimit: 10_000_000,
      onHold: false,
      distributionEnabled: true,
      billingCycle: 'MONTHLY',
      billingAnchorDay: 1,
      gstin: '27AAPFU0939F1ZV',
      legalName: 'Search Bench Pvt Ltd',
      address: { line1: '1 Bench Road', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'IN' },
    });
    // A generous override so the limiter never refuses a measured run; it still spends a token each time.
    const { apiKey } = await issueKey(deps, { owner: { kind: 'agent-group', id: group.agentGroupId }, rateLimit: { perMinute: 100_000, burst: 10_000 } });
    return {
      apiKey,
      principal: { kind: 'agent-group' as const, agentGroupId: group.agentGroupId, partnerId: 'bench-partner', channelId, keyId: 'bench', keyPrefix: 'bench' },
    };
  };

  const rows: Row[] = [];
  const measureCase = async (label: string, who: Awaited<ReturnType<typeof groupOn>>, body: SearchBody, n: number) => {
    const event = () => httpEvent('POST', '/v1/listings/search', { key: who.apiKey, body: JSON.stringify(body) });
    const sample = await searchListings({ catalogue, clock: svc.clock }, who.principal, body);
    const found = `${sample.totalSingleListings} found, ${sample.combinedGroups.length} groups`;
    console.log(`measuring: ${label} (${found})`);
    rows.push({
      case: `${label} (${found})`,
      handler: await measure(async () => (await handler(event(), lambdaContext)).statusCode, n),
      useCase: await measure(async () => void (await searchListings({ catalogue, clock: svc.clock }, who.principal, body)), n),
    });
  };

  const t0 = performance.now();
  await importWorld({ ...deps, catalogue: seed.catalogue }, buildDemoWorld(today), { allowPlaintextKeys: true });
  console.log(`\ndemo world imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const demo = await groupOn('ota-web');
  // The demo's peak seasons (Oct 18–26, Dec 20–Jan 4) ask for 3 nights; the measured stays start clear of them.
  let soon = addDays(today, 30);
  while ([0, 7].some((d) => /-(10-(1[89]|2[0-6])|12-(2\d|3[01])|01-0[1-4])$/.test(addDays(soon, d)))) soon = addDays(soon, 1);
  await measureCase('demo: 2 adults, 3 nights, whole channel', demo, { rawParams: filters(soon, 3, ['adults', '2']) }, runs);
  await measureCase(
    'demo: 4 adults, 2 nights, state Goa, sort price_asc',
    demo,
    { rawParams: filters(soon, 2, ['adults', '4'], ['state', 'Goa'], ['sort', 'price_asc']) },
    runs,
  );
  await measureCase('demo: 40 adults, 2 nights (combined groups)', demo, { rawParams: filters(soon, 2, ['adults', '40']) }, runs);

  const t1 = performance.now();
  const written = await writeSearchWorld(svc, { channelId: SEARCH_CHANNEL, listings: GENERATED_LISTINGS, from: today, days: GENERATED_DAYS, full: FULL });
  console.log(
    `generated world written: ${GENERATED_LISTINGS} listings × 2 properties × ${GENERATED_DAYS} days, ${written.items} items (${FULL ? 'whole catalogue' : 'what search reads'}) with its search projection, in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
  );
  const t2 = performance.now();
  const growth = await writeSearchWorld(svc, {
    channelId: GROWTH_CHANNEL,
    listings: GROWTH_LISTINGS,
    from: today,
    days: GROWTH_DAYS,
    idPrefix: 'sg-l',
    full: FULL,
  });
  console.log(
    `growth world written: ${GROWTH_LISTINGS} listings × 2 properties × ${GROWTH_DAYS} days, ${growth.items} items, in ${((performance.now() - t2) / 1000).toFixed(1)} s`,
  );
  const big = await groupOn(SEARCH_CHANNEL);
  const large = await groupOn(GROWTH_CHANNEL);

  const oneTown = (town: string) => ({ rawParams: filters(soon, 3, ['adults', '2'], ['city', town]) });
  const townCase = `${GENERATED_LISTINGS} listings: one town, 2 adults, 3 nights`;
  await measureCase(townCase, big, oneTown('Town 007'), runs);
  await measureCase(
    `${GENERATED_LISTINGS} listings: city + tags + price, 6 adults, 5 nights across a month end`,
    big,
    {
      rawParams: filters(
        addDays(`${soon.slice(0, 7)}-01`, 58),
        5,
        ['adults', '6'],
        ['city', 'Town 012'],
        ['tags', 'pool'],
        ['maxPrice', '20000'],
        ['sort', 'price_asc'],
      ),
    },
    runs,
  );
  await measureCase(
    `${GENERATED_LISTINGS} listings: one town, 20 adults (combined groups)`,
    big,
    { rawParams: filters(soon, 2, ['adults', '20'], ['city', 'Town 003']) },
    runs,
  );
  const unfilteredCase = `${GENERATED_LISTINGS} listings: no place filter, 2 adults, 2 nights, page 1 of 20`;
  await measureCase(unfilteredCase, big, { rawParams: filters(soon, 2, ['adults', '2']) }, runs);
  const growthCase = `${GROWTH_LISTINGS} listings: one town, 2 adults, 3 nights`;
  await measureCase(growthCase, large, oneTown('Town 107'), runs);
  // The growth ratio from searches taken in turns (5,000 then 20,000, and again), so a change
  // in the machine's load during the run weighs on both sides alike.
  const turns = { small: [] as number[], large: [] as number[] };
  for (let i = 0; i < runs + 3; i++) {
    for (const [side, who, town] of [
      ['small', big, 'Town 007'],
      ['large', large, 'Town 107'],
    ] as const) {
      const t = performance.now();
      await handler(httpEvent('POST', '/v1/listings/search', { key: who.apiKey, body: JSON.stringify(oneTown(town)) }), lambdaContext);
      if (i >= 3) turns[side].push(performance.now() - t);
    }
  }
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

  // A sync of one listing's whole year (both properties, every night's EP rate changed) on the
  // 120-listing bench world, imported through the admin import: what it writes to the projection.
  const { syncCatalogue } = await import('../domain/sync/sync-catalogue.ts');
  const { syncDeps } = await import('../infra/container.ts');
  resetDynamoCalls();
  const t3 = performance.now();
  await syncCatalogue(syncDeps(svc), {
    version: 1,
    catalogue: {
      rates: ['p1', 'p2'].map((p) => ({ propertyId: `${sync.listingId}-${p}`, from: sync.from, to: sync.to, mealPlan: 'EP', adults: { '1': 7_777 } })),
    },
  });
  const syncMs = performance.now() - t3;
  const ops = { ...dynamoCalls.byOperation };

  console.log('\nsearch case | handler (in-process, with auth) | use case alone');
  console.log('--- | --- | ---');
  for (const r of rows) console.log(`${r.case} | ${fmt(r.handler)} | ${fmt(r.useCase)}`);
  const row = (label: string) => rows.find((r) => r.case.startsWith(label))!;
  console.log(`\nsearch targets (order preview median in this run: ${previewMedian.toFixed(1)} ms):`);
  console.log(
    `- one town at ${GENERATED_LISTINGS}: handler p99 ${row(townCase).handler.p99.toFixed(1)} ms = ${(row(townCase).handler.p99 / previewMedian).toFixed(1)} × preview median (target ≤ 10); DynamoDB calls per search: ${row(townCase).useCase.calls} in the use case, ${row(townCase).handler.calls} with auth and rate limit (target ≤ 5)`,
  );
  console.log(
    `- unfiltered at ${GENERATED_LISTINGS}: handler p99 ${row(unfilteredCase).handler.p99.toFixed(1)} ms = ${(row(unfilteredCase).handler.p99 / previewMedian).toFixed(1)} × preview median (target ≤ 30)`,
  );
  console.log(
    `- growth, one town at ${GROWTH_LISTINGS} ÷ at ${GENERATED_LISTINGS}, cases above: median ${(row(growthCase).handler.median / row(townCase).handler.median).toFixed(2)}, p99 ${(row(growthCase).handler.p99 / row(townCase).handler.p99).toFixed(2)}; taken in turns (${runs} each): median ${pct(turns.large, 50).toFixed(1)} ÷ ${pct(turns.small, 50).toFixed(1)} ms = ${(pct(turns.large, 50) / pct(turns.small, 50)).toFixed(2)}, p99 ${(pct(turns.large, 99) / pct(turns.small, 99)).toFixed(2)} (target ≤ 1.3)`,
  );
  console.log(
    `- sync of one listing's rates ${sync.from}..${sync.to} (2 properties, 1 channel): ${syncMs.toFixed(0)} ms, DynamoDB calls by operation ${JSON.stringify(ops)}`,
  );
}

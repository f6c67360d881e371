import { addDays } from '../domain/catalogue/calendar.ts';
import { indiaToday } from '../domain/reads/date-window.ts';
import { searchListings, type SearchBody } from '../domain/search/search-listings.ts';
import type { Services } from '../infra/container.ts';
import { searchCatalogue } from '../infra/dynamo/dynamo-search-catalogue.ts';
import { buildDemoWorld } from '../scripts/demo-world.ts';
import { httpEvent, lambdaContext, measure, type Summary } from './harness.ts';
import { searchWorld } from './search-world.ts';

/** Listings in the generated world; SEARCH_BENCH_LISTINGS overrides it for a quicker run. */
const GENERATED_LISTINGS = Number(process.env.SEARCH_BENCH_LISTINGS ?? 5_000);
/**
 * Days of the generated world. 365 days of 5,000 listings took 591 s to import on the
 * 2-core development machine (DynamoDB Local and the import share it); 150 days keep the
 * run near 4 minutes and cover every measured stay. SEARCH_BENCH_DAYS=365 for the full year.
 */
const GENERATED_DAYS = Number(process.env.SEARCH_BENCH_DAYS ?? 150);
const SEARCH_CHANNEL = 'search-bench';

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
 * POST /v1/listings/search over the demo world and over a generated world of
 * GENERATED_LISTINGS listings × 2 properties × 365 days: the handler in-process (auth,
 * rate-limit token, validation, search, JSON) beside the use case alone, each with its
 * median, p95, p99 and DynamoDB calls per search. Prints its own table.
 */
export async function benchSearch(svc: Services, runs: number): Promise<void> {
  const { adminDeps } = await import('../infra/container.ts');
  const { createAgentGroup, createPartner, issueKey } = await import('../domain/admin.ts');
  const { importWorld } = await import('../domain/world/import-world.ts');
  const { handler } = (await import('../functions/distribution/search-listings.ts')) as unknown as { handler: (e: unknown, c: unknown) => Promise<{ statusCode: number }> };
  const deps = adminDeps(svc);
  const today = indiaToday(new Date());
  const catalogue = searchCatalogue(svc);

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
    return { apiKey, principal: { kind: 'agent-group' as const, agentGroupId: group.agentGroupId, partnerId: 'bench-partner', channelId, keyId: 'bench', keyPrefix: 'bench' } };
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
  await importWorld({ ...deps, catalogue: svc.catalogue }, buildDemoWorld(today), { allowPlaintextKeys: true });
  console.log(`\ndemo world imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const demo = await groupOn('ota-web');
  // The demo's peak seasons (Oct 18–26, Dec 20–Jan 4) ask for 3 nights; the measured stays start clear of them.
  let soon = addDays(today, 30);
  while ([0, 7].some((d) => /-(10-(1[89]|2[0-6])|12-(2\d|3[01])|01-0[1-4])$/.test(addDays(soon, d)))) soon = addDays(soon, 1);
  await measureCase('demo: 2 adults, 3 nights, whole channel', demo, { rawParams: filters(soon, 3, ['adults', '2']) }, runs);
  await measureCase('demo: 4 adults, 2 nights, state Goa, sort price_asc', demo, { rawParams: filters(soon, 2, ['adults', '4'], ['state', 'Goa'], ['sort', 'price_asc']) }, runs);
  await measureCase('demo: 40 adults, 2 nights (combined groups)', demo, { rawParams: filters(soon, 2, ['adults', '40']) }, runs);

  const t1 = performance.now();
  await importWorld({ ...deps, catalogue: svc.catalogue }, searchWorld({ channelId: SEARCH_CHANNEL, listings: GENERATED_LISTINGS, from: today, days: GENERATED_DAYS }), { allowPlaintextKeys: true });
  console.log(`generated world imported: ${GENERATED_LISTINGS} listings × 2 properties × ${GENERATED_DAYS} days in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  const big = await groupOn(SEARCH_CHANNEL);
  // Every search on this channel reads all its listing views, seconds each on DynamoDB Local: 10 runs a case.
  const heavy = Math.min(runs, 10);
  await measureCase(`${GENERATED_LISTINGS} listings: city filter, 2 adults, 3 nights`, big, { rawParams: filters(soon, 3, ['adults', '2'], ['city', 'Town 07']) }, heavy);
  await measureCase(`${GENERATED_LISTINGS} listings: city + tags + price, 6 adults, 5 nights across a month end`, big, {
    rawParams: filters(addDays(`${soon.slice(0, 7)}-01`, 58), 5, ['adults', '6'], ['city', 'Town 12'], ['tags', 'pool'], ['maxPrice', '20000'], ['sort', 'price_asc']),
  }, heavy);
  await measureCase(`${GENERATED_LISTINGS} listings: city, 20 adults (combined groups)`, big, { rawParams: filters(soon, 2, ['adults', '20'], ['city', 'Town 03']) }, heavy);
  await measureCase(`${GENERATED_LISTINGS} listings: no place filter, 2 adults, 2 nights, page 1 of 20`, big, { rawParams: filters(soon, 2, ['adults', '2']) }, heavy);

  console.log('\nsearch case | handler (in-process, with auth) | use case alone');
  console.log('--- | --- | ---');
  for (const r of rows) console.log(`${r.case} | ${fmt(r.handler)} | ${fmt(r.useCase)}`);
}

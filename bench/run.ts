import { randomKey, provisionTable, serviceEnv, startDynamoLocal, startFauxqs } from '../scripts/local-stack.ts';
import { benchWorld } from './bench-world.ts';
import { fmt, httpEvent, lambdaContext, measure, type Summary } from './harness.ts';

/**
 * `npm run bench`: in-process handler latency and DynamoDB calls per request against
 * DynamoDB Local, each beside its bare-storage floor (the same reads issued directly).
 * Numbers are for this machine and DynamoDB Local; the call counts are what carries over.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const CHANNEL = 'bench';
const FROM = '2027-01-01';
const TO = '2027-12-31';

const dynamo = await startDynamoLocal();
const queues = await startFauxqs();
const rows: { case: string; handler: Summary; floor: Summary }[] = [];
try {
  const table = 'pds-bench';
  await provisionTable(dynamo.endpoint, table);
  Object.assign(process.env, serviceEnv({ stage: 'test', tableName: table, dynamodb: dynamo.endpoint, sqs: queues.endpoint, extra: { LOG_LEVEL: 'ERROR', CURSOR_KEY: randomKey() } }));

  // Imported only now: handlers read their configuration from the environment at first use.
  const { adminDeps, services } = await import('../infra/container.ts');
  const { createPartner, issueKey } = await import('../domain/admin.ts');
  const { importWorld } = await import('../domain/world/import-world.ts');
  const { sha256Hex } = await import('../infra/crypto/api-keys.ts');
  const svc = services();

  const t0 = performance.now();
  await importWorld({ ...adminDeps(svc), catalogue: svc.catalogue }, benchWorld({ channelId: CHANNEL, listings: 120, from: FROM, days: 365 }), { allowPlaintextKeys: true });
  console.log(`bench world imported: 120 listings × 2 properties × 365 days in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const deps = adminDeps(svc);
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

  rows.push({
    case: 'GET /api/ping',
    handler: await measure(() => call('../functions/system/api-ping.ts', httpEvent('GET', '/api/ping', { key: apiKey })), RUNS),
    floor: await measure(authFloor, RUNS),
  });

  const ids = await svc.reader.distributedListingIds(CHANNEL);
  rows.push({
    case: 'GET /api/listings page of 100',
    handler: await measure(() => call('../functions/partner/list-listings.ts', httpEvent('GET', '/api/listings', { key: apiKey, query: { page: '1', size: '100' } })), RUNS),
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
  rows.push({
    case: `GET /api/rates ${propertyIds.length} properties × 365 days (gzip)`,
    handler: await measure(() => call('../functions/partner/list-rates.ts', httpEvent('GET', '/api/rates', { key: apiKey, query: bulk, headers: { 'accept-encoding': 'gzip' } })), Math.min(RUNS, 15)),
    floor: await measure(bulkFloor, Math.min(RUNS, 15)),
  });
  rows.push({
    case: `GET /api/inventories ${propertyIds.length} properties × 365 days`,
    handler: await measure(() => call('../functions/partner/list-inventories.ts', httpEvent('GET', '/api/inventories', { key: apiKey, query: bulk, headers: { 'accept-encoding': 'gzip' } })), Math.min(RUNS, 15)),
    floor: await measure(bulkFloor, Math.min(RUNS, 15)),
  });

  console.log('\ncase | handler (in-process) | bare-storage floor');
  console.log('--- | --- | ---');
  for (const r of rows) console.log(`${r.case} | ${fmt(r.handler)} | ${fmt(r.floor)}`);
} finally {
  await queues.stop();
  await dynamo.stop();
}

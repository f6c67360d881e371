import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, parseConfig } from '../infra/config.ts';
import {
  javaProblem,
  localSettings,
  provisionBucket,
  auditDigestBucketName,
  provisionQueues,
  provisionTable,
  invoiceBucketName,
  webhookQueueName,
  syncQueueName,
  channexQueueName,
  bookingQueueName,
  pdfQueueName,
  billingQueueName,
  mailEventsQueueName,
  ROOT,
  serviceEnv,
  startDynamoLocal,
  startFauxqs,
  startOffline,
  startSesEmulator,
  freePort,
  type Stoppable,
} from './local-stack.ts';
import { buildFunctions } from './build-functions.ts';

/**
 * `npm start`: the whole service on this machine. DynamoDB Local and fauxqs (SQS + S3)
 * start, the table and queues are created, the demo world is loaded, and serverless
 * offline serves every route on http://localhost:3000 with its SQS consumers and
 * schedules. Ctrl-C stops everything this started.
 */
const HTTP_PORT = Number(process.env.HTTP_PORT ?? 3000);
const LAMBDA_PORT = Number(process.env.LAMBDA_PORT ?? 3002);
const STAGE = 'local';
const TABLE = 'partner-distribution-local';
const STACK_ENV = join(ROOT, '.local', 'stack.env');
const SETTINGS = localSettings(process.env);

// A bad setting is reported before anything starts, in the service's own words.
try {
  parseConfig(serviceEnv({ stage: STAGE, tableName: TABLE, dynamodb: 'http://127.0.0.1:8000', sqs: 'http://127.0.0.1:4566', extra: SETTINGS }));
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`✗ ${err.message}`);
  process.exit(1);
}

const problem = javaProblem();
if (problem) {
  console.error(`✗ ${problem}`);
  process.exit(1);
}

const started: Stoppable[] = [];
let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    console.log('\nStopping the local stack…');
    // All at once: npm and tsx may exit on the same Ctrl-C before a one-by-one stop reaches the last (detached) emulator.
    await Promise.all(started.map((s) => s.stop().catch(() => undefined)));
    rmSync(STACK_ENV, { force: true });
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

const portFree = async (port: number): Promise<boolean> => {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const srv = createServer().once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
};

try {
  if (!(await portFree(HTTP_PORT))) {
    console.error(`✗ Port ${HTTP_PORT} is in use. Stop what is using it, or run with HTTP_PORT=<port> npm start.`);
    process.exit(1);
  }
  const t0 = Date.now();
  // The one esbuild pass over every function runs while the emulators start and the demo world
  // loads; offline's bundle step then finds it done (ESBUILD_ALREADY_BUILT) and only rebuilds on save.
  const bundling = buildFunctions();
  bundling.catch(() => undefined);
  const [dynamo, queues] = await Promise.all([
    startDynamoLocal({ port: (await portFree(8000)) ? 8000 : await freePort() }),
    startFauxqs({ port: (await portFree(4566)) ? 4566 : await freePort() }),
  ]);
  started.push(dynamo, queues);
  console.log(`✓ DynamoDB Local ${dynamo.endpoint}, fauxqs (SQS + S3) ${queues.endpoint}`);
  const mail = await startSesEmulator({ port: (await portFree(8005)) ? 8005 : await freePort() });
  started.push(mail);
  console.log(`✓ Local mailbox (SES emulator) ${mail.endpoint}: every e-mail the stack sends is on that page`);

  await provisionTable(dynamo.endpoint, TABLE);
  await provisionBucket(queues.endpoint, invoiceBucketName(STAGE));
  await provisionBucket(queues.endpoint, auditDigestBucketName(STAGE));
  const queueUrls = await provisionQueues(queues.endpoint, [webhookQueueName(STAGE), syncQueueName(STAGE), bookingQueueName(STAGE), channexQueueName(STAGE)]);
  const invoiceQueues = await provisionQueues(queues.endpoint, [pdfQueueName(STAGE), billingQueueName(STAGE), mailEventsQueueName(STAGE)]);
  const env = serviceEnv({
    stage: STAGE,
    tableName: TABLE,
    dynamodb: dynamo.endpoint,
    sqs: queues.endpoint,
    ses: mail.endpoint,
    extra: {
      ...SETTINGS,
      WEBHOOK_QUEUE_URL: queueUrls[webhookQueueName(STAGE)]!,
      BOOKING_QUEUE_URL: queueUrls[bookingQueueName(STAGE)]!,
      PDF_QUEUE_URL: invoiceQueues[pdfQueueName(STAGE)]!,
      BILLING_QUEUE_URL: invoiceQueues[billingQueueName(STAGE)]!,
      CHANNEX_QUEUE_URL: queueUrls[channexQueueName(STAGE)]!,
    },
  });
  mkdirSync(join(ROOT, '.local'), { recursive: true });
  // The admin tool reads this to reach the running stack (npm run admin -- …); it holds only local throwaway keys.
  // SERVICE_URL is the tool's alone (gateway pay posts there); the functions never read it, nor MAILBOX_URL (the local mailbox's page).
  writeFileSync(
    STACK_ENV,
    `${Object.entries({ ...env, SERVICE_URL: `http://localhost:${HTTP_PORT}`, MAILBOX_URL: mail.endpoint })
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
    { mode: 0o600 },
  );

  // The demo world loads while the functions are bundled and serverless offline starts: neither needs the
  // other until the first request, and together they took most of the start one after the other.
  const { loadDemoWorld } = await import('./demo-load.ts');
  const { loadDemoPeople, DEMO_PEOPLE } = await import('./demo-people.ts');
  const demoLoaded = loadDemoWorld(env).then(async (loaded) => {
    await loadDemoPeople(env);
    return loaded;
  });
  const offlineReady = bundling.then(async (built) => {
    console.log(`✓ ${built.entries} functions bundled in one pass in ${(built.ms / 1000).toFixed(1)} s`);
    return startOffline({
      stage: STAGE,
      env: { ...env, ESBUILD_ALREADY_BUILT: '1' },
      httpPort: HTTP_PORT,
      // Fixed (3002, or LAMBDA_PORT) so workers can be invoked by hand; a free one only if taken, and printed below.
      lambdaPort: (await portFree(LAMBDA_PORT)) ? LAMBDA_PORT : await freePort(),
      log: (line) => process.stdout.write(line.replace(/^/gm, '  [offline] ')),
      waiting: (s) => console.log(`  … serverless offline is still starting (${s} s); a busy machine takes longer`),
    });
  });
  // Both settle before either failure is reported, so the shutdown stops an offline that started anyway.
  const [demoOutcome, offlineOutcome] = await Promise.allSettled([demoLoaded, offlineReady]);
  if (offlineOutcome.status === 'fulfilled') started.push(offlineOutcome.value);
  if (demoOutcome.status === 'rejected') throw demoOutcome.reason;
  if (offlineOutcome.status === 'rejected') throw offlineOutcome.reason;
  const [demo, offline] = [demoOutcome.value, offlineOutcome.value];
  console.log(`✓ Demo world loaded for today: ${demo.summary}`);
  console.log(
    `✓ serverless offline on http://localhost:${HTTP_PORT}, Lambda API on http://localhost:${offline.lambdaPort} (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
  console.log(
    `  Settings (each overridable from the environment): ${Object.entries(SETTINGS)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}\n`,
  );
  console.log('Demo credentials (local stage only; the password is always empty):');
  for (const c of demo.credentials) {
    console.log(
      `  ${c.kind.padEnd(11)} ${c.ownerId.padEnd(16)} key ${c.key}${c.signingSecret ? `  callback secret ${c.signingSecret}` : ''}${c.note ? `  (${c.note})` : ''}`,
    );
  }
  console.log(`  channex     api-key ${env.CHANNEX_INBOUND_API_KEY}  (the api-key header of /channel-manager/channex/…; docs/channel-manager.md)`);
  const partner = demo.credentials.find((c) => c.kind === 'partner');
  const group = demo.credentials.find((c) => c.kind === 'agent-group');
  console.log('\nTry:');
  if (partner) console.log(`  curl -s -u ${partner.key}: http://localhost:${HTTP_PORT}/api/ping`);
  if (group) console.log(`  curl -s -u ${group.key}: http://localhost:${HTTP_PORT}/v1/ping`);
  console.log(`  curl -s http://localhost:${HTTP_PORT}/openapi.json | head -c 400`);
  console.log(
    `  curl -s -H 'api-key: ${env.CHANNEX_INBOUND_API_KEY}' 'http://localhost:${HTTP_PORT}/channel-manager/channex/mapping_details/?hotel_code=<listing>'`,
  );
  console.log(`  curl -s -X POST http://localhost:${offline.lambdaPort}/2015-03-31/functions/partner-distribution-local-sweepBookings/invocations -d '{}'`);
  console.log(`\nMail the stack sends (invoices, reminders, sign-in links): ${mail.endpoint}`);
  console.log(`\nConsole: http://127.0.0.1:${HTTP_PORT}/console — enter one of these addresses, then open the sign-in link from ${mail.endpoint}:`);
  for (const p of DEMO_PEOPLE) console.log(`  ${p.email.padEnd(26)} ${p.note}`);
  console.log('Admin tool against this stack: npm run admin -- --help.   Ctrl-C stops everything.');
} catch (err) {
  console.error(`✗ Could not start the local stack: ${(err as Error).message}`);
  await shutdown(1);
}

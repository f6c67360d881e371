import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../infra/config.ts';
import { buildServices, type Services } from '../../infra/container.ts';
import {
  bookingQueueName,
  pdfQueueName,
  billingQueueName,
  mailEventsQueueName,
  freePort,
  invoiceBucketName,
  provisionBucket,
  provisionQueues,
  provisionTable,
  serviceEnv,
  startDynamoLocal,
  startFauxqsProcess,
  startOffline,
  syncQueueName,
  channexQueueName,
  webhookQueueName,
  type OfflineServer,
  type Stoppable,
} from '../../scripts/local-stack.ts';
import { BOOKING_TEST_TIMINGS, LOOSE_SDK_LIMITS } from './global-setup.ts';

/** One emulator a fault test may pause, resume, kill and start again on the same port with its data. */
export interface Faultable {
  pause(): void;
  resume(): void;
  kill(): Promise<void>;
  restart(): Promise<void>;
}

export interface FaultStack {
  readonly baseUrl: string;
  readonly svc: Services;
  /** The service's environment (its table, emulators and queues), for tests that run a worker's handler in-process against this stack. */
  readonly env: Record<string, string>;
  readonly dynamo: Faultable;
  readonly queues: Faultable;
  /** The end of offline's output, to show when a fault test fails. */
  offlineLog(): string;
  stop(): Promise<void>;
}

const STAGE = 'test';

type Emulator = Stoppable & { readonly pid: number };

/** An emulator process and how to start it again on its port with its data. */
function faultable(first: Emulator, start: () => Promise<Emulator>): Faultable & Stoppable {
  let current = first;
  return {
    pause: () => process.kill(current.pid, 'SIGSTOP'),
    resume: () => process.kill(current.pid, 'SIGCONT'),
    // SIGKILL, as a crash would: no chance to flush or close sockets cleanly.
    kill: async () => {
      process.kill(-current.pid, 'SIGKILL');
      await current.stop();
    },
    restart: async () => {
      current = await start();
    },
    stop: () => current.stop(),
  };
}

/**
 * A whole stack of its own for fault tests (the shared one serves every other test file,
 * which a paused emulator would stall): DynamoDB Local and fauxqs each in their own
 * process with their data on disk (-sharedDb -dbPath, fauxqs's SQLite), so a killed one
 * restarts on the same port with its table, queues and messages; and an offline server
 * building into its own esbuild folder. The service runs the production SDK limits.
 */
export async function startFaultStack(): Promise<FaultStack> {
  const dir = mkdtempSync(join(tmpdir(), 'pds-faults-'));
  const [dynamoPort, queuePort] = await Promise.all([freePort(), freePort()]);
  const dynamoDir = join(dir, 'dynamo');
  const queueDir = join(dir, 'fauxqs');
  mkdirSync(dynamoDir);
  mkdirSync(queueDir);
  const startDynamo = () => startDynamoLocal({ port: dynamoPort, dbPath: dynamoDir });
  const startQueues = () => startFauxqsProcess({ port: queuePort, dataDir: queueDir });
  const [firstDynamo, firstQueues] = [await startDynamo(), await startQueues()];
  const dynamo = faultable(firstDynamo, startDynamo);
  const queues = faultable(firstQueues, startQueues);
  let offline: OfflineServer | undefined;
  const stop = async () => {
    const all: (Stoppable | undefined)[] = [offline, queues, dynamo];
    for (const s of all) await s?.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const tableName = 'pds-faults';
    await provisionTable(firstDynamo.endpoint, tableName);
    await provisionBucket(firstQueues.endpoint, invoiceBucketName(STAGE));
    const urls = await provisionQueues(firstQueues.endpoint, [webhookQueueName(STAGE), syncQueueName(STAGE), bookingQueueName(STAGE), channexQueueName(STAGE)]);
    const invoiceQueues = await provisionQueues(firstQueues.endpoint, [pdfQueueName(STAGE), billingQueueName(STAGE), mailEventsQueueName(STAGE)]);
    const extra = {
      LOG_LEVEL: 'ERROR',
      ESBUILD_WATCH_PATTERN: 'no-rebuilds-under-test/**',
      ESBUILD_PREBUILT: '.esbuild',
      WEBHOOK_QUEUE_URL: urls[webhookQueueName(STAGE)]!,
      BOOKING_QUEUE_URL: urls[bookingQueueName(STAGE)]!,
      PDF_QUEUE_URL: invoiceQueues[pdfQueueName(STAGE)]!,
      BILLING_QUEUE_URL: invoiceQueues[billingQueueName(STAGE)]!,
      CHANNEX_QUEUE_URL: urls[channexQueueName(STAGE)]!,
      TIME_SCALE: '1000',
      ...BOOKING_TEST_TIMINGS,
      // Production's 8 s budget sits under its 10 s function timeout; here the test's 5 s bound plays that part,
      // with half of it left for offline itself, whose event loop a loaded machine stalls for a second or more.
      REQUEST_BUDGET_MS: '2500',
    };
    const env = serviceEnv({ stage: STAGE, tableName, dynamodb: firstDynamo.endpoint, sqs: firstQueues.endpoint, extra });
    let log = '';
    offline = await startOffline({ stage: STAGE, env, log: (line) => (log = (log + line).slice(-20_000)) });
    // The test's own reads and seeding wait out a loaded machine; only the service under test runs the production limits.
    const svc = buildServices(parseConfig({ ...env, ...LOOSE_SDK_LIMITS }));
    return { baseUrl: offline.baseUrl, svc, env, dynamo, queues, offlineLog: () => log, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

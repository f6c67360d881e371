import { appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startFakeIrp } from './fake-irp.ts';
import { startFakeChannex } from './fake-channex.ts';
import { buildFunctions, WORK_FOLDER } from '../../scripts/build-functions.ts';
import {
  freePort,
  javaProblem,
  provisionBucket,
  provisionQueues,
  provisionTable,
  invoiceBucketName,
  serviceEnv,
  startDynamoLocal,
  startFauxqs,
  startOffline,
  startSesEmulator,
  syncQueueName,
  webhookQueueName,
  bookingQueueName,
  pdfQueueName,
  billingQueueName,
  mailEventsQueueName,
  channexQueueName,
} from '../../scripts/local-stack.ts';

export interface TestStack {
  readonly env: Record<string, string>;
  readonly baseUrl: string;
  readonly lambdaPort: number;
  /** The catalogue sync queue in fauxqs, consumed by the sync worker under offline. */
  readonly syncQueueUrl: string;
  /**
   * The fake IRP (test/support/fake-irp.ts) the stack's portal adapter talks to for the one
   * registration GSTIN whose credentials IRP_CREDENTIALS holds; every other registration stays
   * on the sandbox IRP (infra/einvoice/routed-e-invoice-registry.ts).
   */
  readonly irp: { readonly url: string; readonly gstin: string; readonly signingPublicKeyPem: string };
  /** Everything the stack's offline process printed (its functions' log lines among it), appended as it comes. */
  readonly logFile: string;
  /** The shared fake Channex (control it with controlFakeChannex). */
  readonly channexUrl: string;
}

/** The Open Channel API key the shared stack sends the fake Channex. */
const CHANNEX_TEST_KEY = 'open_channel_api_key_shared_stack';
const CHANNEX_READ_KEY = 'channex_user_api_key_shared_stack';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: TestStack;
  }
}

/**
 * The booking workflow's clock on the test stage: a 4 s window (a forced failure lands in
 * seconds), a 300 ms synchronous wait (so a booking confirming after one second answers
 * 202), and a 240 s watch for late landings. The watch is long beside the window because under a
 * full run's load the three looks from a failure to its late landing took over 30 s of real time, and a
 * look lost on the way waits for the sweeper (a minute's grace on a one-minute schedule): a watch that
 * ends first leaves the booking FAILED for good, whatever the test then waits.
 */
export const BOOKING_TEST_TIMINGS = { BOOKING_WINDOW_SECONDS: '4', BOOKING_SYNC_WAIT_MS: '300', BOOKING_WATCH_SECONDS: '240' } as const;

/**
 * Far looser SDK limits than production for the shared stack and for test-side clients:
 * two cores shared by many agents can stall a healthy DynamoDB Local for seconds (200
 * racing connections take longer than 1 s to open), and a timeout there would fail an
 * unrelated test, or, retried, re-apply a conditional update the store had already applied
 * (the rate limiter's "exactly the burst" race would then count one request twice). The
 * fault tests run the production defaults in their own offline.
 */
/** The test stack's one registration on the (fake) portal; test/e2e/e-invoicing-nic.test.ts bills under it. */
const NIC_TEST_GSTIN = '30AAICN4821N1ZQ';

export const LOOSE_SDK_LIMITS = { AWS_CONNECT_TIMEOUT_MS: '10000', AWS_REQUEST_TIMEOUT_MS: '20000', AWS_MAX_ATTEMPTS: '3' } as const;

/** The settings every tier's services run with on the test stage (besides where its emulators are). */
function testStageExtra(queueUrls: Record<string, string>): Record<string, string> {
  // TIME_SCALE 1000: a webhook's 30 s / 2 min / 10 min retries take 0.03 / 0.12 / 0.6 s (SQS then rounds each hop up to whole seconds).
  // REQUEST_BUDGET_MS: below the test stage's 30 s function timeout, far above what a loaded machine needs.
  return {
    ...LOOSE_SDK_LIMITS,
    REQUEST_BUDGET_MS: '25000',
    BILLING_REQUEST_WORK_MS: '20000',
    LOG_LEVEL: 'ERROR',
    ESBUILD_WATCH_PATTERN: 'no-rebuilds-under-test/**',
    WEBHOOK_QUEUE_URL: queueUrls[webhookQueueName('test')]!,
    TIME_SCALE: '1000',
    ...BOOKING_TEST_TIMINGS,
    BOOKING_QUEUE_URL: queueUrls[bookingQueueName('test')]!,
    PDF_QUEUE_URL: queueUrls[pdfQueueName('test')]!,
    BILLING_QUEUE_URL: queueUrls[billingQueueName('test')]!,
    CHANNEX_QUEUE_URL: queueUrls[channexQueueName('test')]!,
    // The console's sign-in links (the e2e tier's global setup sets its offline stack's own).
    CONSOLE_URL: 'http://127.0.0.1:9/console',
  };
}

type Shareable = { readonly endpoint: string; stop(): Promise<void> };
type WithShared = typeof globalThis & Record<symbol, Promise<{ emulator: Shareable; users: number }> | undefined>;

/**
 * One emulator for every tier of a run, started by the first tier that asks and stopped when the
 * last one tears down: vitest runs each project's global setup in this one process.
 */
async function sharedEmulator<E extends Shareable>(key: symbol, start: () => Promise<E>): Promise<{ emulator: E; release(): Promise<void> }> {
  const g = globalThis as WithShared;
  g[key] ??= start().then((emulator) => ({ emulator, users: 0 }));
  const shared = (await g[key]) as { emulator: E; users: number };
  shared.users++;
  return {
    emulator: shared.emulator,
    release: async () => {
      if (--shared.users > 0) return;
      delete g[key];
      await shared.emulator.stop();
    },
  };
}

/** Each tier's table in the shared DynamoDB Local, created once (the promise, so two tiers starting together create it once). */
const TABLES = new Map<string, Promise<void>>();

/**
 * One DynamoDB Local (a JVM, the heaviest emulator) for every tier of a run, so `npm test` starts
 * it once for integration and e2e. Each tier has a table of its own: work that
 * scans the whole table (the sweepers, the daily billing run) run by an integration test must
 * never take up the e2e stack's bookings and send their work to the integration tier's queues.
 */
async function sharedDynamo(tableName: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const { emulator, release } = await sharedEmulator(Symbol.for('pds.test.dynamo-local'), () => {
    TABLES.clear();
    return startDynamoLocal();
  });
  try {
    if (!TABLES.has(tableName)) TABLES.set(tableName, provisionTable(emulator.endpoint, tableName));
    await TABLES.get(tableName);
  } catch (err) {
    await release();
    throw err;
  }
  return { endpoint: emulator.endpoint, stop: release };
}

/**
 * One SES emulator (the local mailbox) for every tier of a run: its store is one per process
 * whatever the number of servers, so tiers tell their mail apart by recipient (each test mails
 * addresses of its own), never by owning the mailbox.
 */
async function sharedMailbox(): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const { emulator, release } = await sharedEmulator(Symbol.for('pds.test.ses-emulator'), () => startSesEmulator());
  return { endpoint: emulator.endpoint, stop: release };
}

/** The e2e stack's table; the integration tier's is `pds-test-integration` (see sharedDynamo). */
const TABLE_NAME = 'pds-test';

export interface Emulators {
  /** The services' environment on the test stage, pointing at this tier's emulators. */
  readonly env: Record<string, string>;
  readonly queueUrls: Record<string, string>;
  readonly stop: () => Promise<void>;
}

/**
 * DynamoDB Local and the SES emulator (shared by the tiers) and a fauxqs of this tier's own (SQS and S3, in this
 * process): a message an integration test leaves on a queue is never taken by the e2e tier's
 * offline workers, so the integration tier behaves the same run alone or with the others.
 */
export async function startEmulators(extra: Record<string, string> = {}, tableName = TABLE_NAME): Promise<Emulators> {
  const javaMissing = javaProblem();
  if (javaMissing) throw new Error(javaMissing);
  const started: { stop(): Promise<void> }[] = [];
  const stop = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
  };
  try {
    const [dynamo, queues, mailbox] = await Promise.all([sharedDynamo(tableName), startFauxqs(), sharedMailbox()]);
    started.push(dynamo, queues, mailbox);
    await provisionBucket(queues.endpoint, invoiceBucketName('test'));
    const queueUrls = await provisionQueues(queues.endpoint, [
      webhookQueueName('test'),
      syncQueueName('test'),
      bookingQueueName('test'),
      channexQueueName('test'),
      pdfQueueName('test'),
      billingQueueName('test'),
      mailEventsQueueName('test'),
    ]);
    const env = serviceEnv({
      stage: 'test',
      tableName,
      dynamodb: dynamo.endpoint,
      sqs: queues.endpoint,
      ses: mailbox.endpoint,
      extra: { ...testStageExtra(queueUrls), ...extra },
    });
    return { env, queueUrls, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The e2e tier: the emulators, the fake IRP and Channex the stack's adapters talk to, and
 * `serverless offline` serving every function over HTTP and consuming the queues.
 */
export default async function setup(project: TestProject) {
  const started: { stop(): Promise<void> }[] = [];
  const teardown = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
  };
  try {
    const irp = await startFakeIrp({
      clock: { now: () => new Date() },
      users: [{ gstin: NIC_TEST_GSTIN, clientId: 'stack-client', clientSecret: 'stack-secret', userName: 'api_stack', password: 'Stack@123' }],
    });
    started.push({ stop: () => irp.close() });
    const irpCredentials = {
      [NIC_TEST_GSTIN]: {
        baseUrl: irp.url,
        clientId: 'stack-client',
        clientSecret: 'stack-secret',
        userName: 'api_stack',
        password: 'Stack@123',
        publicKeyPem: irp.encryptionPublicKeyPem,
        signingKeyPem: irp.signingPublicKeyPem,
      },
    };
    const emulators = await startEmulators({ IRP_CREDENTIALS: JSON.stringify(irpCredentials) });
    started.push(emulators);
    const base = emulators.env;
    const httpPort = await freePort();
    // A fake Channex for the whole run: listings connected to Channex (channelManager: channex) book through it,
    // every other listing stays on the simulator (test/e2e/channex-outbound.test.ts).
    const channex = await startFakeChannex({
      outboundKey: CHANNEX_TEST_KEY,
      providerCode: 'OpenChannel',
      serviceEndpoint: `http://127.0.0.1:${httpPort}/channel-manager/channex`,
      inboundKey: base.CHANNEX_INBOUND_API_KEY!,
      userApiKey: CHANNEX_READ_KEY,
    });
    started.push({ stop: () => channex.close() });
    const env = {
      ...base,
      // The console's own address on this stack, in the links it e-mails and in what the tests read from stack().env: localhost, not
      // 127.0.0.1, because a passkey's relying party id is the console's host and WebAuthn refuses an IP address
      // (test/e2e/console-passkeys-browser.test.ts); both are secure contexts to Chromium over plain HTTP.
      CONSOLE_URL: `http://localhost:${httpPort}/console`,
      CHANNEX_BASE_URL: channex.url,
      CHANNEX_API_KEY: CHANNEX_TEST_KEY,
      CHANNEX_PROVIDER_CODE: 'OpenChannel',
      CHANNEX_USER_API_KEY: CHANNEX_READ_KEY,
    };
    // A file, not memory: a test scans what the stack logged (test/e2e/guest-erasure.test.ts: no guest data in any line).
    const logFile = join(tmpdir(), `pds-test-stack-${process.pid}.log`);
    writeFileSync(logFile, '');
    // Every function bundled in one esbuild pass (scripts/build-functions.ts), served as prebuilt
    // bundles: offline skips serverless-esbuild's function-by-function bundling.
    await buildFunctions();
    const offline = await startOffline({
      stage: 'test',
      env: { ...env, ESBUILD_PREBUILT: WORK_FOLDER },
      httpPort,
      consoleUrl: env.CONSOLE_URL,
      log: (l) => appendFileSync(logFile, l.endsWith('\n') ? l : `${l}\n`),
    });
    started.push(offline);
    project.provide('stack', {
      env,
      baseUrl: offline.baseUrl,
      lambdaPort: offline.lambdaPort,
      syncQueueUrl: emulators.queueUrls[syncQueueName('test')]!,
      irp: { url: irp.url, gstin: NIC_TEST_GSTIN, signingPublicKeyPem: irp.signingPublicKeyPem },
      logFile,
      channexUrl: channex.url,
    });
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}

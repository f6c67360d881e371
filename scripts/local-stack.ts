import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { awsClientOptions, OPERATOR_SDK_LIMITS } from '../infra/aws-client.ts';
import { tableDefinition, TTL_ATTRIBUTE } from '../infra/dynamo/table.ts';
import { newLocalSigningKey } from '../infra/crypto/digest-signers.ts';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';

/**
 * The local stack, shared by `npm start` and the test setup: DynamoDB Local (Amazon's
 * emulator, Java 17), fauxqs for SQS and S3, aws-ses-v2-local for SES (the local mailbox), the table and queues created, and
 * `serverless offline` serving the handlers. Every piece records what it started so
 * `stop()` leaves nothing behind.
 */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

export interface Stoppable {
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Java 17+ is needed for DynamoDB Local; returns a message when it is missing or too old. */
export function javaProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8', env });
  if (out.error) return 'Java was not found on PATH. DynamoDB Local needs Java 17 or newer (e.g. `apt-get install openjdk-17-jre-headless`).';
  const match = /version "(\d+)/.exec(`${out.stderr}${out.stdout}`);
  const major = Number(match?.[1] ?? 0);
  if (major < 17) return `Java ${major || '(unknown version)'} found; DynamoDB Local needs Java 17 or newer.`;
  return undefined;
}

const waitFor = async (what: string, probe: () => Promise<boolean>, timeoutMs: number, waiting?: (elapsedS: number) => void): Promise<void> => {
  const start = Date.now();
  const deadline = start + timeoutMs;
  let told = start;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 150));
    if (waiting && Date.now() - told >= 30_000) {
      told = Date.now();
      waiting(Math.round((told - start) / 1000));
    }
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms`);
};

const killTree = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }, 3000);
  await exited;
  clearTimeout(timer);
};

export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Set-up clients (probe, table, queues, bucket) wait as an operator's tool does, never as a partner's request. */
const setUpClientOptions = (endpoint: string) => awsClientOptions({ region: 'ap-south-1', aws: OPERATOR_SDK_LIMITS }, endpoint);

export interface DynamoLocal extends Stoppable {
  readonly endpoint: string;
  /** The emulator's process, for fault tests that pause (SIGSTOP) or kill it. */
  readonly pid: number;
}

export async function startDynamoLocal(opts: { port?: number; dbPath?: string; log?: (line: string) => void } = {}): Promise<DynamoLocal> {
  const port = opts.port ?? (await freePort());
  const emulator = join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  // -sharedDb: one database whatever access key and region a client uses (offline's handlers and the scripts differ).
  const storage = opts.dbPath ? ['-sharedDb', '-dbPath', opts.dbPath] : ['-inMemory', '-sharedDb'];
  const child = spawn(
    'java',
    [
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(emulator, 'DynamoDBLocal.jar'),
      ...storage,
      '-port',
      String(port),
      '-disableTelemetry',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  child.stderr?.on('data', (d: Buffer) => opts.log?.(d.toString()));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient(setUpClientOptions(endpoint));
  try {
    await waitFor('DynamoDB Local', async () => (await client.send(new ListTablesCommand({}))).TableNames !== undefined, EMULATOR_READY_MS);
  } catch (err) {
    await killTree(child);
    throw err;
  } finally {
    client.destroy();
  }
  return { endpoint, pid: child.pid!, stop: () => killTree(child) };
}

export interface Fauxqs extends Stoppable {
  readonly endpoint: string;
}

export interface FauxqsProcess extends Fauxqs {
  readonly pid: number;
}

/**
 * fauxqs in a process of its own, its state in SQLite under `dataDir`, so a fault test can
 * pause or kill it and start it again on the same port with its queues and messages (the
 * in-process server of `startFauxqs` shares the caller's process and memory).
 */
export async function startFauxqsProcess(opts: { port: number; dataDir: string }): Promise<FauxqsProcess> {
  const script = `import { startFauxqs } from 'fauxqs'; await startFauxqs({ port: ${opts.port}, logger: false, dataDir: ${JSON.stringify(opts.dataDir)} });`;
  const child = spawn(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let errors = '';
  child.stderr?.on('data', (d: Buffer) => (errors = (errors + d.toString()).slice(-4000)));
  const endpoint = `http://127.0.0.1:${opts.port}`;
  try {
    await waitFor(
      'fauxqs',
      async () => {
        if (child.exitCode !== null) throw new Error(`fauxqs exited (${child.exitCode}): ${errors}`);
        return (await fetch(`${endpoint}/health`)).status < 500;
      },
      EMULATOR_READY_MS,
    );
  } catch (err) {
    await killTree(child);
    throw err;
  }
  return { endpoint, pid: child.pid!, stop: () => killTree(child) };
}

export async function startFauxqs(opts: { port?: number } = {}): Promise<Fauxqs> {
  const { startFauxqs: start } = await import('fauxqs');
  // No `host`: fauxqs would build queue URLs as sqs.<region>.<host>, which with an IP is no valid URL for
  // serverless-offline-sqs; without it the URL echoes the Host the client used (http://127.0.0.1:<port>/…).
  const server = await start({ port: opts.port ?? 0, logger: false });
  return { endpoint: server.address, stop: async () => server.stop() };
}

export interface SesEmulator extends Stoppable {
  /** The SES endpoint (SES_ENDPOINT) and the local mailbox's page: the same address. */
  readonly endpoint: string;
}

/**
 * aws-ses-v2-local, in this process: SESv2 SendEmail at its root, the messages it kept on a web
 * page there and as JSON at /store (test/support/mailbox.ts reads it). Its store is one per
 * process, however many servers start: a second server shows the first's mail too.
 */
export async function startSesEmulator(opts: { port?: number } = {}): Promise<SesEmulator> {
  // A CommonJS module with __esModule: Node's ESM import gives its exports object as the default.
  const mod = (await import('aws-ses-v2-local')) as unknown as {
    default: typeof import('aws-ses-v2-local').default | { default: typeof import('aws-ses-v2-local').default };
  };
  const server = typeof mod.default === 'function' ? mod.default : mod.default.default;
  const port = opts.port ?? (await freePort());
  const http = await server({ host: '127.0.0.1', port });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** The sender of every local and test stage (MAIL_FROM); the SES emulator takes any. */
export const LOCAL_MAIL_FROM = 'Partner Distribution Billing <billing@partner-distribution.local>';

/** Creates the table (with TTL) if it is not there yet. Safe to run again. */
export async function provisionTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient(setUpClientOptions(endpoint));
  try {
    const exists = await client.send(new DescribeTableCommand({ TableName: tableName })).then(
      () => true,
      (err: { name?: string }) => {
        if (err.name === 'ResourceNotFoundException') return false;
        throw err;
      },
    );
    if (exists) return;
    await client.send(new CreateTableCommand(tableDefinition(tableName)));
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }));
  } finally {
    client.destroy();
  }
}

/** The delivery queue's name on a stage; serverless.yml's `webhookQueueName` param gives the same. */
export const webhookQueueName = (stage: string): string => `partner-distribution-${stage}-webhook-deliveries`;

/**
 * Creates each queue with a dead-letter queue beside it (`<name>-dlq`, after 5 receives),
 * as serverless.yml declares them for the cloud, and returns name → queue URL. Must run
 * before `serverless offline` starts: serverless-offline-sqs looks its queues up once.
 * Safe to run again. Tests of redelivery pass a short visibility timeout and receive count.
 */
export async function provisionQueues(
  endpoint: string,
  names: readonly string[],
  opts: { readonly visibilityTimeoutSeconds?: number; readonly maxReceiveCount?: number } = {},
): Promise<Record<string, string>> {
  const client = new SQSClient(setUpClientOptions(endpoint));
  try {
    const urls: Record<string, string> = {};
    for (const name of names) {
      // A FIFO queue's dead-letter queue must be FIFO too, and both names end in .fifo.
      const fifo = name.endsWith('.fifo');
      const fifoAttributes = fifo ? { FifoQueue: 'true', ContentBasedDeduplication: 'true' } : {};
      const dlqName = fifo ? `${name.slice(0, -'.fifo'.length)}-dlq.fifo` : `${name}-dlq`;
      const dlq = await client.send(new CreateQueueCommand({ QueueName: dlqName, Attributes: fifoAttributes }));
      const dlqArn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn;
      const queue = await client.send(
        new CreateQueueCommand({
          QueueName: name,
          Attributes: {
            ...fifoAttributes,
            VisibilityTimeout: String(opts.visibilityTimeoutSeconds ?? 360),
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: opts.maxReceiveCount ?? 5 }),
          },
        }),
      );
      urls[name] = queue.QueueUrl!;
    }
    return urls;
  } finally {
    client.destroy();
  }
}

/** The invoice bucket's name on a local or test stage (the cloud adds the account id). */
export const invoiceBucketName = (stage: string): string => `partner-distribution-${stage}-invoices`;

/**
 * The audit digests' bucket on a local or test stage. fauxqs has no Object Lock and ignores
 * If-None-Match on a put: locally a digest can be overwritten or deleted (docs/audit.md "Digests").
 */
export const auditDigestBucketName = (stage: string): string => `partner-distribution-${stage}-audit-digests`;

/** Creates the bucket in fauxqs's S3 if it is not there yet. */
export async function provisionBucket(endpoint: string, name: string): Promise<void> {
  const s3 = new S3Client({ ...setUpClientOptions(endpoint), forcePathStyle: true });
  try {
    await s3.send(new CreateBucketCommand({ Bucket: name })).catch((err: { name?: string }) => {
      if (err.name !== 'BucketAlreadyOwnedByYou' && err.name !== 'BucketAlreadyExists') throw err;
    });
  } finally {
    s3.destroy();
  }
}

/** The booking workflow queue's name on a stage; serverless.yml's `bookingQueueName` param gives the same. */
export const bookingQueueName = (stage: string): string => `partner-distribution-${stage}-booking-workflow`;

/** The invoice PDF queue's name on a stage; serverless.yml's `pdfQueueName` param gives the same. */
export const pdfQueueName = (stage: string): string => `partner-distribution-${stage}-invoice-pdfs`;

/** The billing queue's name on a stage (the daily run's groups); serverless.yml's `billingQueueName` param gives the same. */
export const billingQueueName = (stage: string): string => `partner-distribution-${stage}-billing`;

/** The SES bounce and complaint events' queue on a stage (serverless.yml's MailEventsQueue): served by mailEvents, so offline needs it to exist. */
export const mailEventsQueueName = (stage: string): string => `partner-distribution-${stage}-mail-events`;

/** The catalogue sync queue's name on a stage (FIFO: syncs apply in the order they were sent). */
export const syncQueueName = (stage: string): string => `partner-distribution-${stage}-catalogue-sync.fifo`;

/** The Channex changes queue's name on a stage (FIFO: a listing's changes apply in the order Channex sent them). */
export const channexQueueName = (stage: string): string => `partner-distribution-${stage}-channex-changes.fifo`;

/** How long an emulator may take to answer after its start; EMULATOR_READY_MS raises it on a machine loaded by other work. */
const EMULATOR_READY_MS = Number(process.env.EMULATOR_READY_MS ?? 30_000);

export const randomKey = (): string => randomBytes(32).toString('base64');

export interface OfflineServer extends Stoppable {
  readonly baseUrl: string;
  readonly lambdaPort: number;
}

/** `serverless offline` with the given environment; resolves once it answers HTTP. */
export async function startOffline(opts: {
  stage: string;
  env: Record<string, string>;
  httpPort?: number;
  lambdaPort?: number;
  /** Where the console's e-mailed sign-in links point; http://127.0.0.1:<httpPort>/console unless given. */
  consoleUrl?: string;
  log?: (line: string) => void;
  /** Told every 30 s while offline is still bundling, so a slow start does not look like a hang. */
  waiting?: (elapsedS: number) => void;
}): Promise<OfflineServer> {
  const httpPort = opts.httpPort ?? (await freePort());
  const lambdaPort = opts.lambdaPort ?? (await freePort());
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'serverless'), ['offline', 'start', '--stage', opts.stage], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...opts.env,
      HTTP_PORT: String(httpPort),
      LAMBDA_PORT: String(lambdaPort),
      // Where the console's e-mailed sign-in links point (docs/console.md).
      CONSOLE_URL: opts.consoleUrl ?? `http://127.0.0.1:${httpPort}/console`,
      SLS_TELEMETRY_DISABLED: '1',
      SLS_NOTIFICATIONS_MODE: 'off',
      // Node's 16 KB header limit would answer an over-long URL with an empty 431 before the
      // service sees it; raised past API Gateway's 10 KB so the service's own 414 answers, as in the cloud.
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-http-header-size=131072`.trim(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const collect = (d: Buffer) => {
    const text = d.toString();
    output = (output + text).slice(-20_000);
    opts.log?.(text);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  try {
    await waitFor(
      'serverless offline',
      async () => {
        if (child.exitCode !== null) throw new Error(`serverless offline exited (${child.exitCode}):\n${output}`);
        return (await fetch(`${baseUrl}/openapi.json`)).status === 200;
      },
      // Only a hang should hit this: an exit is caught at once above. Bundling every function on two
      // cores shared with other work has taken over five minutes (a newcomer's npm start failed at 300 s).
      Number(process.env.OFFLINE_READY_MS ?? 900_000),
      opts.waiting,
    );
  } catch (err) {
    await killTree(child);
    throw new Error(`${(err as Error).message}\n--- offline output ---\n${output}`);
  }
  return { baseUrl, lambdaPort, stop: () => killTree(child) };
}

/**
 * The service settings `npm start` runs the local stage with, each taken from the
 * environment when set there (an empty value counts as unset): e.g.
 * `OUTBOUND_ALLOW_HOSTS=hooks.staging.example OUTBOUND_ALLOW_HTTP=false npm start` to send
 * callbacks to a TLS receiver on a named host while loopback is refused.
 */
export const LOCAL_SETTINGS: Readonly<Record<string, string>> = {
  OUTBOUND_ALLOW_HOSTS: '127.0.0.1,localhost',
  OUTBOUND_ALLOW_HTTP: 'true',
  TIME_SCALE: '1',
  BOOKING_WINDOW_SECONDS: '120',
  BOOKING_SYNC_WAIT_MS: '3000',
  BOOKING_WATCH_SECONDS: '600',
  ORDER_VALIDITY_MINUTES: '30',
  RATE_LIMIT_PER_MINUTE: '600',
  RATE_LIMIT_BURST: '100',
  LOG_LEVEL: 'INFO',
  AWS_CONNECT_TIMEOUT_MS: '1000',
  AWS_REQUEST_TIMEOUT_MS: '1500',
  AWS_MAX_ATTEMPTS: '2',
  REQUEST_BUDGET_MS: '8000',
};

export function localSettings(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(LOCAL_SETTINGS).map(([name, fallback]) => [name, env[name] || fallback]));
}

/** The environment every piece of the service reads (infra/config.ts), for a local or test stage. */
export function serviceEnv(opts: {
  stage: string;
  tableName: string;
  dynamodb: string;
  sqs: string;
  ses?: string;
  extra?: Record<string, string>;
}): Record<string, string> {
  return {
    STAGE: opts.stage,
    AWS_REGION: 'ap-south-1',
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    TABLE_NAME: opts.tableName,
    DYNAMODB_ENDPOINT: opts.dynamodb,
    SQS_ENDPOINT: opts.sqs,
    S3_ENDPOINT: opts.sqs,
    ...(opts.ses ? { SES_ENDPOINT: opts.ses } : {}),
    MAIL_FROM: LOCAL_MAIL_FROM,
    CURSOR_KEY: randomKey(),
    SECRETS_KEY: randomKey(),
    RAZORPAY_WEBHOOK_SECRET: randomKey(),
    IRP_SIGNING_KEY: randomKey(),
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1,localhost',
    OUTBOUND_ALLOW_HTTP: 'true',
    INVOICE_BUCKET: invoiceBucketName(opts.stage),
    AUDIT_DIGEST_BUCKET: auditDigestBucketName(opts.stage),
    // The local stand-in for the cloud's KMS signing key: the stage's own, never in the repository.
    AUDIT_SIGNING_KEY: newLocalSigningKey(),
    // The key a local Channex (or curl) sends in api-key to /channel-manager/channex/… (docs/channel-manager.md).
    CHANNEX_INBOUND_API_KEY: `chx_local_${randomBytes(24).toString('hex')}`,
    ...opts.extra,
  };
}

import { hkdfSync } from 'node:crypto';
import * as v from 'valibot';
import type { IrpCredential } from './einvoice/nic-e-invoice-registry.ts';
import type { KeyRing } from './crypto/key-ring.ts';
import { razorpayKeyModeProblem } from './payments/razorpay-mode.ts';

/**
 * Every environment variable the service reads, validated once at cold start.
 * `.env.example` lists the same names; a test keeps the two in step.
 */
const LOOPBACK_STAGES = new Set(['local', 'test']);

const positiveInt = (fallback: number) => v.pipe(v.optional(v.string(), String(fallback)), v.transform(Number), v.number(), v.integer(), v.minValue(1));

const positiveNumber = (fallback: number) => v.pipe(v.optional(v.string(), String(fallback)), v.transform(Number), v.number(), v.minValue(0.0001));

const KEY_32 = /^[A-Za-z0-9+/]{43}=$/;

/** One 32-byte base64 key, never rotated as a ring (the sandbox IRP's signing key). */
const key32 = v.pipe(
  v.string(),
  v.regex(KEY_32, 'must be 32 bytes, base64'),
  v.transform((s) => Buffer.from(s, 'base64')),
);

/**
 * One 32-byte base64 key, or during a rotation two: `<new>,<old>`. The new one signs and
 * seals; the old one is still accepted when reading (docs/deploy.md "Key rotation").
 */
export const KeyRingSchema = v.pipe(
  v.string(),
  v.transform((s) => s.split(',').map((k) => k.trim())),
  v.check((ks) => ks.length <= 2, 'at most two keys: <new>,<old>'),
  v.check((ks) => ks.every((k) => KEY_32.test(k)), 'must be 32 bytes, base64 (two during a rotation: <new>,<old>)'),
  v.check((ks) => ks.length < 2 || ks[0] !== ks[1], 'the new and the old key must differ'),
  v.transform(
    ([current, previous]): KeyRing => ({ current: Buffer.from(current!, 'base64'), ...(previous ? { previous: Buffer.from(previous, 'base64') } : {}) }),
  ),
);

/** Channex's inbound api-key values: one, or `<new>,<old>` during a rotation. */
const InboundKeysSchema = v.pipe(
  v.string(),
  v.transform((s) =>
    s
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  ),
  v.check((ks) => ks.length <= 2, 'at most two keys: <new>,<old>'),
  v.check((ks) => ks.every((k) => /^[\x21-\x7e]{24,128}$/.test(k) && !k.includes(',')), 'each key is 24–128 printable characters'),
);

const csv = v.pipe(
  v.optional(v.string(), ''),
  v.transform((s) =>
    s
      .split(',')
      .map((x) => x.trim().toLowerCase())
      .filter(Boolean),
  ),
);

/** Exported so a test can hold `.env.example` to exactly these names. */
export const EnvSchema = v.object({
  STAGE: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{0,19}$/)),
  AWS_REGION: v.optional(v.string(), 'ap-south-1'),
  TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
  DYNAMODB_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  SQS_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  S3_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  SES_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /** The stage's sender: `billing@example.in` or `Name <billing@example.in>`, an identity verified in SES. */
  MAIL_FROM: v.optional(
    v.pipe(v.string(), v.regex(/^(?:[^<>\r\n]+ <[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/, 'must be an address, or Name <address>')),
  ),
  SES_CONFIGURATION_SET: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an SES configuration set name'))),
  RATE_LIMIT_PER_MINUTE: positiveInt(600),
  RATE_LIMIT_BURST: positiveInt(100),
  CURSOR_KEY: KeyRingSchema,
  SECRETS_KEY: KeyRingSchema,
  OUTBOUND_ALLOW_HOSTS: csv,
  OUTBOUND_ALLOW_HTTP: v.optional(v.picklist(['true', 'false']), 'false'),
  TIME_SCALE: positiveNumber(1),
  LOG_LEVEL: v.optional(v.picklist(['DEBUG', 'INFO', 'WARN', 'ERROR']), 'INFO'),
  METRICS: v.optional(v.picklist(['emf', 'off'])),
  WEBHOOK_QUEUE_URL: v.optional(v.pipe(v.string(), v.url())),
  ORDER_VALIDITY_MINUTES: positiveInt(30),
  BOOKING_QUEUE_URL: v.optional(v.pipe(v.string(), v.url())),
  PDF_QUEUE_URL: v.optional(v.pipe(v.string(), v.url())),
  BILLING_QUEUE_URL: v.optional(v.pipe(v.string(), v.url())),
  BOOKING_WINDOW_SECONDS: positiveInt(900),
  BOOKING_SYNC_WAIT_MS: positiveInt(3000),
  BOOKING_WATCH_SECONDS: positiveInt(86_400),
  AWS_CONNECT_TIMEOUT_MS: positiveInt(1000),
  AWS_REQUEST_TIMEOUT_MS: positiveInt(1500),
  AWS_MAX_ATTEMPTS: positiveInt(2),
  REQUEST_BUDGET_MS: positiveInt(8000),
  /** Unset: five eighths of REQUEST_BUDGET_MS (5 s of 8 s), leaving the run's tail its share of any budget. */
  BILLING_REQUEST_WORK_MS: v.optional(v.pipe(v.string(), v.transform(Number), v.number(), v.integer(), v.minValue(1))),
  PAYMENT_GATEWAY: v.optional(v.picklist(['sandbox', 'razorpay']), 'sandbox'),
  /** Razorpay's webhook secret(s) as set on its dashboard: `<new>,<old>` while one rotates (8+ characters, no comma). */
  RAZORPAY_WEBHOOK_SECRET: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.split(',').map((k) => k.trim())),
      v.check((ks) => ks.length <= 2 && ks.every((k) => k.length >= 8), 'one secret of 8+ characters, or two during a rotation: <new>,<old>'),
    ),
  ),
  RAZORPAY_KEY_ID: v.optional(v.pipe(v.string(), v.regex(/^rzp_(test|live)_[A-Za-z0-9]{6,32}$/, 'must be a Razorpay key id (rzp_test_… or rzp_live_…)'))),
  RAZORPAY_KEY_SECRET: v.optional(v.pipe(v.string(), v.minLength(8))),
  RAZORPAY_API_URL: v.optional(v.pipe(v.string(), v.url())),
  RAZORPAY_TIMEOUT_MS: positiveInt(4000),
  IRP_SIGNING_KEY: v.optional(key32),
  IRP_PROVIDER: v.optional(v.picklist(['sandbox', 'nic']), 'sandbox'),
  IRP_CREDENTIALS: v.optional(v.string()),
  INVOICE_BUCKET: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name'))),
  AUDIT_DIGEST_BUCKET: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name'))),
  AUDIT_SIGNING_KEY: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9+/]{40,}={0,2}$/, 'must be a base64 PKCS#8 EC P-256 private key'))),
  AUDIT_SIGNING_KEY_ID: v.optional(
    v.pipe(v.string(), v.regex(/^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:(key|alias)\/[A-Za-z0-9/_-]+$/, 'must be a KMS key or alias ARN')),
  ),
  PROPERTY_SYSTEM: v.optional(v.picklist(['simulator', 'channex']), 'simulator'),
  CHANNEX_INBOUND_API_KEY: v.optional(InboundKeysSchema, ''),
  CHANNEX_QUEUE_URL: v.optional(v.pipe(v.string(), v.url())),
  CHANNEX_BASE_URL: v.optional(v.pipe(v.string(), v.url())),
  CHANNEX_API_KEY: v.optional(v.pipe(v.string(), v.minLength(1))),
  CHANNEX_PROVIDER_CODE: v.optional(v.pipe(v.string(), v.minLength(1))),
  CHANNEX_USER_API_KEY: v.optional(v.pipe(v.string(), v.minLength(1))),
  CHANNEX_API_URL: v.optional(v.pipe(v.string(), v.url())),
  GUEST_RETENTION_DAYS: positiveInt(180),
  /** The console's own address (docs/console.md): its e-mailed sign-in links point here, never at a request's Host. */
  CONSOLE_URL: v.optional(v.pipe(v.string(), v.url())),
});

export interface Config {
  readonly stage: string;
  /** Local and test stages: plaintext keys in world files, loopback receivers, sandbox scenarios. */
  readonly isSandbox: boolean;
  readonly region: string;
  readonly tableName: string;
  readonly endpoints: { readonly dynamodb?: string; readonly sqs?: string; readonly s3?: string; readonly ses?: string };
  /**
   * Outbound e-mail (docs/e-mail.md): the stage's sender and, in AWS, the SES configuration set
   * whose event destination reports bounces and complaints. Without a sender, a function that
   * sends mail fails on first use.
   */
  readonly mail: { readonly from?: string; readonly configurationSet?: string };
  readonly rateLimit: { readonly perMinute: number; readonly burst: number };
  /** Where the console's sign-in links point; without it the console function fails at its first request. */
  readonly consoleUrl?: string;
  /** Signs pagination cursors; a previous key is accepted for reading during a rotation. */
  readonly cursorKeys: KeyRing;
  /** Seals stored secrets (AES-256-GCM); a previous key still opens what it sealed during a rotation. */
  readonly secretsKeys: KeyRing;
  readonly outbound: { readonly allowHosts: readonly string[]; readonly allowHttp: boolean };
  /** Divides every retry gap, workflow window and wait; 1 in production. */
  readonly timeScale: number;
  readonly logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** `emf`: counts go to stdout as CloudWatch embedded metrics (infra/metrics.ts); `off`: not counted. */
  readonly metrics: 'emf' | 'off';
  /** The delivery queue (catalogue webhooks); absent for tools that never queue a delivery, which then fail on first use. */
  readonly webhookQueueUrl?: string;
  /** An order's courtesy window: validUntil = createdAt (or the last reprice) + this. */
  readonly orderValidityMinutes: number;
  /**
   * Every AWS SDK client's limits (infra/aws-client.ts): one call gives up after at most
   * maxAttempts × (requestTimeoutMs + backoff), so a request whose storage is unreachable
   * answers 503 well inside the function timeout instead of hanging until it.
   */
  readonly aws: { readonly connectTimeoutMs: number; readonly requestTimeoutMs: number; readonly maxAttempts: number };
  /**
   * The longest an HTTP request may take: past it the caller gets 503 SERVICE_UNAVAILABLE
   * (functions/http/budget.ts), however many slow-but-answering storage calls it was making.
   * Below the 10 s function timeout, above the booking's synchronous wait.
   */
  readonly requestBudgetMs: number;
  /** How long POST /v1/invoices writes lines before it answers with its DRAFTs and hands the rest to the billing worker. */
  readonly billingRequestWorkMs: number;
  readonly booking: BookingTimings & {
    /** The booking workflow queue; absent for tools that never start a workflow, which then fail on first use. */
    readonly queueUrl?: string;
  };
  /** The bucket invoice and credit-note PDFs are stored in; absent for tools that never store one, which then fail on first use. */
  readonly invoiceBucket?: string;
  /**
   * The audit trail's digests (docs/audit.md "Digests"): their write-once bucket and the signing key,
   * a KMS key in the cloud or, on local stages only, a local private key. Absent for processes that
   * never write or check a digest, which then fail on first use.
   */
  readonly auditDigests: { readonly bucket?: string; readonly kmsKeyId?: string; readonly localKey?: string };
  /** The queue the PDF worker renders issued documents from; absent for tools that render in-process, which fail on first use of it. */
  readonly pdfQueueUrl?: string;
  /** The billing queue the daily run fans out on (one message per group); absent for tools that bill every group in-process. */
  readonly billingQueueUrl?: string;
  /**
   * The payment gateway: `sandbox` (local, test and sandbox stages) or `razorpay`, whose key
   * id and secret are then required. `webhookSecrets`: current, then previous during a
   * rotation; without one every notification is refused (400).
   */
  readonly payments: {
    readonly gateway: 'sandbox' | 'razorpay';
    readonly webhookSecrets: readonly string[];
    readonly razorpay?: { readonly keyId: string; readonly keySecret: string; readonly apiUrl?: string; readonly timeoutMs: number };
  };
  /**
   * The sandbox IRP's key for its signed QR codes and signed invoices (HS256). IRP_SIGNING_KEY,
   * or else derived from the current SECRETS_KEY (HKDF-SHA256), so a stage without its own
   * still signs the same in every process. Never logged.
   */
  readonly irpSigningKey: Buffer;
  /** The channel manager (docs/channel-manager.md): which property system books, and Channex's side of it. */
  readonly channex: ChannexConfig;
  /**
   * Which IRP registers e-invoices: the portal's API (infra/einvoice/nic-e-invoice-registry.ts)
   * for every registration GSTIN with credentials in IRP_CREDENTIALS (the stage secret's
   * irpCredentials); the others go to the sandbox the project owns when the provider is
   * `sandbox`, and wait for their credentials (DRAFT) when it is `nic`. Never logged.
   */
  readonly irp: { readonly provider: 'sandbox' | 'nic'; readonly credentials: Readonly<Record<string, IrpCredential>> };
  /** Days a booking's guest data is kept after its check-out or cancellation; then the daily job erases it (docs/personal-data.md). */
  readonly guestRetentionDays: number;
}

const pemKey = v.pipe(
  v.string(),
  v.regex(/^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----\s*$/, 'must be a PEM public key (-----BEGIN PUBLIC KEY-----)'),
);
const nonEmpty = v.pipe(v.string(), v.minLength(1, 'must not be empty'));

/** The stage secret's `irpCredentials`: each registration GSTIN's API user on the portal (docs/deploy.md, "E-invoicing"). */
export const IrpCredentialsSchema = v.record(
  v.pipe(v.string(), v.regex(/^[0-9]{2}[A-Z0-9]{13}$/, 'must be a GSTIN')),
  v.object({
    baseUrl: v.pipe(v.string(), v.url()),
    clientId: nonEmpty,
    clientSecret: nonEmpty,
    userName: nonEmpty,
    password: nonEmpty,
    publicKeyPem: pemKey,
    signingKeyPem: pemKey,
  }),
);

/**
 * IRP_CREDENTIALS (JSON) checked; an http base URL only on loopback stages (the test suite's
 * fake IRP). Optional with the sandbox provider (a registration being onboarded against the
 * portal's own sandbox while the others stay on ours); required with `nic`.
 */
function irpOf(provider: 'sandbox' | 'nic', text: string | undefined, isSandbox: boolean): Config['irp'] {
  if (provider === 'sandbox' && !text?.trim()) return { provider, credentials: {} };
  let json: unknown;
  try {
    json = JSON.parse(text ?? '');
  } catch {
    throw new ConfigError(`IRP_PROVIDER=${provider} needs IRP_CREDENTIALS to be the JSON of the stage secret's irpCredentials`);
  }
  const parsed = v.safeParse(IrpCredentialsSchema, json);
  if (!parsed.success) throw new ConfigError(`IRP_CREDENTIALS: ${parsed.issues.map((i) => `${v.getDotPath(i) ?? '?'} ${i.message}`).join('; ')}`);
  if (provider === 'nic' && Object.keys(parsed.output).length === 0)
    throw new ConfigError('IRP_PROVIDER=nic needs at least one registration in IRP_CREDENTIALS');
  const plain = Object.entries(parsed.output).find(([, c]) => !c.baseUrl.startsWith('https://'));
  if (plain && !isSandbox) throw new ConfigError(`IRP_CREDENTIALS: ${plain[0]}.baseUrl must be https`);
  return { provider, credentials: parsed.output };
}

export interface ChannexConfig {
  readonly propertySystem: 'simulator' | 'channex';
  /** Accepted api-key values of Channex's inbound calls (none: every call is refused). */
  readonly inboundKeys: readonly string[];
  readonly queueUrl?: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly providerCode?: string;
  /** Channex's own API (user-api-key) and its host, to read its bookings before a push is sent again. */
  readonly userApiKey?: string;
  readonly apiUrl?: string;
}

/**
 * The booking workflow's clock (docs/product-rules.md "Bookings"): explicit durations, not divided by
 * TIME_SCALE, so a test stage states exactly how long it waits.
 */
export interface BookingTimings {
  /** Unresolved this long after the credit gate, a booking FAILS and its authorization is released. */
  readonly windowSeconds: number;
  /** How long POST /v1/bookings waits for the outcome before answering 202 PROCESSING. */
  readonly syncWaitMs: number;
  /** After a failure, how long the workflow keeps watching for a late landing. */
  readonly watchSeconds: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // Deploy templates pass unset optionals as empty strings; treat them as absent.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = v.safeParse(EnvSchema, present);
  if (!parsed.success) {
    const problems = parsed.issues.map((i) => `${v.getDotPath(i) ?? '?'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.output;
  const isSandbox = LOOPBACK_STAGES.has(e.STAGE);
  const allowHttp = e.OUTBOUND_ALLOW_HTTP === 'true';
  if (!isSandbox && (e.OUTBOUND_ALLOW_HOSTS.length > 0 || allowHttp)) {
    // The loopback escape hatch exists for local receivers only; a production stack must never have it.
    throw new ConfigError(`OUTBOUND_ALLOW_HOSTS and OUTBOUND_ALLOW_HTTP are only accepted on stages ${[...LOOPBACK_STAGES].join(', ')}`);
  }
  if (e.AUDIT_SIGNING_KEY && !isSandbox) {
    // A key in a function's environment could be read by any code of the stack; the cloud signs with KMS (docs/audit.md "Digests").
    throw new ConfigError(`AUDIT_SIGNING_KEY is only accepted on stages ${[...LOOPBACK_STAGES].join(', ')}; cloud stages sign with AUDIT_SIGNING_KEY_ID (KMS)`);
  }
  if (e.BOOKING_SYNC_WAIT_MS >= e.BOOKING_WINDOW_SECONDS * 1000) {
    // The synchronous wait must end inside the window, or a booking could fail while its own POST is still waiting.
    throw new ConfigError('BOOKING_SYNC_WAIT_MS must be shorter than BOOKING_WINDOW_SECONDS');
  }
  if (e.REQUEST_BUDGET_MS <= e.BOOKING_SYNC_WAIT_MS) {
    // POST /v1/bookings waits this long for the outcome; a smaller budget would turn every wait into a 503.
    throw new ConfigError('REQUEST_BUDGET_MS must be longer than BOOKING_SYNC_WAIT_MS');
  }
  if (e.BILLING_REQUEST_WORK_MS !== undefined && e.BILLING_REQUEST_WORK_MS > e.REQUEST_BUDGET_MS - 2000) {
    // After it the run still ends the transactions in flight, closes its lanes, saves its record, releases the lock and queues the rest.
    throw new ConfigError('BILLING_REQUEST_WORK_MS must be at least 2000 ms shorter than REQUEST_BUDGET_MS');
  }
  if (e.PAYMENT_GATEWAY === 'razorpay' && !(e.RAZORPAY_KEY_ID && e.RAZORPAY_KEY_SECRET)) {
    throw new ConfigError('PAYMENT_GATEWAY razorpay needs RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET');
  }
  const keyMode = e.RAZORPAY_KEY_ID && razorpayKeyModeProblem(e.STAGE, e.RAZORPAY_KEY_ID);
  if (keyMode) throw new ConfigError(`RAZORPAY_KEY_ID: ${keyMode}`);
  if (!isSandbox && e.RAZORPAY_API_URL) {
    // Only a test points the SDK away from Razorpay (at the fake in test/support).
    throw new ConfigError('RAZORPAY_API_URL is only accepted on stages local, test');
  }
  if (e.PROPERTY_SYSTEM === 'channex' && !(e.CHANNEX_BASE_URL && e.CHANNEX_API_KEY && e.CHANNEX_PROVIDER_CODE)) {
    throw new ConfigError('PROPERTY_SYSTEM=channex needs CHANNEX_BASE_URL, CHANNEX_API_KEY and CHANNEX_PROVIDER_CODE');
  }
  if (!isSandbox && e.CONSOLE_URL && !e.CONSOLE_URL.startsWith('https://')) {
    // The session cookie is Secure (__Host-): on plain http the browser would drop it, and a link's token would travel in clear.
    throw new ConfigError('CONSOLE_URL must be https outside stages local, test');
  }
  if (!isSandbox && e.TIME_SCALE !== 1) {
    throw new ConfigError('TIME_SCALE may differ from 1 only on local and test stages');
  }
  return {
    stage: e.STAGE,
    isSandbox,
    region: e.AWS_REGION,
    tableName: e.TABLE_NAME,
    endpoints: { dynamodb: e.DYNAMODB_ENDPOINT, sqs: e.SQS_ENDPOINT, s3: e.S3_ENDPOINT, ses: e.SES_ENDPOINT },
    mail: { from: e.MAIL_FROM, configurationSet: e.SES_CONFIGURATION_SET },
    rateLimit: { perMinute: e.RATE_LIMIT_PER_MINUTE, burst: e.RATE_LIMIT_BURST },
    consoleUrl: e.CONSOLE_URL,
    cursorKeys: e.CURSOR_KEY,
    secretsKeys: e.SECRETS_KEY,
    outbound: { allowHosts: e.OUTBOUND_ALLOW_HOSTS, allowHttp },
    timeScale: e.TIME_SCALE,
    logLevel: e.LOG_LEVEL,
    // Sandbox stages have no CloudWatch to read the lines, which would only crowd the output.
    metrics: e.METRICS ?? (isSandbox ? 'off' : 'emf'),
    webhookQueueUrl: e.WEBHOOK_QUEUE_URL,
    orderValidityMinutes: e.ORDER_VALIDITY_MINUTES,
    aws: { connectTimeoutMs: e.AWS_CONNECT_TIMEOUT_MS, requestTimeoutMs: e.AWS_REQUEST_TIMEOUT_MS, maxAttempts: e.AWS_MAX_ATTEMPTS },
    requestBudgetMs: e.REQUEST_BUDGET_MS,
    billingRequestWorkMs: e.BILLING_REQUEST_WORK_MS ?? Math.floor((e.REQUEST_BUDGET_MS * 5) / 8),
    booking: {
      queueUrl: e.BOOKING_QUEUE_URL,
      windowSeconds: e.BOOKING_WINDOW_SECONDS,
      syncWaitMs: e.BOOKING_SYNC_WAIT_MS,
      watchSeconds: e.BOOKING_WATCH_SECONDS,
    },
    invoiceBucket: e.INVOICE_BUCKET,
    auditDigests: { bucket: e.AUDIT_DIGEST_BUCKET, kmsKeyId: e.AUDIT_SIGNING_KEY_ID, localKey: e.AUDIT_SIGNING_KEY },
    pdfQueueUrl: e.PDF_QUEUE_URL,
    billingQueueUrl: e.BILLING_QUEUE_URL,
    payments: {
      gateway: e.PAYMENT_GATEWAY,
      webhookSecrets: e.RAZORPAY_WEBHOOK_SECRET ?? [],
      ...(e.RAZORPAY_KEY_ID && e.RAZORPAY_KEY_SECRET
        ? { razorpay: { keyId: e.RAZORPAY_KEY_ID, keySecret: e.RAZORPAY_KEY_SECRET, apiUrl: e.RAZORPAY_API_URL, timeoutMs: e.RAZORPAY_TIMEOUT_MS } }
        : {}),
    },
    channex: {
      propertySystem: e.PROPERTY_SYSTEM,
      inboundKeys: e.CHANNEX_INBOUND_API_KEY,
      queueUrl: e.CHANNEX_QUEUE_URL,
      baseUrl: e.CHANNEX_BASE_URL,
      apiKey: e.CHANNEX_API_KEY,
      providerCode: e.CHANNEX_PROVIDER_CODE,
      userApiKey: e.CHANNEX_USER_API_KEY,
      apiUrl: e.CHANNEX_API_URL,
    },
    irpSigningKey: e.IRP_SIGNING_KEY ?? Buffer.from(hkdfSync('sha256', e.SECRETS_KEY.current, Buffer.alloc(0), 'sandbox IRP signing key', 32)),
    irp: irpOf(e.IRP_PROVIDER, e.IRP_CREDENTIALS, isSandbox),
    guestRetentionDays: e.GUEST_RETENTION_DAYS,
  };
}

let cached: Config | undefined;

/** The process-wide configuration, read from the environment on first use. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

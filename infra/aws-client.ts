import type { Config } from './config.ts';

/**
 * The limits of work that is not a partner's request: the admin tool, the local stack's
 * set-up (table, queues, demo world) and every backfill or copy an operator runs. Such work
 * writes thousands of items and may meet a cold or throttled store; it waits out a slow
 * call (30 s) and a throttled one (8 attempts) instead of failing fast as a request must
 * (Config.aws, 1.5 s and 2 attempts by default). A call that may have been applied is still
 * never retried (RetryWhenNotSent); the operator's re-run is what repeats it, and every
 * such command is safe to re-run.
 */
export const OPERATOR_SDK_LIMITS: Config['aws'] = { connectTimeoutMs: 5_000, requestTimeoutMs: 30_000, maxAttempts: 8 };

/** How long a connection to a local emulator may stay idle before we close it (well under fauxqs's 5 s and DynamoDB Local's 30 s). */
const EMULATOR_IDLE_MS = 1_000;

/** The same configuration with the operator's SDK limits in place of the request path's. */
export const operatorConfig = <C extends Pick<Config, 'aws'>>(cfg: C): C => ({ ...cfg, aws: OPERATOR_SDK_LIMITS });

/**
 * The options every AWS SDK client of the service is built with (DynamoDB, SQS, and S3
 * when a feature needs it): emulator endpoint and credentials on local stages, and the
 * limits from `Config.aws`. Without a request timeout a stalled store holds a request
 * until the function timeout; with it, a call gives up after at most about
 * maxAttempts × requestTimeoutMs and the HTTP layer answers 503 (functions/http).
 */
export function awsClientOptions(cfg: Pick<Config, 'region' | 'aws'>, endpoint: string | undefined) {
  return {
    region: cfg.region,
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    retryStrategy: new RetryWhenNotSent(cfg.aws.maxAttempts),
    requestHandler: {
      connectionTimeout: cfg.aws.connectTimeoutMs,
      requestTimeout: cfg.aws.requestTimeoutMs,
      // Without this the SDK only logs a warning when requestTimeout passes and keeps waiting.
      throwOnRequestTimeout: true,
      // A local emulator closes idle connections (fauxqs after Node's 5 s), and a call that reuses
      // one as it closes fails with "socket hang up", which is never retried (it may have been
      // applied): a test once failed so. Against an emulator a connection is therefore dropped by
      // us after 1 s idle (the agent's `timeout` ends free sockets only), long before any emulator
      // drops it, and reused until then: a connection per call cost a TCP open and close on both
      // sides of every call, a fifth of the CPU of a DynamoDB-heavy test file.
      ...(endpoint ? { httpAgent: { keepAlive: true, timeout: EMULATOR_IDLE_MS } } : {}),
    },
  };
}

/** The AWS services the service calls, as `withService` names them. */
export type AwsService = 'DynamoDB' | 'SQS' | 'S3' | 'SES';

/**
 * Marks an error with the AWS service whose call failed (`$service`), so an operator tool can
 * say which store failed; a client adds it as an initialize middleware that rethrows.
 */
export function withService(err: unknown, service: AwsService): unknown {
  if (typeof err === 'object' && err !== null && !('$service' in err)) Object.defineProperty(err, '$service', { value: service, enumerable: false });
  return err;
}

/** An initialize middleware that marks whatever a client's call throws with the client's service. */
export const nameServiceOnError =
  (service: AwsService) =>
  <A, R>(next: (args: A) => Promise<R>) =>
  async (args: A): Promise<R> => {
    try {
      return await next(args);
    } catch (err) {
      throw withService(err, service);
    }
  };

/** The service `withService` marked an error with, if any. */
export const serviceOf = (err: unknown): string | undefined => (typeof err === 'object' && err !== null ? (err as { $service?: string }).$service : undefined);

const UNAVAILABLE_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'ThrottlingException',
  'Throttling',
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'KMSThrottlingException',
  // SESv2's throttle: the account's sending rate or daily quota was exceeded for now.
  'TooManyRequestsException',
]);

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET']);

/**
 * True when an error from an AWS SDK call means the service could not be reached or did
 * not cope (timeout, refused or dropped connection, throttling, a 5xx) after the client's
 * own retries: the request may succeed later, so the caller is told to retry, not that
 * it did something wrong. A condition failure, a validation error or a missing table is
 * not one of these: those stay real errors.
 */
export function isAwsUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: string; code?: string; cause?: unknown; $metadata?: { httpStatusCode?: number }; $fault?: string };
  if (e.name && UNAVAILABLE_NAMES.has(e.name)) return true;
  if (e.code && NETWORK_CODES.has(e.code)) return true;
  const status = e.$metadata?.httpStatusCode;
  if (e.$metadata && e.$fault === 'server' && (status === undefined || status >= 500)) return true;
  if (e.cause && e.cause !== err) return isAwsUnavailable(e.cause);
  return false;
}

/** The SDK's retry-strategy contract (@smithy/types RetryStrategyV2), restated so no transitive package is imported. */
interface RetryToken {
  getRetryCount(): number;
  getRetryDelay(): number;
}
interface RetryErrorInfo {
  readonly error?: unknown;
  readonly errorType: 'TRANSIENT' | 'SERVER_ERROR' | 'THROTTLING' | 'CLIENT_ERROR';
}

const BACKOFF_BASE_MS = 100;
const NOT_SENT = /did not establish a connection/;

/**
 * True when a failed call may nonetheless have been applied: it was sent and no answer came
 * (a request timeout, a connection reset or broken mid-request). Retrying such a call can
 * apply a conditional write twice (the retry then fails its own condition: a stored order
 * reported as a conflict, a rate token spent twice), so it is left to the caller, who gets
 * a 503 and retries the whole request under its own idempotency.
 */
export function mayHaveBeenApplied(err: unknown): boolean {
  const e = err as { name?: string; code?: string; message?: string } | null;
  if (!e) return false;
  if (e.name === 'TimeoutError') return !NOT_SENT.test(e.message ?? '');
  return e.code === 'ECONNRESET' || e.code === 'EPIPE' || /socket hang up/.test(e.message ?? '');
}

/**
 * Retries what certainly did not take effect (throttling, a 5xx answer, a refused
 * connection), up to `maxAttempts` in all with jittered exponential backoff; never a call
 * that may have been applied.
 */
export class RetryWhenNotSent {
  constructor(private readonly maxAttempts: number) {}

  async acquireInitialRetryToken(): Promise<RetryToken> {
    return token(0, 0);
  }

  async refreshRetryTokenForRetry(previous: RetryToken, info: RetryErrorInfo): Promise<RetryToken> {
    const next = previous.getRetryCount() + 1;
    if (next >= this.maxAttempts || info.errorType === 'CLIENT_ERROR' || mayHaveBeenApplied(info.error)) {
      throw info.error ?? new Error('not retried');
    }
    return token(next, Math.random() * BACKOFF_BASE_MS * 2 ** (next - 1));
  }

  recordSuccess(): void {}
}

const token = (count: number, delayMs: number): RetryToken => ({ getRetryCount: () => count, getRetryDelay: () => delayMs });

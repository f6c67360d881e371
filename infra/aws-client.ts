import type { Config } from './config.ts';

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
    },
  };
}

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

import type { Config } from './config.ts';

/**
 * The options every AWS SDK client of the service is built with (DynamoDB, SQS, and S3
 * when a feature needs it): emulator endpoint and credentials on local stages, and the
 * limits from `Config.aws`. Without a request timeout a stalled store holds a request
 * until the function timeout; with it, a call gives up after about
 * maxAttempts × requestTimeoutMs and the HTTP layer answers 503 (functions/http).
 */
export function awsClientOptions(cfg: Pick<Config, 'region' | 'aws'>, endpoint: string | undefined) {
  return {
    region: cfg.region,
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: cfg.aws.maxAttempts,
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

export {
  createPartnerClient,
  type CursorListPath,
  type CursorPath,
  type FeedPath,
  type Item,
  type ListInit,
  type Page,
  type PartnerClient,
  type PartnerClientOptions,
  type VerbClient,
} from './client.ts';
export {
  apiError,
  AuthenticationError,
  ConflictError,
  CreditDeniedError,
  NotFoundError,
  PartnerApiError,
  PartnerConnectionError,
  PartnerTimeoutError,
  PriceMovedError,
  RateLimitedError,
  ServiceUnavailableError,
  SoldOutError,
  ValidationError,
  type ErrorBody,
  type ErrorCode,
} from './errors.ts';
export type { Body, CallOptions, List } from './resources.ts';
export { backoffMs, DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, repeatable, retryAfterSeconds, type RetryPolicy } from './retry.ts';
export {
  CALLBACK_TOLERANCE_SECONDS,
  parseCallback,
  parseWebhook,
  SignatureError,
  verifyCallbackSignature,
  verifyWebhookSignature,
  type BookingCallback,
  type CatalogueWebhook,
} from './signatures.ts';
export { userAgent, VERSION } from './version.ts';
export type { components, operations, paths, webhooks } from './generated/openapi.ts';

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
} from './client.ts';
export { PartnerApiError, type ErrorBody } from './errors.ts';
export { DEFAULT_RETRY, retryAfterSeconds, type RetryPolicy } from './retry.ts';
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
export type { components, operations, paths, webhooks } from './generated/openapi.ts';

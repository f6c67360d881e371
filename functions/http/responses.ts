import { type DomainError, RateLimitedError, ServiceUnavailableError, ValidationError } from '../../domain/errors.ts';
import type { RateDecision } from '../../domain/rate-limit.ts';
import { reasonPhrase, STATUS_OF } from './error-status.ts';
import type { HttpResult, Reply, RequestState } from './types.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

export function rateHeaders(rate: RateDecision | undefined): Record<string, string> {
  if (!rate) return {};
  return {
    'X-RateLimit-Limit': String(rate.limit),
    'X-RateLimit-Remaining': String(rate.remaining),
    'X-RateLimit-Reset': String(rate.resetAt),
    ...(rate.allowed ? {} : { 'Retry-After': String(rate.retryAfter) }),
  };
}

export function jsonResult(state: RequestState, status: number, body: unknown, extra: Readonly<Record<string, string>> = {}): HttpResult {
  if (status === 204) return { statusCode: 204, headers: { 'X-Request-Id': state.requestId, ...rateHeaders(state.rate), ...extra } };
  return { ...jsonHead(state, status, extra), body: JSON.stringify(body) };
}

/** A JSON result's status and headers, for a body serialised elsewhere (compression.ts, gzipJsonArray). */
export function jsonHead(state: RequestState, status: number, extra: Readonly<Record<string, string>> = {}): Omit<HttpResult, 'body'> {
  return { statusCode: status, headers: { 'Content-Type': JSON_TYPE, 'X-Request-Id': state.requestId, ...rateHeaders(state.rate), ...extra } };
}

/**
 * A document instead of JSON. Text goes as written (and may be compressed on the way out);
 * bytes go base64-encoded, as API Gateway and Lambda carry binary bodies.
 */
export function documentResult(
  state: RequestState,
  status: number,
  contentType: string,
  content: string | Uint8Array,
  extra: Readonly<Record<string, string>> = {},
): HttpResult {
  const headers = { 'Content-Type': contentType, 'X-Request-Id': state.requestId, ...rateHeaders(state.rate), ...extra };
  if (typeof content === 'string') return { statusCode: status, headers, body: content };
  return { statusCode: status, headers, body: Buffer.from(content).toString('base64'), isBase64Encoded: true };
}

/**
 * The one reply for a document instead of JSON (the rendered reference, an invoice PDF):
 * status 200, the content with its type, and the route's own headers.
 */
export const documentReply = (contentType: string, content: string | Uint8Array, headers: Readonly<Record<string, string>> = {}): Reply => ({
  status: 200,
  body: null,
  headers,
  document: { contentType, content },
});

/** The one error body: status, error, message, path, timestamp, code, plus the refusal's own fields. */
export function errorBody(state: RequestState, status: number, code: string, message: string, details: Readonly<Record<string, unknown>> = {}) {
  return {
    status,
    error: reasonPhrase(status),
    message,
    path: state.path,
    timestamp: new Date().toISOString(),
    code,
    ...details,
  };
}

export function errorResult(state: RequestState, err: DomainError, extraHeaders: Readonly<Record<string, string>> = {}): HttpResult {
  const status = STATUS_OF[err.code];
  const details = err instanceof ValidationError ? { param: err.param } : err.details;
  const retryAfter = err instanceof RateLimitedError || err instanceof ServiceUnavailableError ? err.retryAfterSeconds : undefined;
  const headers = retryAfter === undefined ? extraHeaders : { 'Retry-After': String(retryAfter), ...extraHeaders };
  return jsonResult(state, status, errorBody(state, status, err.code, err.message, details), headers);
}

export function internalErrorResult(state: RequestState): HttpResult {
  return jsonResult(state, 500, errorBody(state, 500, 'INTERNAL_ERROR', 'Something went wrong on our side. Quote the X-Request-Id header if you contact us.'));
}

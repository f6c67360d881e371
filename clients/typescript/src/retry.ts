import { PartnerConnectionError, PartnerTimeoutError } from './errors.ts';

/** How the client sends a request again after no answer, a 429 or a 503. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  readonly maxRetries: number;
  /** A `Retry-After` longer than this is not waited for: the error goes to the caller at once. */
  readonly maxDelaySeconds: number;
  /** The first backoff's ceiling when the server names no delay; it doubles with each retry. */
  readonly baseDelayMs: number;
  /** No backoff is longer than this. */
  readonly maxBackoffMs: number;
  /** How to wait; tests pass one that records the delay instead of sleeping. */
  readonly sleep: (ms: number) => Promise<void>;
  /** Epoch milliseconds, to read a `Retry-After` given as an HTTP date. */
  readonly now: () => number;
  /** A number in [0, 1): the jitter. */
  readonly random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 2,
  maxDelaySeconds: 60,
  baseDelayMs: 500,
  maxBackoffMs: 8_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
  random: Math.random,
};

/** No answer within this is a PartnerTimeoutError (each attempt has its own). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Methods whose repetition changes nothing more than the first request did (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Whether a request may be sent again after an outcome the client cannot see (a dropped
 * connection, a timeout, a 503 whose write may have been partly applied): an idempotent method,
 * or a request carrying an `Idempotency-Key`, which the service answers from its first outcome.
 */
export const repeatable = (request: Request): boolean => IDEMPOTENT.has(request.method) || request.headers.has('idempotency-key');

/** Seconds to wait from a `Retry-After` value (delay-seconds or an HTTP date, RFC 9110 §10.2.3), or undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** Full jitter: a uniform wait up to `baseDelayMs × 2^retry`, capped, so many clients refused at once do not return at once. */
export const backoffMs = (retry: number, policy: RetryPolicy): number =>
  Math.floor(policy.random() * Math.min(policy.maxBackoffMs, policy.baseDelayMs * 2 ** retry));

/** The connection was refused: nothing reached the service, so any request may be sent again. */
const refused = (error: unknown): boolean => (error as { cause?: { code?: unknown } } | undefined)?.cause?.code === 'ECONNREFUSED';

/** What fetch threw, as the client's own error: a timeout, or no answer at all. */
export function connectionError(method: string, url: string, error: unknown, timeoutMs: number): Error {
  if (error instanceof PartnerConnectionError) return error;
  if ((error as { name?: unknown } | undefined)?.name === 'TimeoutError') return new PartnerTimeoutError(method, url, timeoutMs, error);
  return new PartnerConnectionError(method, url, error);
}

/**
 * A fetch that gives each attempt `timeoutMs` (0: none) and sends the request again, at most
 * `maxRetries` times:
 * - a `429` whatever the method: the service refuses it before anything runs;
 * - a refused connection whatever the method: nothing was sent;
 * - a `503`, a dropped connection or a timeout only when the request is `repeatable`;
 * after the `Retry-After` the answer names (not waited for when longer than `maxDelaySeconds`),
 * else after a jittered exponential backoff. The caller's own abort signal is never retried.
 */
export function retryingFetch(send: (request: Request) => Promise<Response>, policy: RetryPolicy, timeoutMs: number): (request: Request) => Promise<Response> {
  return async (request) => {
    const again = repeatable(request);
    for (let retry = 0; ; retry += 1) {
      const last = retry >= policy.maxRetries;
      const signal = timeoutMs > 0 ? AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) : request.signal;
      let response: Response;
      try {
        // A body can be read once: each attempt sends a copy and the original stays unread.
        response = await send(new Request(request.clone(), { signal }));
      } catch (error) {
        if (request.signal.aborted) throw error;
        if (last || !(again || refused(error))) throw connectionError(request.method, request.url, error, timeoutMs);
        await policy.sleep(backoffMs(retry, policy));
        continue;
      }
      if (last || !(response.status === 429 || (response.status === 503 && again))) return response;
      const after = retryAfterSeconds(response.headers.get('retry-after'), policy.now());
      if (after !== undefined && after > policy.maxDelaySeconds) return response;
      await response.body?.cancel();
      await policy.sleep(after === undefined ? backoffMs(retry, policy) : after * 1000);
    }
  };
}

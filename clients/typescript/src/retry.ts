/** How the client waits out a `429 RATE_LIMITED` or a `503 SERVICE_UNAVAILABLE`. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  readonly maxRetries: number;
  /** A `Retry-After` longer than this is not waited for: the error goes to the caller at once. */
  readonly maxDelaySeconds: number;
  /** How to wait; tests pass one that records the delay instead of sleeping. */
  readonly sleep: (ms: number) => Promise<void>;
  /** Epoch milliseconds, to read a `Retry-After` given as an HTTP date. */
  readonly now: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 2,
  maxDelaySeconds: 60,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
};

/**
 * The statuses the service asks to be retried, unchanged, after `Retry-After`: a 429 was refused
 * before anything ran, and a 503 is answered only when storage could not be reached, with the
 * instruction to send the same request again (same idempotency key where the route has one).
 */
const RETRIED = new Set([429, 503]);

/** Seconds to wait from a `Retry-After` value (delay-seconds or an HTTP date, RFC 9110 §10.2.3), or undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/**
 * A fetch that sends the request again after the server's `Retry-After` on 429 and 503, at most
 * `maxRetries` times, and never waits longer than `maxDelaySeconds` at once. An answer without
 * a readable `Retry-After` is returned as it is: the client does not guess a delay.
 */
export function retryingFetch(send: (request: Request) => Promise<Response>, policy: RetryPolicy): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let retries = 0; ; retries += 1) {
      // A body can be read once: each attempt sends a copy and the original stays unread.
      const response = await send(request.clone());
      if (!RETRIED.has(response.status) || retries >= policy.maxRetries) return response;
      const wait = retryAfterSeconds(response.headers.get('retry-after'), policy.now());
      if (wait === undefined || wait > policy.maxDelaySeconds) return response;
      await response.body?.cancel();
      await policy.sleep(wait * 1000);
    }
  };
}

import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkOutboundUrl, type GuardRefusal, type OutboundPolicy, type ResolvedAddress, type Resolver } from './outbound-guard.ts';

/** One POST to a partner's receiver (a booking callback or a catalogue webhook). */
export interface OutboundRequest {
  readonly url: string;
  readonly method: 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Bounds the whole exchange: resolution, connection, TLS, request and response status. */
  readonly timeoutMs: number;
}

/**
 * How an attempt ended, as data: callers apply their own retry rules (a booking
 * callback retries a 4xx, a catalogue webhook does not).
 */
export type AttemptOutcomeKind = 'success' | 'permanent' | 'retryable' | 'redirect' | 'blocked';

export interface AttemptOutcome {
  readonly outcome: AttemptOutcomeKind;
  readonly statusCode?: number;
  /** What went wrong, for the attempt record; absent on success. */
  readonly error?: string;
  /** Set when the guard refused the URL at send time. */
  readonly blockedReason?: GuardRefusal;
  readonly durationMs: number;
  /** The address the socket actually reached; always one the guard checked. */
  readonly connectedAddress?: string;
  /** The start of the response body, at most RESPONSE_BODY_LIMIT bytes, for the attempt record. */
  readonly responseBody?: string;
}

export interface SendOptions {
  readonly resolver?: Resolver;
}

/** Enough of a receiver's answer to show a partner what it said; the rest is discarded unread. */
export const RESPONSE_BODY_LIMIT = 4096;

/** Headers the sender owns: the pinned connection and the framing must not be overridden by a partner's static headers. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer']);

function classify(statusCode: number): AttemptOutcomeKind {
  if (statusCode >= 200 && statusCode < 300) return 'success';
  if (statusCode >= 300 && statusCode < 400) return 'redirect';
  if (statusCode >= 400 && statusCode < 500) return 'permanent';
  return 'retryable';
}

/**
 * A lookup that answers only with addresses the guard already checked. Node calls it in
 * place of DNS when it opens the socket, so the name is never resolved a second time and
 * a rebinding DNS server has no second answer to give; the request keeps the hostname,
 * so Host and TLS SNI and certificate verification still use it.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const first = addresses[0];
    if (!first) {
      callback(Object.assign(new Error('no vetted address'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) {
      const all: LookupAddress[] = addresses
        .filter((a) => !options.family || options.family === a.family)
        .map((a) => ({ address: a.address, family: a.family }));
      callback(null, all);
      return;
    }
    const match = addresses.find((a) => !options.family || options.family === a.family) ?? first;
    callback(null, match.address, match.family);
  };
}

function outgoingHeaders(headers: Readonly<Record<string, string>>, body: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!RESERVED_HEADERS.has(name.toLowerCase())) out[name] = value;
  }
  out['content-length'] = Buffer.byteLength(body);
  out.connection = 'close';
  return out;
}

function describeError(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return err.errors.map(describeError).join('; ');
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message}` : String(e.message ?? err);
}

/**
 * Sends one request through the outbound guard: resolves the host once, checks every
 * address, connects only to a checked address, never follows a redirect, and bounds the
 * whole exchange by `timeoutMs`. Never throws for network trouble; the outcome says what
 * happened.
 */
export async function sendGuarded(request: OutboundRequest, policy: OutboundPolicy, options: SendOptions = {}): Promise<AttemptOutcome> {
  // The global, not node:perf_hooks imported: it loads at the first send, not at every cold start.
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(), request.timeoutMs);
  const timedOut = new Promise<'timeout'>((resolve) => abort.signal.addEventListener('abort', () => resolve('timeout'), { once: true }));
  try {
    const guard = await Promise.race([checkOutboundUrl(request.url, policy, options.resolver), timedOut]);
    if (guard === 'timeout') return { outcome: 'retryable', error: `timeout after ${request.timeoutMs} ms (resolving)`, durationMs: elapsed() };
    if (!guard.ok) {
      // A name that does not resolve now may resolve later; every other refusal is a property of the URL.
      if (guard.reason === 'unresolvable') return { outcome: 'retryable', error: guard.message, durationMs: elapsed() };
      return { outcome: 'blocked', blockedReason: guard.reason, error: `URL refused by the outbound guard: ${guard.message}`, durationMs: elapsed() };
    }
    return await exchange(request, guard.url, guard.hostname, guard.addresses, abort.signal, elapsed);
  } finally {
    clearTimeout(deadline);
  }
}

function exchange(
  request: OutboundRequest,
  url: URL,
  hostname: string,
  addresses: readonly ResolvedAddress[],
  signal: AbortSignal,
  elapsed: () => number,
): Promise<AttemptOutcome> {
  return new Promise<AttemptOutcome>((resolve) => {
    let connectedAddress: string | undefined;
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs' | 'connectedAddress'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...outcome, durationMs: elapsed(), ...(connectedAddress === undefined ? {} : { connectedAddress }) });
    };

    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let req: ReturnType<typeof send>;
    try {
      req = send({
        protocol: url.protocol,
        hostname,
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: outgoingHeaders(request.headers, request.body),
        lookup: pinnedLookup(addresses),
        // A pooled socket could have been opened for another request; each attempt dials its own vetted address.
        agent: false,
        minVersion: 'TLSv1.2',
      });
    } catch (err) {
      // Node refuses to build a request with, say, a newline in a partner's static header; resending cannot fix that.
      finish({ outcome: 'permanent', error: `request not sent: ${describeError(err)}` });
      return;
    }

    const onAbort = () => {
      req.destroy();
      finish({ outcome: 'retryable', error: `timeout after ${request.timeoutMs} ms` });
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });

    req.on('socket', (socket) => {
      socket.on('connect', () => {
        connectedAddress = socket.remoteAddress;
      });
    });
    req.on('error', (err) => finish({ outcome: 'retryable', error: describeError(err) }));
    req.on('response', (res: IncomingMessage) => {
      const statusCode = res.statusCode ?? 0;
      const outcome = classify(statusCode);
      const location = res.headers.location;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const responseBody = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
        const error =
          outcome === 'success'
            ? undefined
            : outcome === 'redirect'
              ? `redirect ${statusCode}${location ? ` to ${location}` : ''} not followed`
              : `HTTP ${statusCode}`;
        finish({ outcome, statusCode, responseBody, ...(error === undefined ? {} : { error }) });
        req.destroy();
      };
      // Once the status is known the receiver has answered; a body that trickles past the deadline only loses its tail.
      signal.removeEventListener('abort', onAbort);
      signal.addEventListener('abort', done, { once: true });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_BODY_LIMIT) done();
      });
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });

    req.end(request.body);
  });
}

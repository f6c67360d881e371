import createClient, { type Client, type ClientPathsWithMethod } from 'openapi-fetch';
import { apiError } from './errors.ts';
import { connectionError, DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, retryingFetch, type RetryPolicy } from './retry.ts';
import { resources } from './resources.ts';
import { userAgent } from './version.ts';
import type { paths } from './generated/openapi.ts';

export interface PartnerClientOptions {
  /** The service's origin: `https://…` for a stage, `http://localhost:3000` for `npm start`. */
  readonly baseUrl: string;
  /** A partner key (opens `/api`) or an agent-group key (opens `/v1`). Sent as HTTP Basic with an empty password. */
  readonly apiKey: string;
  /**
   * Sending again after no answer, a 429 or a 503 (`Retry-After`, else a jittered backoff from 0.5 s);
   * defaults: 2 retries, no wait longer than 60 s. Which requests are sent again: `retryingFetch`.
   */
  readonly retry?: Partial<RetryPolicy>;
  /** Milliseconds each attempt may take, answer body included, before a PartnerTimeoutError; default 30,000; 0 for none. */
  readonly timeoutMs?: number;
  /** Your application, put before the client's own `User-Agent` (`my-app/2.1`): it lets the service's operators tell callers apart. */
  readonly userAgent?: string;
  /** The fetch to send with; defaults to the global one (Node 20+), which decompresses gzip. */
  readonly fetch?: (request: Request) => Promise<Response>;
}

type Result = { data?: unknown; error?: unknown; response: Response };

/** What a successful call resolves to: the 2xx body, typed from the OpenAPI document. */
type Data<R extends Result> = Exclude<R['data'], undefined>;

/**
 * The client speaks JSON: an operation that can also answer another media type (the statement
 * as CSV, with `Accept: text/csv`) still types its answer as the JSON body. Read the CSV with
 * `raw` and `parseAs: 'text'`.
 */
type Json = 'application/json';
type GetPath = ClientPathsWithMethod<Client<paths, Json>, 'get'>;
type GetOperation<P extends GetPath> = paths[P]['get'];
type QueryOf<P extends GetPath> = NonNullable<GetOperation<P>['parameters']['query']>;
type PageOf<P extends GetPath> = GetOperation<P> extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

type PageShape = { data: unknown[]; nextCursor: string | null };

/** Every GET whose answer is `{data, nextCursor}` and which takes `cursor` back. */
export type CursorPath = {
  [P in GetPath]: [PageOf<P>] extends [never] ? never : PageOf<P> extends PageShape ? (QueryOf<P> extends { cursor?: string } ? P : never) : never;
}[GetPath];
/** Cursor lists that end: `nextCursor` is null once nothing can follow. */
export type CursorListPath = { [P in CursorPath]: null extends Page<P>['nextCursor'] ? P : never }[CursorPath];
/** Feeds: `nextCursor` is always returned, to call again later for what was recorded since. */
export type FeedPath = Exclude<CursorPath, CursorListPath>;

/** One page's body of a cursor-paged GET. */
export type Page<P extends CursorPath> = PageOf<P> & PageShape;
/** One row of a cursor-paged GET. */
export type Item<P extends CursorPath> = PageOf<P> extends { data: (infer I)[] } ? I : never;

/** Path parameters when the route has some; the query without `cursor`, which the helpers send. */
export type ListInit<P extends CursorPath> = {
  readonly query?: Omit<QueryOf<P>, 'cursor'>;
  readonly headers?: Record<string, string>;
} & (GetOperation<P>['parameters']['path'] extends Record<string, unknown>
  ? { readonly path: GetOperation<P>['parameters']['path'] }
  : { readonly path?: never });

/**
 * The feeds: walking one stops at the first empty page (caught up); the last page's
 * `nextCursor` is where the next poll starts. The type check below fails to compile when the
 * OpenAPI document gains a feed this list does not name.
 */
const FEEDS = ['/api/changes'] as const satisfies readonly FeedPath[];
const EVERY_FEED_LISTED: [FeedPath] extends [(typeof FEEDS)[number]] ? true : never = true;
const isFeed = (path: string): boolean => EVERY_FEED_LISTED && (FEEDS as readonly string[]).includes(path);

/**
 * Turns an openapi-fetch method into one that resolves to the body or throws the PartnerApiError
 * subclass of the answer's code; its generics survive. A timeout while the body is read arrives
 * here rather than in the fetch, and becomes a PartnerTimeoutError the same way.
 */
function throwing<A extends unknown[], R extends Result>(
  method: string,
  timeoutMs: number,
  call: (...args: A) => Promise<R>,
): (...args: A) => Promise<Data<R>> {
  return async (...args) => {
    const result = await call(...args).catch((error: unknown) => {
      throw connectionError(method, String(args[0]), error, timeoutMs);
    });
    if (!result.response.ok) throw apiError(result.response, result.error);
    return result.data as Data<R>;
  };
}

/** `btoa` takes Latin-1 only: the key is encoded as UTF-8 bytes first, as HTTP Basic's charset=UTF-8 reads it (RFC 7617). */
const basic = (apiKey: string): string => `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${apiKey}:`)))}`;

/** The verbs, the cursor helpers and openapi-fetch itself: what the resource methods are built on. */
function verbClient(options: PartnerClientOptions) {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 0) throw new RangeError(`timeoutMs must be a whole number of milliseconds, 0 or more; got ${timeoutMs}`);
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const raw = createClient<paths, Json>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: basic(options.apiKey), 'Accept-Encoding': 'gzip', 'User-Agent': userAgent(options.userAgent) },
    fetch: retryingFetch(send, policy, timeoutMs),
  });
  const GET = throwing('GET', timeoutMs, raw.GET);
  const POST = throwing('POST', timeoutMs, raw.POST);
  const PATCH = throwing('PATCH', timeoutMs, raw.PATCH);
  const DELETE = throwing('DELETE', timeoutMs, raw.DELETE);

  /** Each page of a cursor-paged list in turn, following `nextCursor` (a feed stops at its first empty page). */
  async function* pages<P extends CursorPath>(path: P, init?: ListInit<P>): AsyncGenerator<Page<P>, void, undefined> {
    let cursor: string | undefined;
    for (;;) {
      const query = { ...(init?.query ?? {}), ...(cursor === undefined ? {} : { cursor }) };
      // The generic path defeats openapi-fetch's per-path inference; ListInit<P> has already checked the parameters.
      const page = (await GET(path as '/v1/bookings', { params: { query, path: init?.path }, headers: init?.headers } as never)) as unknown as Page<P>;
      yield page;
      const next = page.nextCursor as string | null;
      if (next === null || (isFeed(path) && page.data.length === 0)) return;
      cursor = next;
    }
  }

  /** Each row of a cursor-paged list that ends, across all its pages. */
  async function* each<P extends CursorListPath>(path: P, init?: ListInit<P>): AsyncGenerator<Item<P>, void, undefined> {
    for await (const page of pages(path, init)) yield* page.data as Item<P>[];
  }

  return {
    GET,
    POST,
    PUT: throwing('PUT', timeoutMs, raw.PUT),
    PATCH,
    DELETE,
    pages,
    each,
    /** openapi-fetch itself (`{data, error, response}`), for callers who read headers or want no throw. */
    raw,
  };
}

export type VerbClient = ReturnType<typeof verbClient>;

/**
 * The typed client: resource methods (`bookings.create`, `invoices.list().each()`, …) and, under
 * them, one method per HTTP verb, paths and bodies checked against the OpenAPI document at
 * compile time. Each call resolves to the 2xx body or throws the PartnerApiError of its code.
 */
export function createPartnerClient(options: PartnerClientOptions) {
  const verbs = verbClient(options);
  return { ...verbs, ...resources(verbs) };
}

export type PartnerClient = ReturnType<typeof createPartnerClient>;

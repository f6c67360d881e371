import createClient, { type Client, type ClientPathsWithMethod } from 'openapi-fetch';
import { PartnerApiError } from './errors.ts';
import { DEFAULT_RETRY, retryingFetch, type RetryPolicy } from './retry.ts';
import type { paths } from './generated/openapi.ts';

export interface PartnerClientOptions {
  /** The service's origin: `https://…` for a stage, `http://localhost:3000` for `npm start`. */
  readonly baseUrl: string;
  /** A partner key (opens `/api`) or an agent-group key (opens `/v1`). Sent as HTTP Basic with an empty password. */
  readonly apiKey: string;
  /** Waiting out 429 and 503 (`Retry-After`); defaults: 2 retries, none longer than 60 s. */
  readonly retry?: Partial<RetryPolicy>;
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

/** Turns an openapi-fetch method into one that resolves to the body or throws PartnerApiError; its generics survive. */
function throwing<A extends unknown[], R extends Result>(call: (...args: A) => Promise<R>): (...args: A) => Promise<Data<R>> {
  return async (...args) => {
    const result = await call(...args);
    if (!result.response.ok) throw new PartnerApiError(result.response, result.error);
    return result.data as Data<R>;
  };
}

const basic = (apiKey: string): string => `Basic ${Buffer.from(`${apiKey}:`, 'utf8').toString('base64')}`;

/**
 * The typed client: one method per HTTP verb, paths and bodies checked against the OpenAPI
 * document at compile time. Each call resolves to the 2xx body or throws PartnerApiError.
 */
export function createPartnerClient(options: PartnerClientOptions) {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const raw = createClient<paths, Json>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: basic(options.apiKey), 'Accept-Encoding': 'gzip' },
    fetch: retryingFetch(send, policy),
  });
  const GET = throwing(raw.GET);

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
    POST: throwing(raw.POST),
    PUT: throwing(raw.PUT),
    PATCH: throwing(raw.PATCH),
    DELETE: throwing(raw.DELETE),
    pages,
    each,
    /** openapi-fetch itself (`{data, error, response}`), for callers who read headers or want no throw. */
    raw,
  };
}

export type PartnerClient = ReturnType<typeof createPartnerClient>;

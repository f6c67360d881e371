import type { CursorListPath, Item, ListInit, Page, VerbClient } from './client.ts';
import type { paths } from './generated/openapi.ts';

type Method = 'post' | 'patch';
/** The JSON body an operation takes, from the OpenAPI document. */
export type Body<P extends keyof paths, M extends Method> =
  NonNullable<paths[P][M]> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** What every resource method also takes. */
export interface CallOptions {
  /**
   * Sent as `Idempotency-Key`: the service answers a repeat of the same key and body with the
   * first answer, and the client then also retries the request after no answer or a 503.
   */
  readonly idempotencyKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Cancels the call, retries included. */
  readonly signal?: AbortSignal;
}

const init = (options: CallOptions | undefined) => ({
  headers: { ...options?.headers, ...(options?.idempotencyKey === undefined ? {} : { 'Idempotency-Key': options.idempotencyKey }) },
  ...(options?.signal === undefined ? {} : { signal: options.signal }),
});

/** A list read a page at a time as you go: `for await (const row of list.each())`. */
export interface List<Row, P> extends AsyncIterable<Row> {
  /** Each page in turn. */
  pages(): AsyncGenerator<P, void, undefined>;
  /** Each row across all pages. */
  each(): AsyncGenerator<Row, void, undefined>;
}

function cursorList<P extends CursorListPath>(verbs: VerbClient, path: P, listInit?: ListInit<P>): List<Item<P>, Page<P>> {
  return {
    pages: () => verbs.pages(path, listInit),
    each: () => verbs.each(path, listInit),
    [Symbol.asyncIterator]: () => verbs.each(path, listInit),
  };
}

type PartnerListingsQuery = NonNullable<paths['/api/listings']['get']['parameters']['query']>;
type PartnerListingsPage = paths['/api/listings']['get']['responses'][200]['content']['application/json'];

/**
 * `/api/listings` pages by offset (`page`, `size`, `total`): from `query.page` (default 1) until
 * a page comes back empty or the pages read reach `total`.
 */
function offsetListings(verbs: VerbClient, query: PartnerListingsQuery = {}): List<PartnerListingsPage['data'][number], PartnerListingsPage> {
  async function* pages(): AsyncGenerator<PartnerListingsPage, void, undefined> {
    for (let page = query.page ?? 1; ; page += 1) {
      const answer = await verbs.GET('/api/listings', { params: { query: { ...query, page } } });
      yield answer;
      if (answer.data.length === 0 || page * answer.size >= answer.total) return;
    }
  }
  async function* each() {
    for await (const page of pages()) yield* page.data;
  }
  return { pages, each, [Symbol.asyncIterator]: each };
}

/** The resource methods: one per operation a partner's code calls, named for what it does. */
export function resources(verbs: VerbClient) {
  const { GET, POST, PATCH, DELETE } = verbs;
  return {
    /** `/v1/listings`: the group's catalogue and search. */
    listings: {
      list: (query?: ListInit<'/v1/listings'>['query']) => cursorList(verbs, '/v1/listings', { query }),
      get: (listingId: string) => GET('/v1/listings/{listingId}', { params: { path: { listingId } } }),
      search: (body: Body<'/v1/listings/search', 'post'>, options?: CallOptions) => POST('/v1/listings/search', { body, ...init(options) }),
    },
    /** `/v1/orders`: priced quotes; `preview` stores nothing, `create` keeps one for booking. */
    orders: {
      preview: (body: Body<'/v1/orders/preview', 'post'>, options?: CallOptions) => POST('/v1/orders/preview', { body, ...init(options) }),
      create: (body: Body<'/v1/orders', 'post'>, options?: CallOptions) => POST('/v1/orders', { body, ...init(options) }),
      get: (orderId: string) => GET('/v1/orders/{orderId}', { params: { path: { orderId } } }),
    },
    /** `/v1/bookings`: book on credit, read, amend (quote, then apply) and cancel. */
    bookings: {
      create: (body: Body<'/v1/bookings', 'post'>, options?: CallOptions) => POST('/v1/bookings', { body, ...init(options) }),
      get: (bookingId: string) => GET('/v1/bookings/{bookingId}', { params: { path: { bookingId } } }),
      list: (query?: ListInit<'/v1/bookings'>['query']) => cursorList(verbs, '/v1/bookings', { query }),
      quoteAmendment: (bookingId: string, body: Body<'/v1/bookings/{bookingId}', 'patch'>, options?: CallOptions) =>
        PATCH('/v1/bookings/{bookingId}', { params: { path: { bookingId } }, body, ...init(options) }),
      amend: (bookingId: string, body: Body<'/v1/bookings/{bookingId}/amendments', 'post'>, options?: CallOptions) =>
        POST('/v1/bookings/{bookingId}/amendments', { params: { path: { bookingId } }, body, ...init(options) }),
      cancellationQuote: (bookingId: string) => GET('/v1/bookings/{bookingId}/cancellation-quote', { params: { path: { bookingId } } }),
      cancel: (bookingId: string, body: Body<'/v1/bookings/{bookingId}/cancel', 'post'>, options?: CallOptions) =>
        POST('/v1/bookings/{bookingId}/cancel', { params: { path: { bookingId } }, body, ...init(options) }),
    },
    /** `/v1/invoices`: GST tax invoices; `create` is a billing run for a period. */
    invoices: {
      create: (body: Body<'/v1/invoices', 'post'>, options?: CallOptions) => POST('/v1/invoices', { body, ...init(options) }),
      get: (id: string) => GET('/v1/invoices/{id}', { params: { path: { id } } }),
      /** The invoice's PDF, as bytes. */
      pdf: (id: string) => GET('/v1/invoices/{id}/pdf', { params: { path: { id } }, parseAs: 'arrayBuffer' }),
      list: (query?: ListInit<'/v1/invoices'>['query']) => cursorList(verbs, '/v1/invoices', { query }),
    },
    /** `/v1/ledger`: every charge, adjustment, refund and payment of the group. */
    ledger: {
      list: (query?: ListInit<'/v1/ledger'>['query']) => cursorList(verbs, '/v1/ledger', { query }),
    },
    /** `/v1/test-clocks`: sandbox stages only (docs/sandbox.md). */
    testClocks: {
      create: (body: Body<'/v1/test-clocks', 'post'> = {}, options?: CallOptions) => POST('/v1/test-clocks', { body, ...init(options) }),
      advance: (id: string, body: Body<'/v1/test-clocks/{id}/advance', 'post'>, options?: CallOptions) =>
        POST('/v1/test-clocks/{id}/advance', { params: { path: { id } }, body, ...init(options) }),
      get: (id: string) => GET('/v1/test-clocks/{id}', { params: { path: { id } } }),
      list: () => GET('/v1/test-clocks'),
      delete: (id: string) => DELETE('/v1/test-clocks/{id}', { params: { path: { id } } }),
    },
    /** `/api`: what a partner key opens. */
    partner: {
      /** The channel's listings, offset-paged: `partner.listings.list({ size: 50 }).each()`. */
      listings: { list: (query?: PartnerListingsQuery) => offsetListings(verbs, query) },
      webhookEndpoints: {
        create: (body: Body<'/api/webhooks/endpoints', 'post'>, options?: CallOptions) => POST('/api/webhooks/endpoints', { body, ...init(options) }),
      },
    },
  };
}

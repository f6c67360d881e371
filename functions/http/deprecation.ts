import type { MiddlewareObj, Request } from '@middy/core';
import type { HttpContext, HttpEvent, HttpResult } from './types.ts';

/**
 * One deprecated part of a route's contract (docs/versioning.md). `since` is the day partners
 * were told (the CHANGELOG line); the part keeps working until `sunset`, at least
 * DEPRECATION_WINDOW_MONTHS later, and is removed only after it.
 */
export interface Deprecation {
  /** The whole route, a query parameter, a top-level field of the request body, or a field of the response (dotted for nested objects). */
  readonly what: { readonly route: true } | { readonly query: string } | { readonly body: string } | { readonly response: string };
  /** YYYY-MM-DD (UTC): announced. */
  readonly since: string;
  /** YYYY-MM-DD (UTC): the first day it may stop working. */
  readonly sunset: string;
  /** What to use instead, for the reference and the changelog. */
  readonly instead: string;
}

/** How long a deprecated route, parameter or field keeps working after it is announced. */
export const DEPRECATION_WINDOW_MONTHS = 12;

/** Where the headers' `Link` points: the rendered reference's section on versioning. */
export const DEPRECATION_DOCS = '/docs#section/Versioning-and-deprecations';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Refuses a deprecation whose dates are not days or whose sunset comes before the promised window ends. */
export function checkDeprecation(d: Deprecation): void {
  if (!DAY.test(d.since) || !DAY.test(d.sunset)) throw new RangeError(`deprecation dates must be YYYY-MM-DD: ${d.since}, ${d.sunset}`);
  const earliest = new Date(`${d.since}T00:00:00Z`);
  earliest.setUTCMonth(earliest.getUTCMonth() + DEPRECATION_WINDOW_MONTHS);
  if (new Date(`${d.sunset}T00:00:00Z`) < earliest) {
    throw new RangeError(
      `sunset ${d.sunset} is less than ${DEPRECATION_WINDOW_MONTHS} months after ${d.since}: deprecated parts keep working for ${DEPRECATION_WINDOW_MONTHS} months`,
    );
  }
}

/** A short sentence for the reference and the changelog. */
export const deprecationNote = (d: Deprecation): string =>
  `Deprecated since ${d.since}; works until ${d.sunset} (the Sunset date), then may be removed. ${d.instead}`;

const hasPath = (value: unknown, dotted: string): boolean => {
  let at: unknown = value;
  for (const key of dotted.split('.')) {
    if (typeof at !== 'object' || at === null || !(key in at)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
};

/** The deprecations a request meets: the route and response fields always, a parameter or body field only when the request sent it. */
export function deprecationsMet(
  list: readonly Deprecation[],
  request: { readonly query?: Record<string, unknown> | null; readonly body?: unknown },
): Deprecation[] {
  return list.filter((d) => {
    if ('query' in d.what) return request.query?.[d.what.query] !== undefined;
    if ('body' in d.what) return hasPath(request.body, d.what.body);
    return true;
  });
}

const httpDate = (day: string): string => new Date(`${day}T00:00:00Z`).toUTCString();

/**
 * `Deprecation` (RFC 9745: a structured-field date, `@<unix seconds>`), `Sunset` (RFC 8594: an
 * HTTP date) and a `Link` to the policy. With several deprecations met, the earliest of each
 * date is the one that matters to the caller.
 */
export function deprecationHeaders(met: readonly Deprecation[]): Record<string, string> {
  if (met.length === 0) return {};
  const since = met.map((d) => d.since).sort()[0]!;
  const sunset = met.map((d) => d.sunset).sort()[0]!;
  return {
    Deprecation: `@${Date.parse(`${since}T00:00:00Z`) / 1000}`,
    Sunset: httpDate(sunset),
    Link: `<${DEPRECATION_DOCS}>; rel="deprecation"; type="text/html"`,
  };
}

/**
 * Adds the deprecation headers to every answer of a route with deprecated parts, errors
 * included (a caller of a deprecated route learns it from a 400 too). Used outside the error
 * responder, so its onError sees the error answer already made.
 */
export function deprecationNotice(list: readonly Deprecation[]): MiddlewareObj<HttpEvent, HttpResult, Error, HttpContext> {
  for (const d of list) checkDeprecation(d);
  const addHeaders = (request: Request<HttpEvent, HttpResult, Error, HttpContext>) => {
    if (!request.response) return;
    const headers = deprecationHeaders(deprecationsMet(list, { query: request.event.queryStringParameters, body: request.event.body }));
    request.response = { ...request.response, headers: { ...request.response.headers, ...headers } };
  };
  return { after: addHeaders, onError: addHeaders };
}

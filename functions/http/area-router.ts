import type { RouteSpec } from './route.ts';
import type { HttpContext, HttpEvent, HttpResult } from './types.ts';

export type HttpHandler = (event: HttpEvent, context: HttpContext) => Promise<HttpResult>;

/** An endpoint (functions/http/endpoint.ts): a handler that carries the route it serves. */
export type RoutedHandler = HttpHandler & { readonly route: Pick<RouteSpec, 'method' | 'path' | 'gatewayPath'> };

/** The key API Gateway routes a request by, and puts in the event's `routeKey`: `POST /v1/bookings/{bookingId}/cancel`. */
export const routeKeyOf = (route: RoutedHandler['route']): string => `${route.method} ${route.gatewayPath ?? route.path}`;

/**
 * One Lambda function serves an area's routes (docs/decisions.md "One function per area"):
 * API Gateway invokes it with the matched route's key, and this picks the endpoint that
 * serves that key. The keys come from the endpoints' own route specs, so a route is added by
 * listing its handler in its area; `extra` names handlers without a single spec (the `$default`
 * fallback, Channex's greedy routes). A key the area does not serve (a function wired to a
 * route it does not list) is answered by `unrouted`, the fallback's 404/405.
 */
export function areaRouter(
  endpoints: readonly RoutedHandler[],
  unrouted: HttpHandler,
  extra: Readonly<Record<string, HttpHandler>> = {},
): HttpHandler & { readonly routeKeys: readonly string[] } {
  const byKey = new Map<string, HttpHandler>();
  const add = (key: string, handler: HttpHandler) => {
    if (byKey.has(key)) throw new Error(`route key ${key} is served twice in one area`);
    byKey.set(key, handler);
  };
  for (const endpoint of endpoints) add(routeKeyOf(endpoint.route), endpoint);
  for (const [key, handler] of Object.entries(extra)) add(key, handler);
  const router: HttpHandler = (event, context) => (byKey.get(event.routeKey) ?? unrouted)(event, context);
  return Object.assign(router, { routeKeys: [...byKey.keys()] });
}

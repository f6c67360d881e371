import type { RouteSpec, RouteTableRow } from '../functions/http/route.ts';

/**
 * The `$default` fallback's table of every route (functions/system/route-table.json): method,
 * path and whether only sandbox stages serve it, generated from functions/registry.ts by `npm
 * run openapi`. The fallback answers 405 with Allow from it; reading the registry itself would
 * put every operation's request contract into each area's bundle (docs/performance.md).
 * A unit test (test/unit/areas.test.ts) fails when the checked-in file is stale.
 */
export const ROUTE_TABLE_FILE = new URL('../functions/system/route-table.json', import.meta.url);

/** The file's text: one route per line, in the registry's order. */
export function routeTable(routes: readonly Pick<RouteSpec, 'method' | 'path' | 'sandboxOnly'>[]): string {
  const rows = routes.map((r): RouteTableRow => ({ method: r.method, path: r.path, sandboxOnly: r.sandboxOnly === true }));
  return `[\n${rows.map((r) => `  ${JSON.stringify(r)}`).join(',\n')}\n]\n`;
}

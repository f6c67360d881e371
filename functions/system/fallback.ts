import middy from '@middy/core';
import { DomainError } from '../../domain/errors.ts';
import type { Surface } from '../../domain/principal.ts';
import { withinBudget } from '../http/budget.ts';
import { basicAuth } from '../http/middleware/basic-auth.ts';
import { errorResponder } from '../http/middleware/error-responder.ts';
import { requestContext } from '../http/middleware/request-context.ts';
import { pathMatcher, type RouteSpec, type RouteTableRow } from '../http/route.ts';
import { errorResult } from '../http/responses.ts';
import type { HttpContext, HttpEvent, HttpResult } from '../http/types.ts';
import { routeNotFound } from '../http/route-not-found.ts';
import { services } from '../../infra/compose/core.ts';
import routeTable from './route-table.json' with { type: 'json' };

/** Every route's method and path, generated from the route registry by `npm run openapi` (scripts/route-table.ts). */
const ROUTE_TABLE = routeTable as readonly RouteTableRow[];

interface Matcher {
  readonly method: RouteSpec['method'];
  readonly regex: RegExp;
  readonly sandboxOnly: boolean;
}

let matchers: readonly Matcher[] | undefined;

/** Methods the service serves on this concrete path (empty: the path is unknown). */
export function allowedMethods(path: string): string[] {
  matchers ??= ROUTE_TABLE.map((r) => ({ method: r.method, regex: pathMatcher(r.path), sandboxOnly: r.sandboxOnly }));
  // Off sandbox stages the sandbox-only routes do not exist, for a wrong method either.
  const sandbox = services().config.isSandbox;
  return [...new Set(matchers.filter((m) => (sandbox || !m.sandboxOnly) && m.regex.test(path)).map((m) => m.method))].sort();
}

const surfaceOf = (path: string): Surface | undefined =>
  path === '/api' || path.startsWith('/api/') ? 'api' : path === '/v1' || path.startsWith('/v1/') ? 'v1' : undefined;

const authenticateBySurface = {
  api: basicAuth('api'),
  v1: basicAuth('v1'),
};

/**
 * API Gateway's $default route: everything no route matched. Under /api and /v1 the key is
 * checked first (an unknown path is still an authenticated, rate-limited request), then
 * the answer is 405 with Allow when the path exists under another method, else 404
 * ROUTE_NOT_FOUND: no operation has this shape of path, which a caller must tell apart from
 * NOT_FOUND (the operation exists, the resource it names does not, or is another tenant's).
 */
const stack = middy<HttpEvent, HttpResult, Error, HttpContext>({ timeoutEarlyInMillis: 0 })
  .use(requestContext())
  .use(errorResponder())
  .use({
    before: async (request) => {
      const surface = surfaceOf(request.event.rawPath);
      if (surface) await authenticateBySurface[surface].before!(request as never);
    },
  })
  .handler(async (event, context) => {
    const allow = allowedMethods(event.rawPath);
    if (allow.length > 0) {
      const method = context.state.method;
      return errorResult(context.state, new DomainError('METHOD_NOT_ALLOWED', `${method} is not supported on this path; use ${allow.join(', ')}.`), {
        Allow: allow.join(', '),
      });
    }
    return errorResult(context.state, routeNotFound());
  });

export const handler = withinBudget(stack);

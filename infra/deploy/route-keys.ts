/**
 * API Gateway HTTP API route keys, and the rules a deploy enforces on them (docs/deploy.md,
 * "Route keys"):
 * - "For HTTP APIs, the route key can be either `$default`, or a combination of an HTTP method
 *   and resource path, for example, `GET /pets`" (API Gateway v2 API reference, Route, routeKey);
 *   the method is one of the HTTP methods or `ANY` ("Create routes for HTTP APIs").
 * - "The greedy path variable must be at the end of the resource path" ("Create routes for
 *   HTTP APIs", Working with path variables).
 * - A path starts with `/` and does not end with `/` (AWS CDK's HttpRouteKey refuses it with
 *   'A route path must always start with a "/" and not end with a "/"'; CloudFormation refuses
 *   such a route at deploy, which serverless-offline never shows: it ignores the slash).
 * - A variable is a whole segment, `{name}` or `{name+}`; no segment is empty.
 */
export const ROUTE_KEY_METHODS = ['ANY', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** What is wrong with a route key, or undefined when API Gateway accepts it. */
export function routeKeyProblem(key: string): string | undefined {
  if (key === '$default') return undefined;
  const m = /^(\S+) (\S+)$/.exec(key);
  if (!m) return `'${key}' is neither $default nor "<METHOD> <path>"`;
  const [, method, path] = m as unknown as [string, string, string];
  if (!(ROUTE_KEY_METHODS as readonly string[]).includes(method))
    return `'${key}': ${method} is not an HTTP method API Gateway routes (${ROUTE_KEY_METHODS.join(', ')})`;
  if (!path.startsWith('/')) return `'${key}': the path must start with "/"`;
  if (path === '/') return undefined;
  if (path.endsWith('/')) return `'${key}': the path must not end with "/" (API Gateway refuses the route; route the slash form through a greedy variable)`;
  const segments = path.slice(1).split('/');
  for (const [i, segment] of segments.entries()) {
    if (segment === '') return `'${key}': the path has an empty segment`;
    const variable = /^\{([A-Za-z0-9_.-]+)(\+?)\}$/.exec(segment);
    if (!variable && /[{}]/.test(segment)) return `'${key}': a path variable must be a whole segment, {name} or {name+}`;
    if (variable?.[2] === '+' && i !== segments.length - 1) return `'${key}': the greedy path variable must be at the end of the path`;
  }
  return undefined;
}

/** The route keys serverless.yml's `httpApi` events become (`'*'` is `$default`), as the Framework writes them. */
export function routeKeysOfFunctions(functions: Record<string, { events?: { httpApi?: unknown }[] }>): string[] {
  return Object.values(functions)
    .flatMap((fn) => fn.events ?? [])
    .map((e) => e.httpApi)
    .filter((h) => h !== undefined)
    .map((h) => {
      if (h === '*') return '$default';
      if (typeof h === 'string') return h;
      const { method, path } = h as { method: string; path: string };
      return method === '*' ? `ANY ${path}` : `${method.toUpperCase()} ${path}`;
    });
}

/** The RouteKey of every AWS::ApiGatewayV2::Route of a packaged CloudFormation template. */
export function routeKeysOfTemplate(template: { Resources?: Record<string, { Type?: string; Properties?: { RouteKey?: unknown } }> }): string[] {
  return Object.values(template.Resources ?? {})
    .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
    .map((r) => String(r.Properties?.RouteKey));
}

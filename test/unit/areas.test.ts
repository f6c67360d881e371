import { describe, expect, it } from 'vitest';
import { areaRouter, routeKeyOf, type HttpHandler, type RoutedHandler } from '../../functions/http/area-router.ts';
import type { HttpContext, HttpEvent, HttpResult } from '../../functions/http/types.ts';
import { ROUTES } from '../../functions/registry.ts';
import { readFileSync } from 'node:fs';
import { FUNCTIONS_FILE } from '../../scripts/functions-yaml.ts';
import { HTTP_EVENTS_FILE, httpEvents } from '../../scripts/http-events.ts';
import { ROUTE_TABLE_FILE, routeTable } from '../../scripts/route-table.ts';
import { serverlessYaml } from '../support/serverless-yaml.ts';

type HttpApiEvent = { httpApi?: '*' | { method: string; path: string } };

/** serverless.yml's HTTP functions: name → handler and the route keys API Gateway sends it. */
function httpFunctions(): { name: string; handler: string; keys: string[] }[] {
  return Object.entries(serverlessYaml().functions as Record<string, { handler: string; events?: HttpApiEvent[] }>)
    .map(([name, fn]) => ({
      name,
      handler: fn.handler,
      keys: (fn.events ?? []).flatMap(({ httpApi }) => (httpApi === undefined ? [] : [httpApi === '*' ? '$default' : `${httpApi.method} ${httpApi.path}`])),
    }))
    .filter((f) => f.keys.length > 0);
}

const answer =
  (body: string): HttpHandler =>
  async () => ({ statusCode: 200, headers: {}, body });
const routed = (method: 'GET' | 'POST', path: string, gatewayPath?: string): RoutedHandler =>
  Object.assign(answer(`${method} ${path}`), { route: { method, path, gatewayPath } });
const call = (h: HttpHandler, routeKey: string) => h({ routeKey } as HttpEvent, {} as HttpContext) as Promise<HttpResult>;

describe('one function per area (functions/areas)', () => {
  it('routes a request to the endpoint whose route key API Gateway matched, and any other key to the fallback', async () => {
    const router = areaRouter([routed('GET', '/v1/a/{id}'), routed('POST', '/c/x/', '/c/{proxy+}')], answer('fallback'), { $default: answer('default') });

    expect((await call(router, 'GET /v1/a/{id}')).body).toBe('GET /v1/a/{id}');
    expect((await call(router, 'POST /c/{proxy+}')).body).toBe('POST /c/x/');
    expect((await call(router, '$default')).body).toBe('default');
    expect((await call(router, 'GET /v1/b')).body).toBe('fallback');
    expect(router.routeKeys).toEqual(['GET /v1/a/{id}', 'POST /c/{proxy+}', '$default']);
  });

  it('refuses an area that would serve one route key twice', () => {
    expect(() => areaRouter([routed('GET', '/a'), routed('GET', '/a')], answer('fallback'))).toThrow('GET /a is served twice');
  });

  it('serves exactly the route keys serverless.yml sends each HTTP function, and only from functions/areas', async () => {
    const fns = httpFunctions();
    expect(fns.length).toBeGreaterThan(5);
    for (const fn of fns) {
      expect(fn.handler, fn.name).toMatch(/^functions\/areas\/[a-z-]+\.handler$/);
      const mod = (await import(/* @vite-ignore */ new URL(`../../${fn.handler.replace(/\.handler$/, '.ts')}`, import.meta.url).href)) as {
        handler: { routeKeys: string[] };
      };
      expect([...mod.handler.routeKeys].sort(), fn.name).toEqual([...fn.keys].sort());
    }
  });

  it('serves every route of the registry in exactly one function', () => {
    const servedBy = new Map<string, string[]>();
    for (const fn of httpFunctions()) for (const key of fn.keys) servedBy.set(key, [...(servedBy.get(key) ?? []), fn.name]);

    const unserved = ROUTES.map(routeKeyOf).filter((key) => (servedBy.get(key) ?? []).length !== 1);

    expect(unserved).toEqual([]);
    expect(servedBy.get('$default')).toHaveLength(1);
  });

  it("takes every area function's HTTP events from infra/deploy/http-events.yml, generated from the routers and current (`npm run openapi`)", async () => {
    const fns = Object.entries(serverlessYaml().functions as Record<string, { handler: string }>).filter(([, fn]) => fn.handler.startsWith('functions/areas/'));
    const raw = readFileSync(FUNCTIONS_FILE, 'utf8');

    for (const [name] of fns) expect(raw, name).toContain(`events: \${file(./infra/deploy/http-events.yml):${name}}`);
    expect(readFileSync(HTTP_EVENTS_FILE, 'utf8')).toBe(await httpEvents());
  });

  it("gives the `$default` fallback every route's method and path in functions/system/route-table.json, current with the registry (`npm run openapi`)", () => {
    expect(readFileSync(ROUTE_TABLE_FILE, 'utf8')).toBe(routeTable(ROUTES));
  });
});

import type { buildOpenApi } from './build.ts';

type OpenApiDocument = ReturnType<typeof buildOpenApi>;

let built: Promise<OpenApiDocument> | undefined;

/**
 * The OpenAPI document, built from the route registry at the first call and kept. The registry
 * (every operation's valibot schemas) and the builder are imported here, at that call, not at
 * module load: /openapi.json, /docs and the Postman collection only need them once a request
 * asks, and loading them at start made those handlers' cold starts the slowest
 * (docs/performance.md). A failed build is tried again by the next call, not kept.
 */
export function openApiDocument(): Promise<OpenApiDocument> {
  if (!built) {
    built = Promise.all([import('./build.ts'), import('../registry.ts')]).then(([{ buildOpenApi }, { ROUTES }]) => buildOpenApi(ROUTES));
    built.catch(() => {
      built = undefined;
    });
  }
  return built;
}

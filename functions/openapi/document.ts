import type { buildOpenApi } from './build.ts';

type OpenApiDocument = ReturnType<typeof buildOpenApi>;

/**
 * A document built from the route registry at the first call and kept. The registry (every
 * operation's valibot schemas) and the builder are imported here, at that call, not at module
 * load: /openapi.json, /openapi.partner.json, /docs and the Postman collection only need them
 * once a request asks, and loading them at start made those handlers' cold starts the slowest
 * (docs/performance.md). A failed build is tried again by the next call, not kept.
 */
function builtOnce(partnersOnly: boolean): () => Promise<OpenApiDocument> {
  let built: Promise<OpenApiDocument> | undefined;
  return () => {
    if (!built) {
      built = Promise.all([import('./build.ts'), import('../registry.ts')]).then(([{ buildOpenApi, partnerRoutes }, { ROUTES }]) =>
        buildOpenApi(partnersOnly ? partnerRoutes(ROUTES) : ROUTES),
      );
      built.catch(() => {
        built = undefined;
      });
    }
    return built;
  };
}

/** The whole reference: the partner API and the operators' endpoints (docs/openapi.json). */
export const openApiDocument = builtOnce(false);

/** The partner API alone, without the operators' endpoints (docs/openapi.partner.json). */
export const partnerOpenApiDocument = builtOnce(true);

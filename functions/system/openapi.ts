import { endpoint } from '../http/endpoint.ts';
import { openApiRoute } from '../contracts/system.ts';

let document: Promise<unknown> | undefined;

/**
 * The route registry (every operation's valibot schemas) and the document builder load at the
 * first request, as /docs does: built at module load they made this the slowest cold start of
 * the HTTP handlers (docs/performance.md).
 */
async function buildDocument(): Promise<unknown> {
  const [{ buildOpenApi }, { ROUTES }] = await Promise.all([import('../openapi/build.ts'), import('../registry.ts')]);
  return buildOpenApi(ROUTES);
}

export const handler = endpoint(openApiRoute, async () => {
  document ??= buildDocument();
  return { status: 200, body: await document };
});

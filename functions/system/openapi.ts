import { endpoint } from '../http/endpoint.ts';
import { openApiRoute } from '../contracts/system.ts';
import { buildOpenApi } from '../openapi/build.ts';
import { ROUTES } from '../registry.ts';

let document: unknown;

export const handler = endpoint(openApiRoute, async () => {
  document ??= buildOpenApi(ROUTES);
  return { status: 200, body: document };
});

import redocSource from 'redoc/bundles/redoc.standalone.js';
import { docsRoute } from '../contracts/system.ts';
import { endpoint } from '../http/endpoint.ts';
import { documentReply } from '../http/responses.ts';
import { buildOpenApi } from '../openapi/build.ts';
import { ROUTES } from '../registry.ts';
import { DOCS_CSP, docsPage } from './docs-page.ts';

let page: string | undefined;

export const handler = endpoint(docsRoute, async () => {
  page ??= docsPage(buildOpenApi(ROUTES), redocSource);
  return documentReply('text/html; charset=utf-8', page, { 'Content-Security-Policy': DOCS_CSP, 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' });
});

import { readFile } from 'node:fs/promises';
// Renamed: the bundle's banner declares `createRequire` itself (serverless.yml custom.esbuild.banner).
import { createRequire as moduleRequire } from 'node:module';
import { docsRoute } from '../contracts/system.ts';
import { endpoint } from '../http/endpoint.ts';
import { documentReply } from '../http/responses.ts';
import { openApiDocument } from '../openapi/document.ts';
import { DOCS_CSP, docsPage, REDOC_BUNDLE } from './docs-page.ts';

/**
 * Redoc's standalone bundle (1 MB of JavaScript) is a file of the function's artifact
 * (serverless.yml `package.patterns`), read with the OpenAPI document at the first request and
 * kept: as a string in the bundle it was parsed at every cold start (docs/performance.md).
 */
async function renderPage(): Promise<string> {
  const [redocSource, document] = await Promise.all([readFile(moduleRequire(import.meta.url).resolve(REDOC_BUNDLE), 'utf8'), openApiDocument()]);
  return docsPage(document, redocSource);
}

let page: Promise<string> | undefined;

export const handler = endpoint(docsRoute, async () => {
  if (!page) {
    page = renderPage();
    // A failed read is tried again by the next request, not kept.
    page.catch(() => {
      page = undefined;
    });
  }
  return documentReply('text/html; charset=utf-8', await page, {
    'Content-Security-Policy': DOCS_CSP,
    'Cache-Control': 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
  });
});

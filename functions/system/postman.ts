import { postmanCollectionRoute, postmanEnvironmentRoute } from '../contracts/system.ts';
import { endpoint } from '../http/endpoint.ts';
import { partnerOpenApiDocument } from '../openapi/document.ts';
import { buildPostmanCollection, buildPostmanEnvironment, SANDBOX_DEMO_KEYS } from '../openapi/postman.ts';
import type { HttpEvent } from '../http/types.ts';

let collection: string | undefined;

const HEADERS = { 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff', 'Content-Disposition': 'attachment' } as const;

/** The origin the caller reached: a loopback host is plain http (serverless offline), anything else https (API Gateway). */
function originOf(event: HttpEvent): string {
  const host = event.headers?.host ?? 'localhost:3000';
  return `${/^(localhost|127\.0\.0\.1)(:\d+)?$/.test(host) ? 'http' : 'https'}://${host}`;
}

export const collectionHandler = endpoint(postmanCollectionRoute, async () => {
  // The partner document (and with it the route registry) loads at the collection's first request: the
  // environment handler, which shares this module, never needs it (docs/performance.md).
  collection ??= JSON.stringify(buildPostmanCollection(await partnerOpenApiDocument()), null, 2);
  return { status: 200, body: null, document: { contentType: 'application/json', content: collection }, headers: HEADERS };
});

export const environmentHandler = endpoint(postmanEnvironmentRoute, async ({ services, event }) => {
  const sandbox = services.config.isSandbox;
  const environment = buildPostmanEnvironment(
    sandbox ? 'Partner Distribution sandbox' : 'Partner Distribution',
    sandbox ? SANDBOX_DEMO_KEYS : { partnerKey: '', agentGroupKey: '' },
    originOf(event),
  );
  return { status: 200, body: null, document: { contentType: 'application/json', content: JSON.stringify(environment, null, 2) }, headers: HEADERS };
});

import { buildPostmanCollection, buildPostmanEnvironment, SANDBOX_DEMO_KEYS } from '../functions/openapi/postman.ts';

/** The collection and the local sandbox environment as checked in: what `npm start` serves at /docs/postman-*.json. */
export const POSTMAN_FILES = {
  collection: new URL('../docs/postman/partner-distribution.postman_collection.json', import.meta.url),
  environment: new URL('../docs/postman/local-sandbox.postman_environment.json', import.meta.url),
};

export function postmanFiles(document: Record<string, unknown>): { collection: string; environment: string } {
  return {
    collection: `${JSON.stringify(buildPostmanCollection(document), null, 2)}\n`,
    environment: `${JSON.stringify(buildPostmanEnvironment('Partner Distribution sandbox', SANDBOX_DEMO_KEYS), null, 2)}\n`,
  };
}

import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/** Where `npm run openapi` writes the typed client's generated types. */
export const CLIENT_TYPES_FILE = new URL('../clients/typescript/src/generated/openapi.ts', import.meta.url);

/**
 * The TypeScript types of the OpenAPI document, as openapi-typescript prints them: the typed
 * client (clients/typescript) is built on these and nothing hand-written, so a route whose
 * contract changes changes the client's types when `npm run openapi` is run.
 */
export async function clientTypes(document: Record<string, unknown>): Promise<string> {
  // A parsed object, not a file: the same bytes whichever directory the command runs in.
  const ast = await openapiTS(document as unknown as OpenAPI3, { exportType: false, alphabetize: false, silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

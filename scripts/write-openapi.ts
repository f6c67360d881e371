import { writeFileSync } from 'node:fs';
import { buildOpenApi, partnerRoutes } from '../functions/openapi/build.ts';
import { ROUTES } from '../functions/registry.ts';
import { CLIENT_TYPES_FILE, clientTypes } from './client-types.ts';
import { FUNCTIONS_FILE, functionsYaml } from './functions-yaml.ts';
import { HTTP_EVENTS_FILE, httpEvents } from './http-events.ts';
import { POSTMAN_FILES, postmanFiles } from './postman-files.ts';
import { ROUTE_TABLE_FILE, routeTable } from './route-table.ts';

/**
 * Writes everything generated from the route table: docs/openapi.json and the partners' docs/openapi.partner.json, the typed client's
 * types (clients/typescript/src/generated), the Postman collection and environment (docs/postman), the
 * area functions' HTTP events (infra/deploy/http-events.yml) and the fallback's route table (functions/system/route-table.json). Tests fail when any of them is stale, so this is
 * the one command to run after changing a route contract.
 */
const document = buildOpenApi(ROUTES);
writeFileSync(new URL('../docs/openapi.json', import.meta.url), `${JSON.stringify(document, null, 2)}\n`);
console.log(`docs/openapi.json: ${ROUTES.length} operations`);
const partners = partnerRoutes(ROUTES);
const partnerDocument = buildOpenApi(partners);
writeFileSync(new URL('../docs/openapi.partner.json', import.meta.url), `${JSON.stringify(partnerDocument, null, 2)}\n`);
console.log(`docs/openapi.partner.json: ${partners.length} operations (the operators' endpoints left out)`);
writeFileSync(CLIENT_TYPES_FILE, await clientTypes(document));
console.log('clients/typescript/src/generated/openapi.ts: regenerated');
// The collection is the partner API's (docs/decisions/partner-api.md, "The Postman collection is the partner document's").
const postman = postmanFiles(partnerDocument);
writeFileSync(POSTMAN_FILES.collection, postman.collection);
writeFileSync(POSTMAN_FILES.environment, postman.environment);
console.log('docs/postman: collection and sandbox environment regenerated');
writeFileSync(HTTP_EVENTS_FILE, await httpEvents());
writeFileSync(FUNCTIONS_FILE, await functionsYaml());
writeFileSync(ROUTE_TABLE_FILE, routeTable(ROUTES));
console.log('infra/deploy/http-events.yml, functions.yml and functions/system/route-table.json: regenerated');

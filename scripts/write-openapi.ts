import { writeFileSync } from 'node:fs';
import { buildOpenApi } from '../functions/openapi/build.ts';
import { ROUTES } from '../functions/registry.ts';

/** Writes docs/openapi.json from the route table; a test fails when the file is stale. */
writeFileSync(new URL('../docs/openapi.json', import.meta.url), `${JSON.stringify(buildOpenApi(ROUTES), null, 2)}\n`);
console.log(`docs/openapi.json: ${ROUTES.length} operations`);

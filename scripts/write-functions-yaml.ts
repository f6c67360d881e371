import { writeFileSync } from 'node:fs';
import { FUNCTIONS_FILE, functionsYaml } from './functions-yaml.ts';
import { HTTP_EVENTS_FILE, httpEvents } from './http-events.ts';

/** `npm run deploy:generate`: serverless.yml's generated parts (the functions with their IAM, the area functions' HTTP events). */
writeFileSync(HTTP_EVENTS_FILE, await httpEvents());
writeFileSync(FUNCTIONS_FILE, await functionsYaml());
console.log(`wrote ${FUNCTIONS_FILE.pathname} and ${HTTP_EVENTS_FILE.pathname}`);

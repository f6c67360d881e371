import { writeFileSync } from 'node:fs';
import { ALARMS_FILE, alarmsYaml } from './alarms-yaml.ts';
import { FUNCTIONS_FILE, functionsYaml } from './functions-yaml.ts';
import { HTTP_EVENTS_FILE, httpEvents } from './http-events.ts';

/** `npm run deploy:generate`: serverless.yml's generated parts (the functions with their IAM, the area functions' HTTP events, the alarms). */
writeFileSync(HTTP_EVENTS_FILE, await httpEvents());
writeFileSync(FUNCTIONS_FILE, await functionsYaml());
writeFileSync(ALARMS_FILE, alarmsYaml());
console.log(`wrote ${FUNCTIONS_FILE.pathname}, ${HTTP_EVENTS_FILE.pathname} and ${ALARMS_FILE.pathname}`);

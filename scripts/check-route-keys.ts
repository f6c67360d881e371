import { readFileSync } from 'node:fs';
import { routeKeyProblem, routeKeysOfTemplate } from '../infra/deploy/route-keys.ts';

/**
 * Every AWS::ApiGatewayV2::Route of the packaged CloudFormation templates given as arguments
 * (scripts/check-stages.sh passes dev, staging and prod) against the route-key rules API
 * Gateway enforces at deploy (infra/deploy/route-keys.ts). serverless-offline accepts keys a
 * deploy refuses, so only this and the unit test see them before a deploy does.
 */
let failed = false;
for (const file of process.argv.slice(2)) {
  const keys = routeKeysOfTemplate(JSON.parse(readFileSync(file, 'utf8')));
  const problems = keys.flatMap((k) => routeKeyProblem(k) ?? []);
  if (keys.length === 0) problems.push('no AWS::ApiGatewayV2::Route at all');
  for (const p of problems) console.error(`${file}: ${p}`);
  failed ||= problems.length > 0;
  if (problems.length === 0) console.log(`route keys ${file}: ${keys.length}, all accepted by API Gateway`);
}
process.exit(failed ? 1 : 0);

import { operatorOrigin } from '../domain/audit/audit-event.ts';
import { importWorld } from '../domain/world/import-world.ts';
import { operatorConfig } from '../infra/aws-client.ts';
import { parseConfig } from '../infra/config.ts';
import { adminDeps, buildServices } from '../infra/container.ts';
import { buildDemoWorld, DEMO_CREDENTIALS, type DemoCredential } from './demo-world.ts';

export interface LoadedDemo {
  readonly summary: string;
  readonly credentials: readonly DemoCredential[];
}

/** Generates the demo world for today and imports it through the same use case as `admin import`. */
export async function loadDemoWorld(env: Record<string, string>): Promise<LoadedDemo> {
  // Set-up, not a request: the operator's SDK limits, so a cold DynamoDB Local cannot fail the first `npm start`.
  const svc = buildServices(operatorConfig(parseConfig(env)));
  const today = new Date().toISOString().slice(0, 10);
  const started = Date.now();
  const result = await importWorld({ ...adminDeps(svc, operatorOrigin('demo-load', 'seed')), catalogue: svc.catalogue }, buildDemoWorld(today), {
    allowPlaintextKeys: svc.config.isSandbox,
  });
  const written = Object.values(result.written).reduce((a, b) => a + b, 0);
  return { summary: `${written} items written in ${((Date.now() - started) / 1000).toFixed(1)} s`, credentials: DEMO_CREDENTIALS };
}

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defineFunction } from '../../infra/deploy/function-manifest.ts';
import { grants } from '../../infra/deploy/grants.ts';
import { FUNCTIONS_FILE, functionManifests, functionsYaml } from '../../scripts/functions-yaml.ts';
import { functionNameOf } from '../../scripts/http-events.ts';
import { serverlessYaml } from '../support/serverless-yaml.ts';

describe('functions and their IAM from functions/manifests (infra/deploy/functions.yml)', () => {
  it('is current: `npm run deploy:generate` wrote it from the manifests and grants as they are', async () => {
    expect(readFileSync(FUNCTIONS_FILE, 'utf8')).toBe(await functionsYaml());
  });

  it('gives serverless.yml exactly the manifests, each with its grants as statements in the order listed', async () => {
    const manifests = functionManifests();
    const functions = serverlessYaml().functions as Record<string, { handler: string; iamRoleStatements: unknown[] }>;

    expect(Object.keys(functions).sort()).toEqual(manifests.map(([name]) => name).sort());
    for (const [name, manifest] of manifests) {
      expect(functions[name]!.handler, name).toBe(manifest.handler);
      expect(functions[name]!.iamRoleStatements, name).toEqual(manifest.grants.map((g) => grants[g].statement));
    }
  });

  it('lists every manifest file of functions/manifests in its index, under its file name in camelCase', () => {
    const files = readdirSync(new URL('../../functions/manifests/', import.meta.url))
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map(functionNameOf);

    expect(
      functionManifests()
        .map(([name]) => name)
        .sort(),
    ).toEqual(files.sort());
  });

  it('has an area function per router in functions/areas, its events the ones generated from that router', async () => {
    const areas = readdirSync(new URL('../../functions/areas/', import.meta.url))
      .filter((f) => f.endsWith('.ts'))
      .map(functionNameOf);
    const http = functionManifests().filter(([, m]) => m.events === 'http');

    expect(http.map(([name]) => name).sort()).toEqual(areas.sort());
    for (const [name, m] of http) expect(m.handler, name).toBe(`functions/areas/${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.handler`);
  });

  it('takes grants by name only: a misspelt grant fails the type check (tsc), not the deploy', () => {
    const manifest = defineFunction({
      handler: 'functions/workers/example.handler',
      events: [],
      // @ts-expect-error 'readTenant' is not a grant of infra/deploy/grants.ts (readTenants is).
      grants: ['readTenant'],
    });

    expect(manifest.grants.filter((g) => !(g in grants))).toEqual(['readTenant']);
  });

  it('keeps every named grant in use, so a grant no function needs does not linger', async () => {
    const used = new Set(functionManifests().flatMap(([, m]) => m.grants));

    expect(Object.keys(grants).filter((g) => !used.has(g as keyof typeof grants))).toEqual([]);
  });
});

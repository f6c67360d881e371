import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { POSTMAN_COLLECTION_PATH, POSTMAN_ENVIRONMENT_PATH, SANDBOX_DEMO_KEYS } from '../../functions/openapi/postman.ts';
import { POSTMAN_FILES } from '../../scripts/postman-files.ts';
import { call, stack } from '../support/stack.ts';

describe('GET /docs/postman-collection.json and /docs/postman-environment.json', () => {
  it('serves the collection checked in under docs/postman, without a key', async () => {
    const res = await call('GET', POSTMAN_COLLECTION_PATH);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(readFileSync(POSTMAN_FILES.collection, 'utf8')));
  });

  it('serves an environment for this origin holding the demo keys on a sandbox stage', async () => {
    const res = await call<{ values: { key: string; value: string }[] }>('GET', POSTMAN_ENVIRONMENT_PATH);

    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.body.values.map((v) => [v.key, v.value]))).toEqual({ baseUrl: stack().baseUrl, ...SANDBOX_DEMO_KEYS });
  });

  it('is linked from the rendered reference, and refuses a query parameter by name', async () => {
    const page = await call('GET', '/docs');
    const refused = await call('GET', `${POSTMAN_COLLECTION_PATH}?format=v2`);

    expect(page.text).toContain(`(${POSTMAN_COLLECTION_PATH})`);
    expect(page.text).toContain(`(${POSTMAN_ENVIRONMENT_PATH})`);
    expect([refused.status, refused.body.param]).toEqual([400, 'format']);
  });
});

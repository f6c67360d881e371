import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApi, OPERATOR_TAGS, partnerRoutes } from '../../functions/openapi/build.ts';
import { buildPostmanCollection, POSTMAN_SCHEMA, sample, SANDBOX_DEMO_KEYS } from '../../functions/openapi/postman.ts';
import { inlinedDocument } from '../../functions/openapi/refs.ts';
import { ROUTES } from '../../functions/registry.ts';
import { DEMO_CREDENTIALS } from '../../scripts/demo-world.ts';
import { POSTMAN_FILES, postmanFiles } from '../../scripts/postman-files.ts';

type Item = {
  name: string;
  request: {
    method: string;
    auth: { type: string; basic?: { key: string; value: string }[] };
    url: { raw: string; path: string[]; query?: { key: string; disabled: boolean }[]; variable?: { key: string }[] };
    body?: { raw: string };
  };
};
type Collection = { info: { schema: string }; item: { name: string; item: Item[] }[] };

/** The collection is the partner document's (docs/decisions/partner-api.md): Channex and Razorpay call the operators' endpoints, not Postman. */
const document = () => buildOpenApi(partnerRoutes(ROUTES));
const requests = (c: Collection) => c.item.flatMap((folder) => folder.item);
const find = (c: Collection, method: string, raw: string) => requests(c).find((i) => i.request.method === method && i.request.url.raw.split('?')[0] === raw)!;

describe('Postman collection', () => {
  it('docs/postman holds the collection and the sandbox environment generated from the current OpenAPI document', () => {
    const generated = postmanFiles(document());

    expect(readFileSync(POSTMAN_FILES.collection, 'utf8') === generated.collection, 'docs/postman is stale: run `npm run openapi` and commit the result').toBe(
      true,
    );
    expect(readFileSync(POSTMAN_FILES.environment, 'utf8')).toBe(generated.environment);
  });

  it("is made from the partner document: no request for an operators' endpoint", () => {
    const collection = JSON.parse(readFileSync(POSTMAN_FILES.collection, 'utf8')) as Collection;
    const operatorPaths = ROUTES.filter((r) => r.tags.some((t) => OPERATOR_TAGS.includes(t))).map((r) => `${r.method} /${r.path.replace(/^\//, '')}`);

    expect(operatorPaths.length).toBeGreaterThan(0);
    expect(collection.item.map((folder) => folder.name).filter((name) => OPERATOR_TAGS.includes(name))).toEqual([]);
    expect(
      requests(collection)
        .map((i) => `${i.request.method} /${i.request.url.path.join('/')}`)
        .filter((r) => operatorPaths.some((o) => o.replace(/\/$/, '') === r.replace(/\/$/, ''))),
    ).toEqual([]);
    expect(find(collection, 'GET', '{{baseUrl}}/openapi.partner.json').request.auth).toEqual({ type: 'noauth' });
  });

  it('has one request per operation, in Postman format v2.1', () => {
    const doc = document() as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));

    const collection = buildPostmanCollection(doc) as Collection;

    expect(collection.info.schema).toBe(POSTMAN_SCHEMA);
    expect(
      requests(collection)
        .map((i) => `${i.request.method} /${i.request.url.path.join('/').replace(/:([^/]+)/g, '{$1}')}`)
        .sort(),
    ).toEqual(operations.sort());
  });

  it('opens each surface with its own key, path parameters as variables, required query parameters enabled and a sample body', () => {
    const collection = buildPostmanCollection(document()) as Collection;

    const listings = find(collection, 'GET', '{{baseUrl}}/api/listings');
    const booking = find(collection, 'GET', '{{baseUrl}}/v1/bookings/:bookingId');
    const order = find(collection, 'POST', '{{baseUrl}}/v1/orders');
    const availability = find(collection, 'GET', '{{baseUrl}}/v1/availability');

    expect(listings.request.auth.basic).toEqual([
      expect.objectContaining({ key: 'username', value: '{{partnerKey}}' }),
      expect.objectContaining({ key: 'password', value: '' }),
    ]);
    expect(booking.request.auth.basic![0]!.value).toBe('{{agentGroupKey}}');
    expect(find(collection, 'GET', '{{baseUrl}}/openapi.json').request.auth).toEqual({ type: 'noauth' });
    expect(booking.request.url.variable).toEqual([expect.objectContaining({ key: 'bookingId' })]);
    const required = ((document() as any).paths['/v1/availability'].get.parameters as { name: string; required: boolean }[])
      .filter((p) => p.required)
      .map((p) => p.name);
    expect(required.length).toBeGreaterThan(0);
    expect(
      availability.request.url
        .query!.filter((q) => !q.disabled)
        .map((q) => q.key)
        .sort(),
    ).toEqual(required.sort());
    expect(availability.request.url.query!.length).toBeGreaterThan(required.length);
    expect(Object.keys(JSON.parse(order.request.body!.raw)).sort()).toEqual(
      [...(inlinedDocument(document()) as any).paths['/v1/orders'].post.requestBody.content['application/json'].schema.required].sort(),
    );
  });

  it('gives the sandbox environment the demo world’s tripkart keys', () => {
    const keys = DEMO_CREDENTIALS.map((c) => c.key);

    expect(keys).toContain(SANDBOX_DEMO_KEYS.partnerKey);
    expect(keys).toContain(SANDBOX_DEMO_KEYS.agentGroupKey);
    expect(DEMO_CREDENTIALS.find((c) => c.key === SANDBOX_DEMO_KEYS.partnerKey)!.kind).toBe('partner');
    expect(DEMO_CREDENTIALS.find((c) => c.key === SANDBOX_DEMO_KEYS.agentGroupKey)!.kind).toBe('agent-group');
  });

  it('samples a schema with its example, enum, non-null choice, or an empty value of its type', () => {
    expect(
      sample({
        type: 'object',
        required: ['a', 'b', 'c'],
        properties: {
          a: { type: 'string', format: 'date' },
          b: { enum: ['X', 'Y'] },
          c: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 1 }] },
          d: { type: 'string' },
        },
      }),
    ).toEqual({ a: '2027-01-10', b: 'X', c: 1 });
    expect(sample({ type: 'array', items: { type: 'string', examples: ['goa'] } })).toEqual(['goa']);
  });
});

import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { buildOpenApi } from '../../functions/openapi/build.ts';
import { ComponentRegistry, hoistNullableDescriptions } from '../../functions/openapi/components.ts';
import { inlinedDocument, inlineRefs } from '../../functions/openapi/refs.ts';
import { ROUTES } from '../../functions/registry.ts';

type Json = Record<string, unknown>;

/**
 * `where.field` for every property of every schema inside `value` that has no description of its
 * own (a `$ref` property is read with its component inlined, so a described component counts).
 * Example values are data, not schemas: a listing's `properties` field there is no schema.
 */
function undescribed(value: unknown, where: string): string[] {
  if (Array.isArray(value)) return value.flatMap((x) => undescribed(x, where));
  if (typeof value !== 'object' || value === null) return [];
  const node = value as Json;
  const own =
    typeof node.properties === 'object' && node.properties !== null && !Array.isArray(node.properties)
      ? Object.entries(node.properties as Record<string, Json>)
          .filter(([, s]) => typeof s.description !== 'string' || !s.description.trim())
          .map(([name]) => `${where}.${name}`)
      : [];
  const inner = Object.entries(node)
    .filter(([k]) => k !== 'examples' && k !== 'example')
    .flatMap(([k, x]) =>
      k === 'properties' && typeof x === 'object' && x !== null
        ? Object.entries(x as Json).flatMap(([name, s]) => undescribed(s, `${where}.${name}`))
        : undescribed(x, where),
    );
  return [...own, ...inner];
}

describe('OpenAPI document: every property described', () => {
  const doc = buildOpenApi(ROUTES) as { components: { schemas: Record<string, Json> }; paths: Json; webhooks: Json };
  const schemas = doc.components.schemas;

  it('describes every property of every component schema, operation body and parameter schema, and webhook body', () => {
    const missing = [
      ...Object.entries(schemas).flatMap(([name, s]) => undescribed(inlineRefs(s, schemas), name)),
      ...Object.entries(inlineRefs(doc.paths, schemas) as Record<string, Json>).flatMap(([path, ops]) => undescribed(ops, path)),
      ...Object.entries(inlineRefs(doc.webhooks, schemas) as Record<string, Json>).flatMap(([name, w]) => undescribed(w, name)),
    ];

    expect(Object.keys(schemas).length).toBeGreaterThan(50);
    expect([...new Set(missing)]).toEqual([]);
  });

  it('describes every parameter of every operation and webhook', () => {
    const operations = [
      ...Object.values(inlinedDocument(doc).paths as Record<string, Record<string, { operationId: string; parameters?: Json[] }>>).flatMap((o) =>
        Object.values(o),
      ),
      ...Object.values(doc.webhooks as Record<string, { post: { operationId: string; parameters?: Json[] } }>).map((w) => w.post),
    ];
    const missing = operations.flatMap((op) =>
      (op.parameters ?? []).filter((p) => typeof p.description !== 'string' || !p.description.trim()).map((p) => `${op.operationId} ${p.in} ${p.name}`),
    );

    expect(operations.length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('counts a property without a description, and reads a $ref property through its component', () => {
    const registry = new ComponentRegistry(new Map());
    const Part = v.pipe(v.object({ a: v.pipe(v.string(), v.description('A.')) }), v.description('A part.'));
    registry.ref(v.object({ named: v.string(), described: v.pipe(v.string(), v.description('Said.')), part: Part }), 'Whole');
    registry.ref(Part, 'Part');
    const built = registry.schemas();

    expect(undescribed(inlineRefs(built.Whole, built), 'Whole')).toEqual(['Whole.named']);
    expect(undescribed({ examples: { x: { value: { properties: { y: 1 } } } } }, 'E')).toEqual([]);
  });

  it('puts the description of a nullable field on the field, where generators read it, not inside its anyOf', () => {
    const json = hoistNullableDescriptions({ anyOf: [{ type: 'string', description: 'Why.' }, { type: 'null' }] });

    expect(json).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Why.' });
  });
});

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../functions/openapi/build.ts';
import { OPENAPI_EXAMPLES } from '../../functions/openapi/examples.ts';
import { ROUTES } from '../../functions/registry.ts';

/** Problems of `value` under `schema`, as `path: message`. */
const problems = (schema: v.GenericSchema, value: unknown): string[] => {
  const parsed = v.safeParse(schema, value);
  return parsed.success ? [] : parsed.issues.map((i) => `${v.getDotPath(i) ?? '(body)'}: ${i.message}`);
};

describe("OpenAPI examples: real exchanges with the local stack, true to the operation's schemas", () => {
  const examples = Object.entries(OPENAPI_EXAMPLES);

  it('has examples, each for an operation the route table has, at a status it documents', () => {
    expect(examples.length).toBeGreaterThan(20);
    for (const [id, e] of examples) {
      const route = ROUTES.find((r) => r.operationId === id);
      expect(route, id).toBeDefined();
      expect(route!.responses[e.status]?.schema, `${id} ${e.status}`).toBeDefined();
    }
  });

  it("validates every example answer against the operation's response schema, and every example request against its body schema", () => {
    for (const [id, e] of examples) {
      const route = ROUTES.find((r) => r.operationId === id)!;
      expect(problems(route.responses[e.status]!.schema!, e.response), `${id} ${e.status} answer`).toEqual([]);
      if (e.request !== undefined) {
        expect(route.body, `${id} has a request example but takes no body`).toBeDefined();
        expect(problems(route.body!, e.request), `${id} request`).toEqual([]);
      }
    }
  });

  it('puts each example beside its schema in the document', () => {
    const doc = buildOpenApi(ROUTES) as { paths: Record<string, Record<string, { requestBody?: any; responses: Record<string, any> }>> };
    for (const [id, e] of examples) {
      const route = ROUTES.find((r) => r.operationId === id)!;
      const op = doc.paths[route.path]![route.method.toLowerCase()]!;
      expect(op.responses[String(e.status)].content['application/json'].examples[id].value, id).toEqual(e.response);
      if (e.request !== undefined) expect(op.requestBody.content['application/json'].examples[id].value, id).toEqual(e.request);
    }
  });

  /** No JSON answer to show: a 204 has no body, and the invoice PDF is a document, not JSON (its media type and headers are in the reference). */
  const NO_JSON_ANSWER = ['deleteWebhookEndpoint', 'deleteFinanceContact', 'deleteTestClock', 'getInvoicePdf'];

  it('has an example for every operation but the reference files (Meta) and those without a JSON answer', () => {
    const without = ROUTES.filter((r) => !r.tags.includes('Meta') && !(r.operationId in OPENAPI_EXAMPLES)).map((r) => r.operationId);

    expect(without.sort()).toEqual([...NO_JSON_ANSWER].sort());
  });

  it('names only operations whose every success answer has no JSON body as without one', () => {
    for (const id of NO_JSON_ANSWER) {
      const route = ROUTES.find((r) => r.operationId === id)!;
      const success = Object.entries(route.responses).filter(([status]) => Number(status) < 300);
      expect(
        success.every(([, answer]) => answer.schema === undefined),
        id,
      ).toBe(true);
    }
  });
});

import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { parseChannexChanges } from '../../functions/contracts/channel-manager.ts';
import { buildOpenApi } from '../../functions/openapi/build.ts';
import { OPENAPI_EXAMPLES } from '../../functions/openapi/examples.ts';
import { PROVIDER_REQUEST_EXAMPLES } from '../../functions/openapi/provider-examples.ts';
import { ROUTES } from '../../functions/registry.ts';
import { hexSignature, RazorpayWebhooks } from '../../infra/payments/razorpay-webhooks.ts';
import { changesApiExample } from '../support/open-channel-examples.ts';

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

type Json = Record<string, any>;
type Path = readonly (string | number)[];
/** A path as a 400's `param` names it: `payload.payment.entity.id`, `data[0].attributes.hotel_code`. */
const paramOf = (path: Path): string => path.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : p ? `${p}.${k}` : k), '');

/** Every field the schema requires that `value` holds (through each item of a list, and the variant `value` is), with its schema. */
function requiredFields(schema: Json, value: unknown, path: Path = []): { path: Path; schema: Json }[] {
  if (schema.oneOf) return requiredFields(schema.oneOf.find((s: Json) => s.properties?.type?.const === (value as Json)?.type) ?? {}, value, path);
  if (schema.type === 'array' && Array.isArray(value)) return value.flatMap((item, i) => requiredFields(schema.items, item, [...path, i]));
  if (schema.type !== 'object' || typeof value !== 'object' || value === null) return [];
  const present = Object.keys(schema.properties ?? {}).filter((k) => k in value);
  return [
    ...(schema.required ?? []).filter((k: string) => k in value).map((k: string) => ({ path: [...path, k], schema: schema.properties[k] })),
    ...present.flatMap((k) => requiredFields(schema.properties[k], (value as Json)[k], [...path, k])),
  ];
}

/** `value` with the field at `path` removed (`undefined`) or replaced. */
function withField(value: unknown, path: Path, replacement: unknown): unknown {
  const copy = structuredClone(value) as Json;
  const parent = path.slice(0, -1).reduce<Json>((node, k) => node[k as string], copy);
  const last = path[path.length - 1] as string;
  if (replacement === undefined) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** A value of another type than the schema's: a string for an object or list, an object for anything else. */
const illTyped = (schema: Json): unknown => (schema.type === 'object' || schema.type === 'array' ? 'x' : {});

const thrownBy = (read: () => unknown): unknown => {
  try {
    read();
  } catch (err) {
    return err;
  }
  return undefined;
};

/** Razorpay's published signature of its sample (razorpay-node documents/paymentVerfication.md, "Verify webhook verification"). */
const RAZORPAY_SAMPLE_SECRET = '123456';
const RAZORPAY_SAMPLE_SIGNATURE = '55d3c166391ec51285b388f1bb9f0ba9b13dde1bece4484aaac6edd34a01459a';
const SECRET = 'whsec-openapi-examples';

/** How each signed notification's handler reads a body: the Razorpay reader after the signature, Channex's changes parser. */
const READERS: Record<string, (body: unknown) => unknown> = {
  receiveGatewayNotification: (body) => {
    const raw = JSON.stringify(body);
    return new RazorpayWebhooks([SECRET]).readNotification(raw, hexSignature(raw, SECRET), undefined);
  },
  channexChanges: (body) => parseChannexChanges(body),
};

describe("The signed notifications' request examples: the providers' published samples, read as the handlers read them", () => {
  const provided = Object.entries(PROVIDER_REQUEST_EXAMPLES);

  it('has one for each operation that takes a body without a request example from the local stack, and only those', () => {
    const without = ROUTES.filter((r) => (r.body ?? r.rawBody) && OPENAPI_EXAMPLES[r.operationId]?.request === undefined).map((r) => r.operationId);
    expect(without.filter((id) => !(id in PROVIDER_REQUEST_EXAMPLES))).toEqual([]);
    expect(provided.map(([id]) => id).sort()).toEqual(['channexChanges', 'receiveGatewayNotification']);
  });

  it('documents loose objects: fields not read are accepted (additionalProperties true), and each example is valid under its schema', () => {
    const doc = buildOpenApi(ROUTES) as Json;
    for (const [id, e] of provided) {
      const route = ROUTES.find((r) => r.operationId === id)!;
      expect(problems(route.rawBody!, e.request), id).toEqual([]);
      const body = doc.paths[route.path][route.method.toLowerCase()].requestBody.content['application/json'];
      expect(body.examples[id], id).toEqual({ summary: e.summary, value: e.request });
      const component = doc.components.schemas[body.schema.$ref.split('/').pop()];
      expect(component.additionalProperties, id).toBe(true);
    }
  });

  it("is Razorpay's sample byte for byte: its published signature holds over it, and the reader takes it as a captured payment", () => {
    const raw = JSON.stringify(PROVIDER_REQUEST_EXAMPLES.receiveGatewayNotification!.request);
    expect(hexSignature(raw, RAZORPAY_SAMPLE_SECRET)).toBe(RAZORPAY_SAMPLE_SIGNATURE);
    expect(new RazorpayWebhooks([RAZORPAY_SAMPLE_SECRET]).readNotification(raw, RAZORPAY_SAMPLE_SIGNATURE, undefined)).toMatchObject({
      kind: 'payment',
      event: 'payment.captured',
      payment: { paymentId: 'pay_JRP3Y66cNcf2qF', orderId: 'order_JROxH1kSf9IR6d', amount: 2244, currency: 'INR', status: 'captured' },
    });
  });

  it("is the Open Channel page's Changes API example with its placeholders filled (the rates in the mapped plan's INR), parsed as sent", () => {
    const request = PROVIDER_REQUEST_EXAMPLES.channexChanges!.request as Json;
    const { request_id, hotel_code, changes } = request.data[0].attributes;
    const page = changesApiExample(changes[0].attributes.room_type_id, changes[0].attributes.rate_plan_id, '2027-02-02', '2027-02-04');
    const restriction = page[1]!.attributes as { rates: Json[] };
    restriction.rates = restriction.rates.map((r) => ({ ...r, currency: 'INR' }));
    expect(request).toEqual({ data: [{ type: 'changes_notification', attributes: { request_id, hotel_code, changes: page } }] });
    expect(request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseChannexChanges(request)).toBe(request);
  });

  it('the handlers still read strictly what they need: every field the schema requires, missing or of another type, is a 400 naming it', () => {
    for (const [id, e] of provided) {
      const route = ROUTES.find((r) => r.operationId === id)!;
      const schema = toJsonSchema(route.rawBody!, { target: 'draft-2020-12', errorMode: 'ignore' }) as Json;
      const fields = requiredFields(schema, e.request);
      expect(fields.length, id).toBeGreaterThan(5);
      expect(READERS[id]!(e.request), id).toBeDefined();
      for (const field of fields) {
        for (const replacement of [undefined, illTyped(field.schema)]) {
          const err = thrownBy(() => READERS[id]!(withField(e.request, field.path, replacement)));
          const what = `${id}: ${paramOf(field.path)} ${replacement === undefined ? 'missing' : 'ill-typed'}`;
          expect(err, what).toBeInstanceOf(ValidationError);
          expect((err as ValidationError).param, what).toBe(paramOf(field.path));
        }
      }
    }
  });

  it('accepts fields it does not read beside those it does, at every level', () => {
    const extra = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(extra)
        : typeof value === 'object' && value !== null
          ? { ...Object.fromEntries(Object.entries(value).map(([k, x]) => [k, extra(x)])), added_by_provider: 'later' }
          : value;
    for (const [id, e] of provided) expect(() => READERS[id]!(extra(e.request)), id).not.toThrow();
  });
});

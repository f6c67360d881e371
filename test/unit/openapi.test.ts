import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { BookingCallbackSchema, CatalogueWebhookSchema } from '../../functions/contracts/outbound.ts';
import { STATUS_OF } from '../../functions/http/error-status.ts';
import { buildOpenApi, ERROR_CODES_OF, OPERATOR_TAGS, partnerRoutes } from '../../functions/openapi/build.ts';
import { CONTRACT_MODULES, ComponentRegistry } from '../../functions/openapi/components.ts';
import { inlinedDocument, refsIn } from '../../functions/openapi/refs.ts';
import { bookingCallbackBody } from '../../events/booking-callback.ts';
import { catalogueWebhookBody } from '../../events/catalogue-webhook.ts';
import { BOOKING_SCENARIO_VALUES } from '../../functions/contracts/bookings.ts';
import { SANDBOX_SCENARIOS } from '../../domain/sandbox/order-scenarios.ts';
import { AMENDMENT_SCENARIOS } from '../../domain/sandbox/workflow-scenarios.ts';
import { BILLING_SCENARIOS } from '../../domain/sandbox/billing-scenarios.ts';
import { ROUTES } from '../../functions/registry.ts';
import { serverlessYaml } from '../support/serverless-yaml.ts';

type Operation = { operationId: string; security: Record<string, string[]>[]; responses: Record<string, { headers?: Record<string, unknown> }> };
type Document = {
  openapi: string;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
  paths: Record<string, Record<string, Operation>>;
};

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const built = (): Document => buildOpenApi(ROUTES) as unknown as Document;

/** `GET /api/ping` for every httpApi event in serverless.yml (its area functions' generated events included), the '*' catch-all left out. */
function routedInServerlessYml(): string[] {
  const config = serverlessYaml() as { functions: Record<string, { events?: { httpApi?: unknown }[] }> };
  return Object.values(config.functions)
    .flatMap((fn) => fn.events ?? [])
    .map((e) => e.httpApi)
    .filter((h): h is { method: string; path: string } => typeof h === 'object' && h !== null)
    .map((h) => `${h.method.toUpperCase()} ${h.path}`);
}

/** `METHOD path` of every route as API Gateway routes it: its gatewayPath where the documented path cannot be a route key. */
const routeKeys = (): string[] => ROUTES.map((r) => `${r.method} ${r.gatewayPath ?? r.path}`);

describe('OpenAPI document', () => {
  it('docs/openapi.json is the document the route table generates', () => {
    const committed = JSON.parse(read('docs/openapi.json')) as unknown;

    expect(committed, 'docs/openapi.json is stale: run `npm run openapi` and commit the result').toEqual(built());
  });

  it("is OpenAPI 3.1 with a Basic security scheme for each kind of partner key, and Channex's api-key header", () => {
    const doc = built();

    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.components.securitySchemes).toEqual({
      partnerKey: expect.objectContaining({ type: 'http', scheme: 'basic' }),
      agentGroupKey: expect.objectContaining({ type: 'http', scheme: 'basic' }),
      channexKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'api-key' }),
    });
  });

  it('documents an operation for every route serverless.yml serves', () => {
    const documented = routeKeys();

    // The console's pages are for people in a browser, not the partner API (docs/console.md): they are not in the document.
    const api = routedInServerlessYml().filter((r) => !/^(GET|POST) \/console(\/|$)/.test(r));

    expect(api.filter((r) => !documented.includes(r))).toEqual([]);
    expect(routedInServerlessYml().length - api.length).toBe(3);
  });

  it('routes every entry of the route table in serverless.yml with the same method and path (its gatewayPath where it has one)', () => {
    const routed = routedInServerlessYml();

    expect(routeKeys().filter((r) => !routed.includes(r))).toEqual([]);
  });

  it('documents every operation at the path it is called by: a gatewayPath is a route key only, never a documented path', () => {
    const paths = Object.keys(built().paths);

    for (const r of ROUTES.filter((x) => x.gatewayPath)) {
      expect(paths, r.operationId).toContain(r.path);
      expect(paths, r.operationId).not.toContain(r.gatewayPath);
    }
  });

  it('gives every operation a unique operationId', () => {
    const ids = ROUTES.map((r) => r.operationId);

    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  /** The partner and agent-group surfaces spend a rate-limit token per request. */
  const rateLimited = (op: { security: Record<string, unknown>[] }) => op.security.some((s) => 'partnerKey' in s || 'agentGroupKey' in s);

  it('secures every authenticated operation with a scheme the document defines, and documents its 401 and 429', () => {
    const doc = built();
    const schemes = Object.keys(doc.components.securitySchemes);
    const ops = Object.values(doc.paths).flatMap((o) => Object.values(o));
    const authed = ops.filter((op) => op.security.length > 0);

    expect(authed.length).toBeGreaterThan(0);
    for (const op of authed) {
      expect(
        op.security.flatMap((s) => Object.keys(s)).every((name) => schemes.includes(name)),
        op.operationId,
      ).toBe(true);
      // Channex's api-key routes have no token bucket, so no 429.
      expect(Object.keys(op.responses), op.operationId).toEqual(expect.arrayContaining(rateLimited(op) ? ['401', '429'] : ['401']));
    }
  });

  it('documents the rate headers on authenticated responses, Retry-After on 429 and 503, and none on 401, 414 or 503', () => {
    const ops = Object.values(built().paths)
      .flatMap((o) => Object.values(o))
      .filter(rateLimited);

    expect(ops.length).toBeGreaterThan(0);
    for (const op of ops) {
      for (const [status, response] of Object.entries(op.responses)) {
        const names = Object.keys(response.headers ?? {});
        const rate = names.filter((n) => n.startsWith('X-RateLimit-'));
        expect(rate, `${op.operationId} ${status}`).toEqual(
          ['401', '414', '503'].includes(status) ? [] : ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
        );
        expect(names.includes('Retry-After'), `${op.operationId} ${status}`).toBe(status === '429' || status === '503');
        expect(names, `${op.operationId} ${status}`).toContain('X-Request-Id');
      }
    }
  });

  it('describes the rate-limit headers in the document description', () => {
    const description = (buildOpenApi(ROUTES).info as { description: string }).description;

    for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']) expect(description).toContain(header);
  });

  it('is deterministic: building twice gives the same bytes', () => {
    expect(JSON.stringify(built())).toBe(JSON.stringify(built()));
  });
});

describe('OpenAPI document: what the reference explains', () => {
  const doc = buildOpenApi(ROUTES) as {
    info: { description: string; license: unknown };
    servers: { url: string }[];
    webhooks: Record<string, { post: { requestBody: unknown; parameters: { name: string }[] } }>;
  };

  it('explains the auth scheme, every rate-limit header, the error shape with every code, paging and each sandbox scenario', () => {
    const text = doc.info.description;

    for (const section of ['# Authentication', '# Rate limits', '# Errors', '# Paging', '# Sandbox scenarios', '# Calls we make to you'])
      expect(text).toContain(section);
    expect(text).toContain('Authorization: Basic base64(<key>:)');
    for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id'])
      expect(text).toContain(`\`${header}\``);
    for (const field of ['status', 'error', 'message', 'path', 'timestamp', 'code', 'param']) expect(text).toContain(`\`${field}\``);
    for (const code of Object.keys(STATUS_OF)) expect(text).toContain(`\`${code}\``);
    for (const scenario of [...SANDBOX_SCENARIOS, ...BOOKING_SCENARIO_VALUES, ...AMENDMENT_SCENARIOS, ...BILLING_SCENARIOS])
      expect(text).toContain(`| \`${scenario}\` |`);
  });

  it('names a license and a server that is neither localhost nor example.com', () => {
    expect(doc.info.license).toMatchObject({ name: expect.any(String) });
    expect(doc.servers.map((s) => s.url)).toEqual(['/']);
  });

  it('documents the catalogue webhook and the booking callback with their headers', () => {
    expect(Object.keys(doc.webhooks)).toEqual(['catalogueChange', 'bookingOutcome']);
    expect(doc.webhooks.catalogueChange!.post.parameters.map((p) => p.name)).toEqual(['X-Webhook-Id', 'X-Webhook-Attempt', 'X-Webhook-Signature']);
    expect(doc.webhooks.bookingOutcome!.post.parameters.map((p) => p.name)).toEqual(['X-Service-Event-Id', 'X-Service-Signature']);
  });

  it('describes exactly the bodies the service sends: each wire body parses with its documented schema', () => {
    const callback = bookingCallbackBody({
      eventId: '5f0c2a8e-1b7d-4c3a-9e21-0d6b7f4a9c11',
      eventType: 'booking.failed',
      agentGroupId: 'group-1',
      partnerId: 'partner-1',
      bookingRef: 'ref-1',
      callbackUrl: 'https://hooks.partner.in/cb',
      occurredAt: '2026-11-22T10:15:00.000Z',
      status: 'FAILED',
      externalBookingId: 'EXT-42',
      bookingId: null,
      reasonCode: 'BOOKING_NOT_COMPLETED',
      reason: 'The property did not confirm the booking in time.',
    });
    const webhook = catalogueWebhookBody({
      eventType: 'rate.changed',
      entityType: 'rate',
      entityId: 'villa-1-p1',
      fromDate: '2027-03-03',
      toDate: '2027-03-07',
      occurredAt: '2026-11-22T10:41:07.512Z',
      dedupKey: '8f0e0d6b-7f4a-4c3a-9e21-5f0c2a8e1b7d',
    } as Parameters<typeof catalogueWebhookBody>[0]);

    expect(v.safeParse(BookingCallbackSchema, JSON.parse(callback)).issues).toBeUndefined();
    expect(v.safeParse(CatalogueWebhookSchema, JSON.parse(webhook)).issues).toBeUndefined();
  });
});

describe('OpenAPI document: named component schemas', () => {
  type Media = { schema: { $ref?: string; contentMediaType?: string; allOf?: { $ref?: string }[] } };
  type Op = { operationId: string; requestBody?: { content: Record<string, Media> }; responses: Record<string, { content?: Record<string, Media> }> };
  const doc = buildOpenApi(ROUTES) as {
    components: { schemas: Record<string, unknown> };
    paths: Record<string, Record<string, Op>>;
    webhooks: Record<string, { post: Op }>;
  };
  const ops = [...Object.values(doc.paths).flatMap((o) => Object.values(o)), ...Object.values(doc.webhooks).map((w) => w.post)];

  // A served document (the Postman files) is typed by its media type, not a schema.
  // An error body is its named shape (`allOf[0]`) with `code` narrowed.
  const inline = (m: Media | undefined) => m !== undefined && !(m.schema.$ref ?? m.schema.allOf?.[0]?.$ref) && !('contentMediaType' in m.schema);

  it('gives every JSON request and response body, webhooks included, a $ref to a named component', () => {
    const unnamed = ops.flatMap((op) => [
      ...(inline(op.requestBody?.content['application/json']) ? [`${op.operationId} request`] : []),
      ...Object.entries(op.responses)
        .filter(([, r]) => inline(r.content?.['application/json']))
        .map(([status]) => `${op.operationId} ${status}`),
    ]);

    expect(unnamed).toEqual([]);
    expect(doc.paths['/v1/orders']!.post!.requestBody!.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/OrderBody' });
    expect(doc.paths['/v1/orders']!.post!.responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Order' });
  });

  it('names components after the contract: an exported `FooSchema` is `Foo`, an unnamed body after its operation', () => {
    const names = Object.keys(doc.components.schemas);

    for (const name of [
      'OrderBody',
      'Order',
      'OrderItem',
      'UnavailableNight',
      'BookingBody',
      'BookingReply',
      'Invoice',
      'InvoiceLine',
      'LedgerPage',
      'Statement',
    ])
      expect(names).toContain(name);
    expect(names).toContain('ListInvoicesResponse');
    expect(names.filter((n) => !/^[A-Z][A-Za-z0-9]*$/.test(n))).toEqual([]);
  });

  it('resolves every $ref, and holds no component that nothing refers to', () => {
    const referenced = new Set(refsIn(doc));
    const defined = Object.keys(doc.components.schemas);

    expect([...referenced].filter((r) => !defined.includes(r))).toEqual([]);
    expect(defined.filter((d) => !referenced.has(d))).toEqual([]);
  });

  it('reads every contract module for its names: CONTRACT_MODULES is functions/contracts', () => {
    const files = readdirSync(new URL('../../functions/contracts/', import.meta.url)).map((f) => f.replace(/\.ts$/, ''));

    expect(Object.keys(CONTRACT_MODULES).sort()).toEqual(files.sort());
  });

  it('refuses two schemas under one name', () => {
    const registry = new ComponentRegistry(new Map());
    registry.ref(v.object({ a: v.string() }), 'Thing');

    expect(() => registry.ref(v.object({ b: v.string() }), 'Thing')).toThrow(/Two schemas would both be the component Thing/);
  });

  it('gives the typed client named types: components["schemas"]["Order"] and operations referring to it', () => {
    const types = read('clients/typescript/src/generated/openapi.ts');

    expect(types).toMatch(/\n\s+Order: \{/);
    expect(types).toContain('components["schemas"]["Order"]');
  });
});

describe('OpenAPI document: error codes per operation', () => {
  type ErrorMedia = { schema: { allOf?: [unknown, { properties: { code: { enum: string[] } } }] } };
  const doc = buildOpenApi(ROUTES) as {
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, ErrorMedia> }> }>>;
  };
  const errorAnswers = Object.values(doc.paths)
    .flatMap((o) => Object.values(o))
    .flatMap((op) =>
      Object.entries(op.responses)
        .filter(([status, r]) => Number(status) >= 400 && r.content?.['application/json'])
        .map(([status, r]) => ({ at: `${op.operationId} ${status}`, status: Number(status), schema: r.content!['application/json']!.schema })),
    );
  const codesAt = (at: string) => errorAnswers.find((a) => a.at === at)!.schema.allOf![1].properties.code.enum;

  it("narrows every error answer's `code` to an enum of codes of that very status", () => {
    expect(errorAnswers.length).toBeGreaterThan(100);
    for (const a of errorAnswers) {
      const codes = a.schema.allOf?.[1].properties.code.enum;
      expect(codes?.length, a.at).toBeGreaterThan(0);
      expect(
        codes!.filter((c) => STATUS_OF[c as keyof typeof STATUS_OF] !== a.status),
        a.at,
      ).toEqual([]);
    }
  });

  it('takes the codes a response declares, else its status code, plus the body parser refusals on a JSON body and ROUTE_NOT_FOUND off sandbox stages', () => {
    expect(codesAt('createBooking 409')).toEqual(['PRICE_MOVED', 'CONFLICT', 'SOLD_OUT']);
    expect(codesAt('applyAmendment 409')).toEqual(expect.arrayContaining(['NOT_AMENDABLE', 'AMENDMENT_CONFLICT', 'CHANNEL_REFUSED', 'CONFLICT']));
    expect(codesAt('createOrder 400')).toEqual(['VALIDATION_FAILED', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE']);
    expect(codesAt('listInvoices 400')).toEqual(['VALIDATION_FAILED']);
    expect(codesAt('getTestClock 404')).toEqual(['NOT_FOUND', 'ROUTE_NOT_FOUND']);
    expect(codesAt('listInvoices 429')).toEqual(['RATE_LIMITED']);
  });

  it('keeps its table of default codes true to the status table', () => {
    for (const [status, codes] of Object.entries(ERROR_CODES_OF)) for (const c of codes) expect(STATUS_OF[c], c).toBe(Number(status));
  });

  it('gives the typed client the codes as a union', () => {
    expect(read('clients/typescript/src/generated/openapi.ts')).toContain('code: "PRICE_MOVED" | "CONFLICT" | "SOLD_OUT"');
  });
});

describe('OpenAPI document: tags in a partner journey, operators apart', () => {
  const doc = buildOpenApi(ROUTES) as {
    tags: { name: string; description: string }[];
    'x-tagGroups': { name: string; tags: string[] }[];
    paths: Record<string, Record<string, { operationId: string; tags: string[]; security: Record<string, unknown>[] }>>;
  };
  const ops = Object.values(doc.paths).flatMap((o) => Object.values(o));
  const [partner, operators] = doc['x-tagGroups'];

  it('orders the tags catalogue, availability, orders, bookings, amendments, money, webhooks, sandbox, each described', () => {
    const names = doc.tags.map((t) => t.name);
    const at = (n: string) => names.indexOf(n);

    expect(names).toEqual([...partner!.tags, ...operators!.tags]);
    for (const [before, after] of [
      ['Partner read API', 'Distribution API'],
      ['Distribution API', 'Orders'],
      ['Orders', 'Bookings'],
      ['Bookings', 'Amendments'],
      ['Amendments', 'Invoices'],
      ['Invoices', 'Ledger'],
      ['Ledger', 'Webhook endpoints'],
      ['Webhook endpoints', 'Test clocks (sandbox)'],
    ] as const)
      expect(at(before), `${before} before ${after}`).toBeLessThan(at(after));
    expect(doc.tags.filter((t) => !t.description)).toEqual([]);
  });

  it('puts Channex inbound and gateway notifications in the operators group, and every partner-key operation in the partner group', () => {
    const byId = (id: string) => ops.find((o) => o.operationId === id)!;
    const operatorOps = ops.filter((o) => o.tags.some((t) => operators!.tags.includes(t))).map((o) => o.operationId);

    expect(operators!.name).toMatch(/not the partner API/);
    expect(operatorOps.sort()).toEqual(
      [byId('receiveGatewayNotification'), ...ops.filter((o) => o.security.some((s) => 'channexKey' in s))].map((o) => o.operationId).sort(),
    );
    for (const op of ops.filter((o) => o.security.some((s) => 'partnerKey' in s || 'agentGroupKey' in s)))
      expect(
        op.tags.every((t) => partner!.tags.includes(t)),
        op.operationId,
      ).toBe(true);
  });

  it('refuses a route whose tag has no place in the journey', () => {
    expect(() => buildOpenApi([{ ...ROUTES[0]!, tags: ['Somewhere'] }])).toThrow(/Tags with no place in TAG_GROUPS.*Somewhere/);
  });
});

describe('OpenAPI document: named parameter sets', () => {
  type Parameter = { $ref?: string; name?: string; in?: string };
  type Op = { operationId: string; parameters?: Parameter[] };
  const doc = buildOpenApi(ROUTES) as { components: { parameters: Record<string, Parameter> }; paths: Record<string, Record<string, Op>> };
  const ops = Object.values(doc.paths).flatMap((o) => Object.values(o));
  const refs = ops.flatMap((op) => (op.parameters ?? []).filter((p) => p.$ref).map((p) => p.$ref!));

  it('inlines no parameter that another operation declares identically: a shared one is a $ref to components.parameters', () => {
    const inline = ops.flatMap((op) => (op.parameters ?? []).filter((p) => !p.$ref).map((p) => JSON.stringify(p)));

    expect(inline.filter((p, i) => inline.indexOf(p) !== i)).toEqual([]);
    expect(Object.keys(doc.components.parameters)).toEqual(expect.arrayContaining(['IdempotencyKey', 'Cursor', 'Size', 'BookingId', 'From', 'To']));
  });

  it('refers to each parameter component from two operations or more, and to nothing else', () => {
    for (const name of Object.keys(doc.components.parameters))
      expect(refs.filter((r) => r === `#/components/parameters/${name}`).length, name).toBeGreaterThan(1);
    expect(refs.filter((r) => !(r.replace('#/components/parameters/', '') in doc.components.parameters))).toEqual([]);
  });

  it('gives every operation that takes Idempotency-Key the one IdempotencyKey parameter', () => {
    for (const r of ROUTES.filter((x) => x.idempotencyKey)) {
      const op = doc.paths[r.path]![r.method.toLowerCase()]!;
      expect(op.parameters, r.operationId).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    }
  });

  it('reads the same, parameter by parameter, once the references are inlined', () => {
    const inlined = inlinedDocument(doc) as unknown as { paths: Record<string, Record<string, Op>> };
    const op = inlined.paths['/v1/bookings']!.get!;

    expect(op.parameters!.map((p) => p.name)).toContain('cursor');
    expect(op.parameters!.every((p) => !p.$ref)).toBe(true);
  });
});

describe('OpenAPI partner document: docs/openapi.partner.json', () => {
  type Op = { operationId: string; tags: string[]; security: Record<string, unknown>[] };
  const partner = buildOpenApi(partnerRoutes(ROUTES)) as {
    tags: { name: string }[];
    'x-tagGroups': { name: string; tags: string[] }[];
    components: { securitySchemes: Record<string, unknown> };
    paths: Record<string, Record<string, Op>>;
  };
  const ops = Object.values(partner.paths).flatMap((o) => Object.values(o));

  it('is the document `npm run openapi` generates from the partner routes', () => {
    expect(JSON.parse(read('docs/openapi.partner.json')), 'docs/openapi.partner.json is stale: run `npm run openapi` and commit the result').toEqual(partner);
  });

  it('holds no operator tag, no operator route and no Channex key: only what a partner calls', () => {
    expect(OPERATOR_TAGS).toEqual(expect.arrayContaining(['Channel manager (operators)', 'Payments']));
    expect(partner.tags.map((t) => t.name).filter((t) => OPERATOR_TAGS.includes(t))).toEqual([]);
    expect(partner['x-tagGroups'].map((g) => g.name)).toEqual(['Partner API']);
    expect(ops.filter((op) => op.tags.some((t) => OPERATOR_TAGS.includes(t))).map((op) => op.operationId)).toEqual([]);
    expect(Object.keys(partner.paths).filter((p) => p.startsWith('/channel-manager/') || p.startsWith('/gateway/'))).toEqual([]);
    expect(Object.keys(partner.components.securitySchemes).sort()).toEqual(['agentGroupKey', 'partnerKey']);
  });

  it('documents every other route of the full document', () => {
    const full = built();
    const operatorIds = Object.values(full.paths)
      .flatMap((o) => Object.values(o) as unknown as Op[])
      .filter((op) => op.tags.some((t) => OPERATOR_TAGS.includes(t)))
      .map((op) => op.operationId);

    expect(ops.map((op) => op.operationId).sort()).toEqual(
      ROUTES.map((r) => r.operationId)
        .filter((id) => !operatorIds.includes(id))
        .sort(),
    );
    expect(operatorIds.length).toBeGreaterThan(0);
  });
});

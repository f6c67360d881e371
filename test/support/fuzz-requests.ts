import fc from 'fast-check';
import type { RouteSpec } from '../../functions/http/route.ts';

/** A JSON Schema as the OpenAPI builder emits it (the subset the contracts use). */
export interface Schema {
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
  readonly additionalProperties?: boolean | Schema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly format?: string;
}

export interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly required: boolean;
  readonly schema: Schema;
  readonly style?: string;
}

export interface Operation {
  readonly operationId: string;
  readonly parameters: readonly Parameter[];
  readonly requestBody?: { readonly required: boolean; readonly content: { readonly 'application/json': { readonly schema: Schema } } };
}

/** One generated request, described so a failure can be replayed by hand. */
export interface FuzzRequest {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly auth: 'own' | 'none' | 'garbage' | 'other-surface';
  readonly headers: Readonly<Record<string, string>>;
  readonly rawBody?: string;
  /** Path parameters that name another tenant's resource: the answer must not be a 2xx. */
  readonly foreign: boolean;
}

/**
 * Values that mean something to the service, by parameter or field name: the fuzzer's own
 * tenant's ids (so requests get past "not found" into the real code), another tenant's ids
 * (which must stay invisible), real and forged cursors, and dates around the catalogue.
 */
export interface ValuePools {
  readonly byName: Readonly<Record<string, readonly unknown[]>>;
  /** Ids belonging to another tenant; a path holding one must never answer 2xx. */
  readonly foreignIds: readonly string[];
  readonly scenarios: readonly string[];
  /**
   * Whole bodies known to be valid for an operation (say, a booking of an unbooked order at
   * its total): plausible requests send them as they are, hostile ones with one field broken.
   */
  readonly bodies: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>>;
}

/** Hostile values of every JSON type: wrong types, extremes, unicode, injection-looking text. */
const NASTY: readonly unknown[] = [
  null,
  '',
  ' ',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '-0',
  '1e309',
  '9'.repeat(40),
  '0x1F',
  '1.5',
  -1,
  0,
  1e308,
  -1e308,
  2 ** 53 + 1,
  0.1,
  1.005,
  true,
  false,
  [],
  {},
  [1, 2],
  { a: 1 },
  [null],
  'Ünïcödé ✓ 日本語 हिन्दी',
  '🏖️'.repeat(40),
  '\u0000',
  '\u202eevil',
  'a\nb',
  "'; DROP TABLE x; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '%',
  'a'.repeat(3000),
  '2027-02-30',
  '2027-13-01',
  '1970-01-01',
  '9999-12-31',
  '0000-00-00',
  '2027-03-02T00:00:00Z',
  '2027-03-02T25:00:00Z',
  'eyJhIjoxfQ',
  '__proto__',
  'constructor',
];

const nasty = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...NASTY), weight: 6 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 1 },
    { arbitrary: fc.double(), weight: 1 },
    { arbitrary: fc.integer(), weight: 1 },
    { arbitrary: fc.json({ maxDepth: 2 }).map((j) => JSON.parse(j) as unknown), weight: 1 },
  );

/**
 * `plausible` requests use only the pools and the schemas, so they get past validation into
 * the domain (orders priced, bookings charged, cursors followed); `hostile` ones mix in
 * hostile values, undocumented fields, left-out required ones and wrong keys.
 */
export type Mode = 'plausible' | 'hostile';

/** A value the schema accepts as far as its type goes (patterns and domain rules are left to the pools). */
function fromSchema(schema: Schema, name: string, pools: ValuePools, depth: number, mode: Mode): fc.Arbitrary<unknown> {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => fromSchema(b, name, pools, depth, mode)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.oneof(
        fc.integer({ min: Math.ceil(schema.minimum ?? 0), max: Math.floor(schema.maximum ?? 1_000_000) }),
        fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1_000_000, noNaN: true, noDefaultInfinity: true }),
      );
    case 'array': {
      const item = schema.items ? valueFor(schema.items, name, pools, depth + 1, mode) : nasty();
      return fc.array(item, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    }
    case 'object':
      return depth > 3 ? fc.constant({}) : objectFor(schema, pools, depth + 1, mode);
    default:
      return stringFor(schema);
  }
}

function stringFor(schema: Schema): fc.Arbitrary<unknown> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'email':
      return fc.emailAddress();
    case 'uri':
      return fc.webUrl();
    default:
      return fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 24, 24) });
  }
}

/** The name's pool where there is one, else the schema; now and then something hostile. */
function valueFor(schema: Schema, name: string, pools: ValuePools, depth: number, mode: Mode): fc.Arbitrary<unknown> {
  const pool = pools.byName[name];
  if (mode === 'plausible') return pool ? fc.constantFrom(...pool) : fromSchema(schema, name, pools, depth, mode);
  const options: fc.WeightedArbitrary<unknown>[] = [
    { arbitrary: fromSchema(schema, name, pools, depth, mode), weight: pool ? 2 : 5 },
    { arbitrary: nasty(), weight: 1 },
  ];
  if (pool) options.push({ arbitrary: fc.constantFrom(...pool), weight: 5 });
  return fc.oneof(...options);
}

const EXTRA_KEYS = ['extra', 'unknownField', '__proto__', 'constructor', '', ' ', 'ÄÖÜ', 'a'.repeat(300)];

/**
 * An object with each documented field present or left out (a required one only rarely
 * left out), and sometimes an undocumented one added.
 */
function objectFor(schema: Schema, pools: ValuePools, depth: number, mode: Mode): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const absentWeight = (key: string) => (required.has(key) ? (mode === 'plausible' ? 0 : 1) : 3);
  const fields = props.map(([key, s]) =>
    fc
      .oneof(
        { arbitrary: valueFor(s, key, pools, depth, mode).map((value) => ({ present: true, value })), weight: required.has(key) ? 12 : 3 },
        { arbitrary: fc.constant({ present: false, value: undefined as unknown }), weight: absentWeight(key) },
      )
      .map((f) => [key, f] as const),
  );
  const extra = mode === 'plausible' ? fc.constant(null) : fc.option(fc.tuple(fc.constantFrom(...EXTRA_KEYS), nasty()), { freq: 8 });
  return fc.tuple(fc.tuple(...fields), extra).map(([entries, added]) => {
    const out: Record<string, unknown> = {};
    for (const [key, f] of entries) if (f.present) out[key] = f.value;
    // defineProperty, so "__proto__" becomes an own key of the JSON rather than the prototype.
    if (added) Object.defineProperty(out, added[0], { value: added[1], enumerable: true, configurable: true, writable: true });
    return out;
  });
}

/** Query text for one parameter value: arrays joined as the document's form style says. */
function queryText(value: unknown): string {
  if (Array.isArray(value)) return value.map(queryText).join(',');
  if (value === null) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const safeEncode = (s: string): string => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));

function queryArb(params: readonly Parameter[], pools: ValuePools, mode: Mode): fc.Arbitrary<string> {
  const value = (p: Parameter) => valueFor(p.schema, p.name, pools, 0, mode);
  const hostile = mode === 'hostile' ? 1 : 0;
  const parts = params.map((p) =>
    fc.oneof(
      { arbitrary: value(p).map((v) => [`${p.name}=${safeEncode(queryText(v))}`]), weight: p.required ? 10 : 4 },
      { arbitrary: fc.constant([] as string[]), weight: p.required ? hostile : 4 },
      // The same parameter twice: API Gateway joins the values with a comma.
      {
        arbitrary: fc.tuple(value(p), value(p)).map(([a, b]) => [`${p.name}=${safeEncode(queryText(a))}`, `${p.name}=${safeEncode(queryText(b))}`]),
        weight: hostile,
      },
    ),
  );
  const extra =
    mode === 'plausible'
      ? fc.constant(null)
      : fc.option(fc.tuple(fc.constantFrom('extra', 'foo[bar]', 'SIZE', '%F0', 'a'.repeat(100)), fc.string({ maxLength: 10 })), { freq: 10 });
  return fc.tuple(fc.tuple(...parts), extra).map(([chosen, added]) => {
    const all = chosen.flat();
    if (added) all.push(`${added[0]}=${safeEncode(added[1])}`);
    return all.length ? `?${all.join('&')}` : '';
  });
}

/** The body with exactly one top-level field left out, replaced by something hostile, or joined by an undocumented one. */
function breakOneField(body: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(body, fc.nat(), fc.constantFrom('drop', 'replace', 'add'), nasty(), fc.constantFrom(...EXTRA_KEYS)).map(([b, n, how, value, extraKey]) => {
    const keys = Object.keys(b);
    const out = { ...b };
    const key = keys[n % Math.max(keys.length, 1)];
    if (how === 'add' || key === undefined) Object.defineProperty(out, extraKey, { value, enumerable: true, configurable: true, writable: true });
    else if (how === 'drop') delete out[key];
    else out[key] = value;
    return out;
  });
}

function bodyArb(op: Operation, pools: ValuePools, mode: Mode): fc.Arbitrary<{ rawBody?: string; contentType?: string }> {
  const schema = op.requestBody?.content['application/json'].schema;
  if (!schema) return fc.constant({});
  const json = (v: unknown) => ({ rawBody: JSON.stringify(v), contentType: 'application/json' });
  const known = pools.bodies[op.operationId];
  const generated = objectFor(schema, pools, 0, 'plausible');
  const plausible = known ? fc.oneof({ arbitrary: known, weight: 3 }, { arbitrary: generated, weight: 1 }) : generated;
  if (mode === 'plausible') return plausible.map(json);
  return fc.oneof(
    { arbitrary: objectFor(schema, pools, 0, mode).map(json), weight: 8 },
    // Valid but for one field: the refusal must come from deep inside, and still name it.
    { arbitrary: breakOneField(plausible).map(json), weight: 8 },
    { arbitrary: nasty().map(json), weight: 1 },
    {
      arbitrary: fc
        .constantFrom('{', '{"a":', '[', 'not json', '\u0000', '{"a":1}{"b":2}', '{"a":1e999}')
        .map((raw) => ({ rawBody: raw, contentType: 'application/json' })),
      weight: 1,
    },
    { arbitrary: fc.constant({}), weight: 1 },
    { arbitrary: objectFor(schema, pools, 0, mode).map((v) => ({ rawBody: JSON.stringify(v), contentType: 'text/plain' })), weight: 1 },
  );
}

/** Requests for one route: its path, query, body, key and headers, each drawn as above. */
export function requestArb(route: RouteSpec, op: Operation, pools: ValuePools, mode: Mode): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const pathValues = fc.tuple(...pathParams.map((p) => valueFor(p.schema, p.name, pools, 0, mode).map((v) => queryText(v))));
  const auth =
    mode === 'plausible'
      ? fc.constant<FuzzRequest['auth']>('own')
      : fc.constantFrom<FuzzRequest['auth']>(...Array<'own'>(24).fill('own'), 'none', 'garbage', 'other-surface');
  const scenarios = mode === 'plausible' ? pools.scenarios : [...pools.scenarios, 'no-such-scenario', ''];
  const scenario = fc.option(fc.constantFrom(...scenarios), { freq: 12 });
  return fc.tuple(pathValues, queryArb(queryParams, pools, mode), bodyArb(op, pools, mode), auth, scenario).map(([values, query, body, who, sc]) => {
    let i = 0;
    // An empty, "." or ".." segment is resolved away by the client: the service would never see this route.
    const path = route.path.replace(/\{[^}]+\}/g, () => safeEncode((values[i++] || ' ').replace(/^\.{1,2}$/, '$&~')));
    const headers: Record<string, string> = {};
    if (body.contentType) headers['content-type'] = body.contentType;
    if (sc !== null) headers['x-test-scenario'] = sc;
    return {
      operationId: route.operationId,
      method: route.method,
      path: path + query,
      auth: route.auth === 'none' ? 'none' : who,
      headers,
      ...(body.rawBody !== undefined ? { rawBody: body.rawBody } : {}),
      foreign: values.some((v) => pools.foreignIds.includes(v)),
    };
  });
}

/** The extremes that are real dates or instants within the horizon: the service may accept them. */
export const EXTREMES_WITHIN = new Set(['2000-01-01', '2028-02-29', '2099-12-31', '2028-02-29T23:59:59+05:30', '2099-12-31T23:59:59.999Z']);

/** Dates at and past every edge: years 0001, 9999 and 10000, 31 February, leap days, the horizon's own first and last days. */
export const EXTREME_DATES = [
  '0001-01-01',
  '1999-12-31',
  '2000-01-01',
  '2027-02-29',
  '2027-02-31',
  '2028-02-29',
  '2099-12-31',
  '2100-01-01',
  '9999-12-29',
  '9999-12-31',
  '10000-01-01',
];
/** Instants at and past the same edges, with and without an offset. */
export const EXTREME_INSTANTS = [
  '0001-01-01T00:00:00Z',
  '2027-02-31T00:00:00+05:30',
  '2028-02-29T23:59:59+05:30',
  '2099-12-31T23:59:59.999Z',
  '2100-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '+010000-01-01T00:00:00Z',
];
const EXTREMES = [...EXTREME_DATES, ...EXTREME_INSTANTS];

/** Names the contracts give dates and instants (a field's format says so too). */
const DATE_NAMES = new Set(['from', 'to', 'date', 'checkIn', 'checkOut', 'checkInFrom', 'checkInTo', 'updatedSince', 'date_from', 'date_to']);
const isDateLike = (name: string, schema: Schema | undefined) => DATE_NAMES.has(name) || schema?.format === 'date' || schema?.format === 'date-time';

/** The first value of the name's pool, or one drawn from the schema with a fixed seed: the same every run. */
const firstOf = (schema: Schema, name: string, pools: ValuePools): unknown =>
  pools.byName[name]?.[0] ?? fc.sample(fromSchema(schema, name, pools, 0, 'plausible'), { seed: 1, numRuns: 1 })[0];

/** Every place in a body a date goes: date-named fields at any depth, and the values of checkIn/checkOut search filters. */
function datePlaces(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => datePlaces(v, [...at, i]));
  if (value === null || typeof value !== 'object') return [];
  const o = value as Record<string, unknown>;
  const own = Object.keys(o)
    .filter((k) => DATE_NAMES.has(k) && typeof o[k] === 'string')
    .map((k) => [...at, k]);
  const filter = typeof o.filterName === 'string' && DATE_NAMES.has(o.filterName) && Array.isArray(o.filterValues) ? [[...at, 'filterValues', 0]] : [];
  return [...own, ...filter, ...Object.keys(o).flatMap((k) => datePlaces(o[k], [...at, k]))];
}

function withValueAt(body: unknown, path: readonly (string | number)[], value: string): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

/**
 * For every date or time parameter and body field of an operation, one request per extreme
 * value (EXTREME_DATES and EXTREME_INSTANTS) with everything else plausible and fixed: the
 * first value of each pool, a known valid body. Deterministic, so every operation that takes a
 * date meets every edge on every run, whatever the seed of the random part.
 */
export function extremeDateRequests(route: RouteSpec, op: Operation, pools: ValuePools): (FuzzRequest & { readonly extreme: string })[] {
  const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    safeEncode(queryText(firstOf(op.parameters.find((p) => p.name === name)!.schema, name, pools))),
  );
  const query = op.parameters.filter((p) => p.in === 'query');
  const required = query.filter((p) => p.required).map((p) => [p.name, queryText(firstOf(p.schema, p.name, pools))] as const);
  const schema = op.requestBody?.content['application/json'].schema;
  const known = pools.bodies[op.operationId];
  const baseBody = schema
    ? ((known ? fc.sample(known, { seed: 1, numRuns: 1 })[0] : fc.sample(objectFor(schema, pools, 0, 'plausible'), { seed: 1, numRuns: 1 })[0]) as Record<
        string,
        unknown
      >)
    : undefined;
  const request = (queryPairs: readonly (readonly [string, string])[], body: unknown): FuzzRequest => ({
    operationId: route.operationId,
    method: route.method,
    path: path + (queryPairs.length ? `?${queryPairs.map(([k, v]) => `${k}=${safeEncode(v)}`).join('&')}` : ''),
    auth: route.auth === 'none' ? 'none' : 'own',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { rawBody: JSON.stringify(body) }),
    foreign: false,
  });
  const out: (FuzzRequest & { readonly extreme: string })[] = [];
  for (const p of query.filter((q) => isDateLike(q.name, q.schema))) {
    for (const value of EXTREMES) out.push({ ...request([...required.filter(([k]) => k !== p.name), [p.name, value]], baseBody), extreme: value });
  }
  if (schema && baseBody) {
    // Top-level date fields the schema declares are set even when the base body left them out.
    const declared = Object.entries(schema.properties ?? {})
      .filter(([k, s]) => isDateLike(k, s) && !(k in baseBody))
      .map(([k]) => [k]);
    for (const place of [...datePlaces(baseBody), ...declared]) {
      for (const value of EXTREMES) out.push({ ...request(required, withValueAt(baseBody, place, value)), extreme: value });
    }
  }
  return out;
}

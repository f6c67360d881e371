/**
 * Component `$ref`s of the OpenAPI document, apart from the contracts (components.ts imports
 * them all): the Postman collection and tests read documents without loading the route table.
 */
type Json = Record<string, unknown>;

export const COMPONENT_REF = '#/components/schemas/';
export const PARAMETER_REF = '#/components/parameters/';
export const refTo = (name: string): Json => ({ $ref: `${COMPONENT_REF}${name}` });

/** Names of the components `value` refers to, anywhere inside it. */
export function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT_REF) ? [v.slice(COMPONENT_REF.length)] : refsIn(v),
  );
}

/**
 * `value` with every component `$ref` replaced by the component itself (its siblings kept),
 * for readers that walk schemas as trees: the Postman samples, the e2e contract check.
 */
export function inlineRefs<T>(value: T, schemas: Readonly<Record<string, Json>>): T {
  const walk = (v: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, seen));
    if (typeof v !== 'object' || v === null) return v;
    const { $ref, ...rest } = v as Json;
    const inner = Object.fromEntries(Object.entries(rest).map(([k, x]) => [k, walk(x, seen)]));
    if (typeof $ref !== 'string' || !$ref.startsWith(COMPONENT_REF)) return $ref === undefined ? inner : { $ref, ...inner };
    const name = $ref.slice(COMPONENT_REF.length);
    const target = schemas[name];
    if (!target) throw new Error(`No component ${name}`);
    if (seen.includes(name)) throw new Error(`Component ${name} refers to itself`);
    return { ...(walk(target, [...seen, name]) as Json), ...inner };
  };
  return walk(value, []) as T;
}

/** `paths` with every operation's `$ref` parameters replaced by their component. */
function inlineParameters(paths: Json, parameters: Readonly<Record<string, Json>>): Json {
  const resolve = (p: Json): Json => {
    if (typeof p.$ref !== 'string') return p;
    const target = parameters[p.$ref.slice(PARAMETER_REF.length)];
    if (!p.$ref.startsWith(PARAMETER_REF) || !target) throw new Error(`No parameter ${p.$ref}`);
    return target;
  };
  return Object.fromEntries(
    Object.entries(paths).map(([path, ops]) => [
      path,
      Object.fromEntries(
        Object.entries(ops as Record<string, Json>).map(([method, op]) => [
          method,
          Array.isArray(op.parameters) ? { ...op, parameters: (op.parameters as Json[]).map(resolve) } : op,
        ]),
      ),
    ]),
  );
}

/** The document with its component parameters and schemas inlined wherever they are referred to. */
export function inlinedDocument<T extends Json>(document: T): T {
  const components = (document.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  const parameters = (components.parameters ?? {}) as Record<string, Json>;
  return {
    ...document,
    ...(document.paths ? { paths: inlineRefs(inlineParameters(document.paths as Json, parameters), schemas) } : {}),
    ...(document.webhooks ? { webhooks: inlineRefs(document.webhooks, schemas) } : {}),
  };
}

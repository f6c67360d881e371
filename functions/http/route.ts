import type * as v from 'valibot';
import type { ErrorCode } from '../../domain/errors.ts';
import type { Surface } from '../../domain/principal.ts';
import type { Deprecation } from './deprecation.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
// valibot's schema types are deeply generic; the route table only needs "some schema".
// eslint-disable-next-line @typescript-eslint/no-explicit-any
// biome-ignore lint/suspicious/noExplicitAny: valibot types "any schema" as GenericSchema<any, any>; `unknown` would refuse every concrete schema.
export type AnySchema = v.GenericSchema<any, any>;

export interface ResponseSpec {
  readonly description: string;
  readonly schema?: AnySchema;
  /** A document instead of JSON (the rendered reference, an invoice PDF): its media type. */
  readonly document?: string;
  /**
   * Other media types the same answer is served as when the request's `Accept` prefers one
   * (a statement as CSV): documented beside the JSON schema; the handler negotiates.
   */
  readonly alsoAs?: readonly { readonly mediaType: string; readonly description: string }[];
  /**
   * An error answer's `code`s, when the status alone does not say them (a 409 of a booking:
   * PRICE_MOVED, SOLD_OUT or CONFLICT). Without it the status's own code (functions/openapi/build.ts
   * ERROR_CODES_OF); either way the reference documents `code` as exactly these.
   */
  readonly codes?: readonly ErrorCode[];
}

/**
 * A route's contract: what serverless.yml routes, what the handler validates, and what
 * the OpenAPI document says, all from one object.
 */
export type Auth = Surface | 'none' | 'channex';

export interface RouteSpec<
  Q extends AnySchema | undefined = AnySchema | undefined,
  P extends AnySchema | undefined = AnySchema | undefined,
  B extends AnySchema | undefined = AnySchema | undefined,
  A extends Auth = Auth,
> {
  readonly operationId: string;
  readonly method: Method;
  /** API Gateway form: `/v1/orders/{orderId}`. */
  readonly path: string;
  /**
   * The route key's path when API Gateway cannot route `path` as written: Channex's endpoints
   * end in `/`, which an HTTP API route key may not (infra/deploy/route-keys.ts), so they are
   * served through a greedy `{proxy+}` route whose handler picks the endpoint by name.
   */
  readonly gatewayPath?: string;
  /** Which key opens it; `none` only for public documents and signed notifications; `channex` the channel manager's api-key header. */
  readonly auth: A;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly query?: Q;
  readonly params?: P;
  readonly body?: B;
  readonly bodyOptional?: boolean;
  /**
   * A body the handler reads as raw bytes (a signed notification: the signature covers the
   * exact bytes). Documented with this schema; the stack neither parses nor validates it.
   */
  readonly rawBody?: AnySchema;
  readonly responses: Readonly<Record<number, ResponseSpec>>;
  /**
   * Parts on their way out (docs/versioning.md): the reference marks them deprecated and every
   * answer that involves one carries `Deprecation`, `Sunset` and `Link` headers.
   */
  readonly deprecated?: readonly Deprecation[];
  /** Served on sandbox stages only (config.isSandbox); elsewhere the answer is the unknown path's 404. */
  readonly sandboxOnly?: boolean;
  /** A creating POST that takes an `Idempotency-Key` header (domain/idempotency/idempotency-key.ts). */
  readonly idempotencyKey?: boolean;
}

export const defineRoute = <
  const A extends Auth,
  Q extends AnySchema | undefined = undefined,
  P extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
>(
  spec: RouteSpec<Q, P, B, A>,
): RouteSpec<Q, P, B, A> => spec;

/** `/v1/orders/{orderId}` → a matcher for concrete paths, with or without one trailing slash (Channex's paths have one; a caller may drop it). */
export function pathMatcher(template: string): RegExp {
  const pattern = template
    .replace(/(.)\/$/, '$1')
    .split('/')
    .map((seg) => (/^\{[^}]+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`);
}

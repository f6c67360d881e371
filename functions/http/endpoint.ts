import middy from '@middy/core';
import * as v from 'valibot';
import type { Principal } from '../../domain/principal.ts';
import { groupServices, services, type Services } from '../../infra/compose/core.ts';
import { routeNotFound } from './route-not-found.ts';
import { basicAuth } from './middleware/basic-auth.ts';
import { deprecationNotice } from './deprecation.ts';
import { channexKey } from './middleware/channex-key.ts';
import { errorResponder } from './middleware/error-responder.ts';
import { jsonBody } from './middleware/json-body.ts';
import { requestContext } from './middleware/request-context.ts';
import { withinBudget } from './budget.ts';
import { RowSlices } from '../../domain/reads/row-slices.ts';
import { acceptsGzip, encodeForTransport, gzipJsonArray, gzipJsonSlices, gzipsWhileWriting } from './compression.ts';
import { documentResult, jsonHead, jsonResult } from './responses.ts';
import type { AnySchema, Auth, RouteSpec } from './route.ts';
import type { HttpContext, HttpEvent, HttpResult, Reply, RequestState } from './types.ts';
import { parseInput } from './validate.ts';
import { IDEMPOTENCY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyOf, runOnce } from '../../domain/idempotency/idempotency-key.ts';
import { requestContentHash } from '../../domain/ledger/request-hash.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';

const NO_QUERY = v.strictObject({});

type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;

export interface HandlerInput<Q, P, B, Pr> {
  readonly query: Q;
  readonly params: P;
  readonly body: B;
  readonly principal: Pr;
  readonly services: Services;
  readonly state: RequestState;
  readonly event: HttpEvent;
}

type PrincipalFor<A> = A extends 'api' ? Extract<Principal, { kind: 'partner' }> : A extends 'v1' ? Extract<Principal, { kind: 'agent-group' }> : undefined;

/**
 * The shared Middy stack around one route: request id and logging, the error responder,
 * Basic auth with its rate-limit token, the JSON body parser (only where the route takes a
 * body), then input validation from the route's schemas and the handler itself.
 */
export function endpoint<Q extends AnySchema | undefined, P extends AnySchema | undefined, B extends AnySchema | undefined, A extends Auth>(
  route: RouteSpec<Q, P, B, A>,
  handle: (input: HandlerInput<Out<Q>, Out<P>, Out<B>, PrincipalFor<A>>) => Promise<Reply>,
) {
  const stack = middy<HttpEvent, HttpResult, Error, HttpContext>({ timeoutEarlyInMillis: 0 }).use(requestContext());
  // Before the error responder, so that its onError runs after the error answer is made.
  if (route.deprecated?.length) stack.use(deprecationNotice(route.deprecated));
  stack.use(errorResponder());
  if (route.auth === 'channex') stack.use(channexKey());
  else if (route.auth !== 'none') stack.use(basicAuth(route.auth));
  if (route.body) stack.use(jsonBody({ optional: route.bodyOptional ?? false }));
  const handler = stack.handler(async (event, context) => {
    // After the key check, as the fallback answers an unknown path: the two cannot be told apart.
    if (route.sandboxOnly && !services().config.isSandbox) throw routeNotFound();
    // A route without query parameters refuses one, as routes with them refuse an unknown one.
    const query = parseInput(route.query ?? NO_QUERY, event.queryStringParameters ?? {}, 'query');
    const params = route.params ? parseInput(route.params, event.pathParameters ?? {}, 'path') : undefined;
    const body = route.body ? parseInput(route.body, event.body, 'body') : undefined;
    const principal = context.state.principal as Principal | undefined;
    // An agent group's request runs at its sandbox test clock, if its record names one: a group without pays no read for it.
    const svc = principal?.kind === 'agent-group' && principal.testClockId ? await groupServices(services(), principal.agentGroupId) : services();
    const run = () =>
      handle({
        query: (route.query ? query : undefined) as Out<Q>,
        params: params as Out<P>,
        body: body as Out<B>,
        principal: principal as PrincipalFor<A>,
        services: svc,
        state: context.state,
        event,
      });
    const reply = route.idempotencyKey ? await onceForKey(svc, route, principal, event, run) : await run();
    const acceptEncoding = event.headers?.['accept-encoding'];
    if (reply.body instanceof RowSlices) {
      if (acceptsGzip(acceptEncoding)) return gzipJsonSlices(jsonHead(context.state, reply.status, reply.headers), reply.body);
      return encodeForTransport(jsonResult(context.state, reply.status, await reply.body.all(), reply.headers), acceptEncoding);
    }
    if (!reply.document && reply.status !== 204 && gzipsWhileWriting(reply.body, acceptEncoding))
      return gzipJsonArray(jsonHead(context.state, reply.status, reply.headers), reply.body);
    const result = reply.document
      ? documentResult(context.state, reply.status, reply.document.contentType, reply.document.content, reply.headers)
      : jsonResult(context.state, reply.status, reply.body, reply.headers);
    return encodeForTransport(result, acceptEncoding);
  });
  return Object.assign(withinBudget(handler), { route });
}

/**
 * A creating POST with an `Idempotency-Key` header runs once per tenant, operation and key;
 * a repeat of the same request gets the first JSON answer, marked `Idempotent-Replayed`.
 * The request is its path and its JSON body in canonical form (key order and spacing do not
 * make another request; a value does).
 */
async function onceForKey(svc: Services, route: RouteSpec, principal: Principal | undefined, event: HttpEvent, run: () => Promise<Reply>): Promise<Reply> {
  const key = idempotencyKeyOf(event.headers?.[IDEMPOTENCY_HEADER.toLowerCase()]);
  if (key === undefined || !principal) return run();
  const owner = principal.kind === 'agent-group' ? `group:${principal.agentGroupId}` : `partner:${principal.partnerId}`;
  const requestHash = requestContentHash({ path: event.rawPath, body: event.body ?? null }, sha256Hex);
  const { reply, replayed } = await runOnce(svc, { scope: `${owner}#${route.operationId}`, key, requestHash }, async () => {
    const answer = await run();
    if (answer.document || answer.body instanceof RowSlices)
      throw new Error(`${route.operationId} answers a document; only JSON answers can be replayed for ${IDEMPOTENCY_HEADER}.`);
    return { status: answer.status, body: answer.body, ...(answer.headers ? { headers: answer.headers } : {}) };
  });
  return replayed ? { ...reply, headers: { ...reply.headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' } } : reply;
}

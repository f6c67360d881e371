import { randomUUID } from 'node:crypto';
import type { MiddlewareObj, Request } from '@middy/core';
import { logger } from '../../../infra/logger.ts';
import type { HttpContext, HttpEvent, HttpResult } from '../types.ts';

/**
 * First in the stack: gives the request its id and puts it on every log line. The id is
 * ours, not the caller's: a caller-supplied X-Request-Id is logged as `clientRequestId`
 * for correlation but never trusted as ours.
 */
export function requestContext(): MiddlewareObj<HttpEvent, HttpResult, Error, HttpContext> {
  const requestContextBefore = (request: Request<HttpEvent, HttpResult, Error, HttpContext>) => {
    const { event, context } = request;
    const requestId = randomUUID();
    context.state = {
      requestId,
      path: event.rawPath,
      method: event.requestContext.http.method.toUpperCase(),
      receivedAt: new Date(),
    };
    const clientRequestId = event.headers?.['x-request-id'];
    logger.resetKeys();
    logger.appendKeys({ requestId, method: context.state.method, path: event.rawPath, ...(clientRequestId ? { clientRequestId: clientRequestId.slice(0, 128) } : {}) });
  };
  const requestContextAfter = (request: Request<HttpEvent, HttpResult, Error, HttpContext>) => {
    const { state } = request.context;
    logger.info('request completed', { status: request.response?.statusCode, durationMs: Date.now() - state.receivedAt.getTime(), principal: principalTag(state) });
  };
  return { before: requestContextBefore, after: requestContextAfter, onError: requestContextAfter };
}

const principalTag = (state: HttpContext['state']) =>
  state.principal && (state.principal.kind === 'partner' ? `partner:${state.principal.partnerId}` : `group:${state.principal.agentGroupId}`);

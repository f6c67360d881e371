import { randomUUID } from 'node:crypto';
import type { MiddlewareObj, Request } from '@middy/core';
import { DomainError } from '../../../domain/errors.ts';
import { logger } from '../../../infra/logger.ts';
import type { HttpContext, HttpEvent, HttpResult } from '../types.ts';

/**
 * The longest URL (path, `?` and query string, as received) the service reads. API Gateway
 * HTTP APIs refuse a request whose request line and headers together pass 10,240 bytes with
 * their own response before any function runs; 8,192 leaves room for the headers, so every
 * URL that reaches us and is too long gets the service's error body (414 URI_TOO_LONG).
 */
export const MAX_URL_LENGTH = 8_192;

/** How much of an over-long path the error body and logs echo back. */
const ECHOED_PATH_LENGTH = 256;

/**
 * First in the stack: gives the request its id and puts it on every log line, and refuses
 * an over-long URL before anything reads it. The id is ours, not the caller's: a
 * caller-supplied X-Request-Id is logged as `clientRequestId` for correlation but never
 * trusted as ours.
 */
export function requestContext(): MiddlewareObj<HttpEvent, HttpResult, Error, HttpContext> {
  const requestContextBefore = (request: Request<HttpEvent, HttpResult, Error, HttpContext>) => {
    const { event, context } = request;
    const requestId = randomUUID();
    const urlLength = event.rawPath.length + (event.rawQueryString ? 1 + event.rawQueryString.length : 0);
    const tooLong = urlLength > MAX_URL_LENGTH;
    const path = tooLong ? event.rawPath.slice(0, ECHOED_PATH_LENGTH) : event.rawPath;
    context.state = {
      requestId,
      path,
      method: event.requestContext.http.method.toUpperCase(),
      receivedAt: new Date(),
    };
    const clientRequestId = event.headers?.['x-request-id'];
    logger.resetKeys();
    logger.appendKeys({ requestId, method: context.state.method, path, ...(clientRequestId ? { clientRequestId: clientRequestId.slice(0, 128) } : {}) });
    if (tooLong)
      throw new DomainError('URI_TOO_LONG', `The URL is ${urlLength} characters long; at most ${MAX_URL_LENGTH} (path and query string) are accepted.`);
  };
  const requestContextAfter = (request: Request<HttpEvent, HttpResult, Error, HttpContext>) => {
    const { state } = request.context;
    logger.info('request completed', {
      status: request.response?.statusCode,
      durationMs: Date.now() - state.receivedAt.getTime(),
      principal: principalTag(state),
    });
  };
  return { before: requestContextBefore, after: requestContextAfter, onError: requestContextAfter };
}

const principalTag = (state: HttpContext['state']) =>
  state.principal && (state.principal.kind === 'partner' ? `partner:${state.principal.partnerId}` : `group:${state.principal.agentGroupId}`);

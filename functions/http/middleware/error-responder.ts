import type { MiddlewareObj, Request } from '@middy/core';
import { DomainError, PricingNotConfiguredError, ServiceUnavailableError } from '../../../domain/errors.ts';
import { ThrottledError } from '../../../domain/authenticate.ts';
import { isAwsUnavailable } from '../../../infra/aws-client.ts';
import { logger } from '../../../infra/logger.ts';
import { errorResult, internalErrorResult } from '../responses.ts';
import type { HttpContext, HttpEvent, HttpResult } from '../types.ts';

/**
 * Turns every thrown error into the one error body. DomainErrors carry their code; the
 * body parser's 415/422 become our 400s; an AWS call that timed out or could not connect
 * (after the client's bounded retries) is a 503 with Retry-After; anything else is a 500 with a generic message,
 * logged in full here and never shown to the caller. serverless-offline answers 200 for
 * an unhandled error, so nothing may escape this.
 */
/** Long enough for a restarted store or a throttled partition to come back, short enough not to idle a caller. */
export const STORAGE_RETRY_AFTER_SECONDS = 2;

export function errorResponder(): MiddlewareObj<HttpEvent, HttpResult, Error, HttpContext> {
  const errorResponderOnError = (request: Request<HttpEvent, HttpResult, Error, HttpContext>) => {
    const err = request.error;
    const state = request.context.state ?? { requestId: 'unknown', path: request.event.rawPath, method: '?', receivedAt: new Date() };
    if (err instanceof ThrottledError) state.rate = err.rate;
    if (err instanceof DomainError) {
      if (err instanceof PricingNotConfiguredError)
        logger.error('no GST slab table in force: stays on this night cannot be priced', { night: err.night, path: state.path });
      request.response = errorResult(state, err);
      return;
    }
    const translated = fromMiddyError(err);
    if (translated) {
      request.response = errorResult(state, translated);
      return;
    }
    if (isAwsUnavailable(err)) {
      logger.warn('storage unavailable', { error: err });
      request.response = errorResult(state, new ServiceUnavailableError(STORAGE_RETRY_AFTER_SECONDS));
      return;
    }
    logger.error('unhandled error', { error: err });
    request.response = internalErrorResult(state);
  };
  return { onError: errorResponderOnError };
}

function fromMiddyError(err: Error | null | undefined): DomainError | undefined {
  const status = (err as { statusCode?: number } | null | undefined)?.statusCode;
  if (status === 415) {
    return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json for a request with a body.', { param: 'Content-Type' });
  }
  if (status === 422) return new DomainError('MALFORMED_JSON', 'The request body is not valid JSON.', { param: 'body' });
  return undefined;
}

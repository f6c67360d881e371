import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { HttpContext, HttpEvent, HttpResult } from '../types.ts';

/**
 * JSON bodies for endpoints that take one. Middy's parser answers 415/422; the error
 * responder maps both to our 400. An endpoint whose body is optional accepts an empty
 * body with no Content-Type.
 */
export function jsonBody(options: { optional: boolean }): MiddlewareObj<HttpEvent, HttpResult, Error, HttpContext> {
  const parser = httpJsonBodyParser() as unknown as MiddlewareObj<HttpEvent, HttpResult, Error, HttpContext>;
  const jsonBodyBefore = async (request: Parameters<NonNullable<typeof parser.before>>[0]) => {
    const raw = request.event.body;
    if (options.optional && (raw === undefined || raw === null || raw === '')) {
      request.event.body = undefined;
      return;
    }
    await parser.before?.(request);
  };
  return { before: jsonBodyBefore };
}

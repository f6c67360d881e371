import type { MiddlewareObj, Request } from '@middy/core';
import { authenticate } from '../../../domain/authenticate.ts';
import { UnauthorizedError } from '../../../domain/errors.ts';
import type { Surface } from '../../../domain/principal.ts';
import { ACCEPTABLE_KEY_PATTERN } from '../../../domain/api-key.ts';
import { services } from '../../../infra/compose/core.ts';
import { sha256Hex } from '../../../infra/crypto/api-keys.ts';
import type { HttpContext, HttpEvent, HttpResult } from '../types.ts';

/**
 * `Authorization: Basic base64(<key>:)`. The password must be empty (the colon is kept);
 * anything else is malformed and gets the same 401 as an unknown key.
 */
export function parseBasicKey(header: string | undefined): string | undefined {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header?.trim() ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || colon !== decoded.length - 1) return undefined;
  const key = decoded.slice(0, colon);
  return ACCEPTABLE_KEY_PATTERN.test(key) ? key : undefined;
}

/** Resolves the key to a principal on this surface and spends a rate-limit token. */
export function basicAuth(surface: Surface): MiddlewareObj<HttpEvent, HttpResult, Error, HttpContext> {
  const basicAuthBefore = async (request: Request<HttpEvent, HttpResult, Error, HttpContext>) => {
    const key = parseBasicKey(request.event.headers?.authorization);
    if (!key) throw new UnauthorizedError();
    const svc = services();
    const { principal, rate } = await authenticate(
      { tenants: svc.tenants, rateLimiter: svc.rateLimiter, defaultPolicy: svc.config.rateLimit },
      sha256Hex(key),
      surface,
      svc.clock.now().getTime(),
    );
    request.context.state.principal = principal;
    request.context.state.rate = rate;
  };
  return { before: basicAuthBefore };
}

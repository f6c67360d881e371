import type { MiddlewareObj, Request } from '@middy/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../../domain/errors.ts';
import { services } from '../../../infra/compose/core.ts';
import type { HttpContext, HttpEvent, HttpResult } from '../types.ts';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * True when `presented` is one of `accepted`. Both sides are hashed first so the comparison
 * is over equal lengths, and every accepted key is compared (no early exit), so the time
 * taken says nothing about which key, or how much of one, matched.
 */
export function keyMatches(presented: string | undefined, accepted: readonly string[]): boolean {
  if (presented === undefined) return false;
  const mine = digest(presented);
  let match = false;
  for (const key of accepted) match = timingSafeEqual(mine, digest(key)) || match;
  return match;
}

/**
 * Channex's inbound calls carry our key in the `api-key` header ("API Endpoints":
 * "we will use a header with name api-key"; the Open Channel settings say `api_key`, so
 * both are read). Checked before the query or body is looked at.
 */
export function channexKey(): MiddlewareObj<HttpEvent, HttpResult, Error, HttpContext> {
  const channexKeyBefore = async (request: Request<HttpEvent, HttpResult, Error, HttpContext>) => {
    const headers = request.event.headers ?? {};
    const presented = headers['api-key'] ?? headers.api_key;
    if (!keyMatches(presented, services().config.channex.inboundKeys)) {
      throw new DomainError('UNAUTHORIZED', "A valid api-key header is required: one of this stage's inbound Channex keys.");
    }
  };
  return { before: channexKeyBefore };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../../domain/errors.ts';
import type { CursorCodec, CursorScope } from '../../domain/ports/cursor-codec.ts';
import type { KeyRing } from './key-ring.ts';

/**
 * Signed pagination cursors: `<payload>.<mac>`, both base64url. The payload holds only the
 * position; the MAC (HMAC-SHA256 under the configured cursor key) covers the payload, the
 * caller id and the query fingerprint, so a cursor edited, minted elsewhere, replayed by
 * another caller or moved to another query fails verification without revealing which.
 */
const VERSION = 1;
const MAX_CURSOR_LENGTH = 2048;

function mac(key: Buffer, scope: CursorScope, payload: string): Buffer {
  // Length-prefixed fields: no choice of caller id and query can collide with another.
  const fields = [scope.callerId, scope.query, payload].map((f) => `${Buffer.byteLength(f)}:${f}`).join('|');
  return createHmac('sha256', key).update(fields).digest();
}

export function signCursor(key: Buffer, scope: CursorScope, position: string): string {
  const payload = Buffer.from(JSON.stringify({ v: VERSION, p: position }), 'utf8').toString('base64url');
  return `${payload}.${mac(key, scope, payload).toString('base64url')}`;
}

/** The position inside a cursor; throws ValidationError naming `param` when it is not one we issued for this caller and query. */
export function verifyCursor(key: Buffer, scope: CursorScope, cursor: string, param = 'cursor'): string {
  const invalid = () => new ValidationError(param, `${param} is malformed, was altered, or belongs to another query; start again without it.`);
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) throw invalid();
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined || !/^[A-Za-z0-9_-]+$/.test(payload) || !/^[A-Za-z0-9_-]+$/.test(signature)) throw invalid();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, scope, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { v, p } = (decoded ?? {}) as { v?: unknown; p?: unknown };
  if (v !== VERSION || typeof p !== 'string') throw invalid();
  return p;
}

/**
 * The domain's CursorCodec over a key ring: new cursors are signed with the current key; a
 * cursor signed with the previous key (before a rotation) is still accepted, so a partner
 * paging through a list when the keys rotate is not sent back to the first page.
 */
export const hmacCursorCodec = (ring: KeyRing): CursorCodec => ({
  encode: (scope, position) => signCursor(ring.current, scope, position),
  decode: (scope, cursor) => {
    try {
      return verifyCursor(ring.current, scope, cursor);
    } catch (err) {
      if (!ring.previous || !(err instanceof ValidationError)) throw err;
      return verifyCursor(ring.previous, scope, cursor);
    }
  },
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { hmacCursorCodec, signCursor, verifyCursor } from '../../infra/crypto/cursor.ts';

const KEY = randomBytes(32);
const SCOPE = { callerId: 'partner-1', query: 'deliveries:ep-1:FAILED' };

/** The ValidationError verifyCursor throws, or a failure when it accepts the cursor. */
function refusal(cursor: string, scope = SCOPE, key = KEY): ValidationError {
  try {
    verifyCursor(key, scope, cursor);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error('cursor accepted');
}

describe('Function: verifyCursor', () => {
  it('returns the position a cursor was signed with', () => {
    const cursor = signCursor(KEY, SCOPE, '2026-03-01T10:00:00.000Z#d-1');

    expect(verifyCursor(KEY, SCOPE, cursor)).toBe('2026-03-01T10:00:00.000Z#d-1');
  });

  it('is opaque and URL-safe', () => {
    const cursor = signCursor(KEY, SCOPE, 'DELIVERY#secret-looking');

    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('DELIVERY');
  });

  it('refuses a cursor whose payload was edited', () => {
    const cursor = signCursor(KEY, SCOPE, 'a');
    const forged = `${Buffer.from(JSON.stringify({ v: 1, p: 'b' })).toString('base64url')}.${cursor.split('.')[1]}`;

    expect(refusal(forged).param).toBe('cursor');
  });

  it('refuses a cursor of another caller or another query', () => {
    const cursor = signCursor(KEY, SCOPE, 'a');

    expect(refusal(cursor, { ...SCOPE, callerId: 'partner-2' }).param).toBe('cursor');
    expect(refusal(cursor, { ...SCOPE, query: 'deliveries:ep-1:SUCCEEDED' }).param).toBe('cursor');
  });

  it('refuses a cursor signed with another key', () => {
    expect(refusal(signCursor(randomBytes(32), SCOPE, 'a')).param).toBe('cursor');
  });

  it.each(['', 'abc', 'a.b.c', '!!!.???', `${'a'.repeat(3000)}.b`])('refuses garbage %j', (garbage) => {
    expect(refusal(garbage).message).toContain('cursor');
  });
});

describe('Function: hmacCursorCodec during a key rotation', () => {
  const OLD = randomBytes(32);
  const NEW = randomBytes(32);
  const rotating = hmacCursorCodec({ current: NEW, previous: OLD });

  it('still accepts a cursor signed before the rotation with the previous key', () => {
    const before = hmacCursorCodec({ current: OLD }).encode(SCOPE, 'p-1');

    expect(rotating.decode(SCOPE, before)).toBe('p-1');
  });

  it('signs new cursors with the new key only', () => {
    const cursor = rotating.encode(SCOPE, 'p-2');

    expect(verifyCursor(NEW, SCOPE, cursor)).toBe('p-2');
    expect(refusal(cursor, SCOPE, OLD).param).toBe('cursor');
  });

  it('refuses a pre-rotation cursor once the previous key is dropped', () => {
    const before = hmacCursorCodec({ current: OLD }).encode(SCOPE, 'p-3');

    expect(() => hmacCursorCodec({ current: NEW }).decode(SCOPE, before)).toThrow(ValidationError);
  });

  it('refuses under both keys what neither signed, and another query under the previous key', () => {
    const before = hmacCursorCodec({ current: OLD }).encode(SCOPE, 'p-4');

    expect(() => rotating.decode(SCOPE, signCursor(randomBytes(32), SCOPE, 'p-4'))).toThrow(ValidationError);
    expect(() => rotating.decode({ ...SCOPE, callerId: 'partner-2' }, before)).toThrow(ValidationError);
  });
});

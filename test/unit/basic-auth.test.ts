import { describe, expect, it } from 'vitest';
import { parseBasicKey } from '../../functions/http/middleware/basic-auth.ts';

const KEY = 'pds_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCd';
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

describe('parseBasicKey', () => {
  it('returns the key from `Basic base64(<key>:)`', () => {
    expect(parseBasicKey(`Basic ${b64(`${KEY}:`)}`)).toBe(KEY);
  });

  it('accepts the scheme name in any case, as RFC 7617 requires', () => {
    expect(parseBasicKey(`basic ${b64(`${KEY}:`)}`)).toBe(KEY);
  });

  it('refuses a missing header', () => {
    expect(parseBasicKey(undefined)).toBeUndefined();
  });

  it('refuses an empty header', () => {
    expect(parseBasicKey('')).toBeUndefined();
  });

  it('refuses another scheme carrying the same credentials', () => {
    expect(parseBasicKey(`Bearer ${b64(`${KEY}:`)}`)).toBeUndefined();
  });

  it('refuses a bare key without base64', () => {
    expect(parseBasicKey(`Basic ${KEY}:`)).toBeUndefined();
  });

  it('refuses a value that is not base64', () => {
    expect(parseBasicKey('Basic !!!not-base64!!!')).toBeUndefined();
  });

  it('refuses a non-empty password', () => {
    expect(parseBasicKey(`Basic ${b64(`${KEY}:secret`)}`)).toBeUndefined();
  });

  it('refuses credentials without the colon', () => {
    expect(parseBasicKey(`Basic ${b64(KEY)}`)).toBeUndefined();
  });

  it('refuses a key with characters no key can contain', () => {
    expect(parseBasicKey(`Basic ${b64('pds_has space inside it:')}`)).toBeUndefined();
  });

  it('refuses a key with non-ASCII characters', () => {
    expect(parseBasicKey(`Basic ${b64('pds_clé_avec_accent_ok:')}`)).toBeUndefined();
  });

  it('refuses a key shorter than any key we accept', () => {
    expect(parseBasicKey(`Basic ${b64('short:')}`)).toBeUndefined();
  });

  it('refuses an empty key', () => {
    expect(parseBasicKey(`Basic ${b64(':')}`)).toBeUndefined();
  });
});

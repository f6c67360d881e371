import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../infra/crypto/secret-box.ts';

const box = new SecretBox(randomBytes(32));

/** Flips one bit of the base64url segment at `index` of a sealed value. */
function flipBit(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('SecretBox', () => {
  it('opens what it sealed under the same context', () => {
    const sealed = box.seal('whsec_example-secret', 'callback:group-1');

    expect(box.open(sealed, 'callback:group-1')).toBe('whsec_example-secret');
  });

  it('never stores the plaintext and never seals twice to the same text', () => {
    const first = box.seal('whsec_example-secret', 'callback:group-1');
    const second = box.seal('whsec_example-secret', 'callback:group-1');

    expect(first).not.toContain('whsec_example-secret');
    expect(first).not.toBe(second);
  });

  it('refuses to open a value under another context', () => {
    const sealed = box.seal('whsec_example-secret', 'callback:group-1');

    expect(() => box.open(sealed, 'callback:group-2')).toThrow();
  });

  it('refuses a tampered ciphertext', () => {
    const sealed = box.seal('whsec_example-secret', 'callback:group-1');

    expect(() => box.open(flipBit(sealed, 3), 'callback:group-1')).toThrow();
  });

  it('refuses a tampered authentication tag', () => {
    const sealed = box.seal('whsec_example-secret', 'callback:group-1');

    expect(() => box.open(flipBit(sealed, 2), 'callback:group-1')).toThrow();
  });

  it('refuses a value sealed under another key', () => {
    const sealed = new SecretBox(randomBytes(32)).seal('whsec_example-secret', 'callback:group-1');

    expect(() => box.open(sealed, 'callback:group-1')).toThrow();
  });

  it('refuses a value of an unknown version', () => {
    const sealed = box.seal('whsec_example-secret', 'callback:group-1').replace(/^v1\./, 'v9.');

    expect(() => box.open(sealed, 'callback:group-1')).toThrow('unrecognised sealed secret');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(RangeError);
  });
});

describe('SecretBox during a key rotation', () => {
  const OLD = randomBytes(32);
  const NEW = randomBytes(32);
  const rotating = new SecretBox({ current: NEW, previous: OLD });
  const sealedBefore = new SecretBox(OLD).seal('whsec_before', 'callback:group-1');

  it('opens a value sealed before the rotation with the previous key', () => {
    expect(rotating.open(sealedBefore, 'callback:group-1')).toBe('whsec_before');
  });

  it('seals new values with the new key only', () => {
    const sealed = rotating.seal('whsec_after', 'callback:group-1');

    expect(new SecretBox(NEW).open(sealed, 'callback:group-1')).toBe('whsec_after');
    expect(() => new SecretBox(OLD).open(sealed, 'callback:group-1')).toThrow();
  });

  it('reseals a previous-key value under the new key and leaves a current one alone', () => {
    const resealed = rotating.reseal(sealedBefore, 'callback:group-1');

    expect(resealed).toBeDefined();
    expect(new SecretBox(NEW).open(resealed!, 'callback:group-1')).toBe('whsec_before');
    expect(rotating.reseal(resealed!, 'callback:group-1')).toBeUndefined();
  });

  it('still refuses a value neither key sealed, and the right value under the wrong context', () => {
    expect(() => rotating.open(new SecretBox(randomBytes(32)).seal('x', 'c'), 'c')).toThrow();
    expect(() => rotating.reseal(sealedBefore, 'callback:group-2')).toThrow();
  });
});

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { keysOf, singleKey, type KeyRing } from './key-ring.ts';

const VERSION = 'v1';

/**
 * Encrypts secrets the service must use later (callback signing, webhook HMAC and auth)
 * with AES-256-GCM. The stored form is `v1.<iv>.<tag>.<ciphertext>` (base64url). Sealing
 * always uses the ring's current key; opening tries the current key and then, during a
 * rotation, the previous one (GCM's tag tells a wrong key apart, so no key id is stored).
 */
export class SecretBox {
  private readonly ring: KeyRing;

  constructor(keys: KeyRing | Buffer) {
    this.ring = Buffer.isBuffer(keys) ? singleKey(keys) : keys;
    for (const key of keysOf(this.ring)) if (key.length !== 32) throw new RangeError('SecretBox needs 32-byte keys');
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.ring.current, iv);
    // The context (e.g. the owning entity's id) is bound as AAD, so a ciphertext copied onto another record fails to open.
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    return this.openWithIndex(sealed, context).plaintext;
  }

  /**
   * The value sealed again under the current key when it was sealed under the previous one;
   * undefined when it already is current. Throws when no key of the ring opens it.
   */
  reseal(sealed: string, context: string): string | undefined {
    const { plaintext, index } = this.openWithIndex(sealed, context);
    return index === 0 ? undefined : this.seal(plaintext, context);
  }

  private openWithIndex(sealed: string, context: string): { plaintext: string; index: number } {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unrecognised sealed secret');
    const keys = keysOf(this.ring);
    for (const [index, key] of keys.entries()) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return { plaintext: Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8'), index };
      } catch (err) {
        if (index === keys.length - 1) throw err;
      }
    }
    throw new Error('unrecognised sealed secret');
  }
}

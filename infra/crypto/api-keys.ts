import { createHash, randomBytes } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniform base62 string from rejection-sampled random bytes (no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A fresh API key: `pds_` + 40 base62 characters. Printed once, stored only as its hash. */
export const generateApiKey = (): string => `pds_${randomBase62(40)}`;

/** A fresh callback signing secret; distinct in form from keys so the two are never confused. */
export const generateSigningSecret = (): string => `whsec_${randomBase62(40)}`;

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

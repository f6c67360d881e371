import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ConsoleTokens } from '../../domain/console/sign-in.ts';
import { sha256Hex } from './api-keys.ts';

/** 256-bit random tokens (sign-in links, session cookies, CSRF), stored only as SHA-256. */
export const consoleTokens: ConsoleTokens = {
  newToken: () => randomBytes(32).toString('base64url'),
  hash: sha256Hex,
  same: (a, b) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  },
};

import { randomUUID } from 'node:crypto';
import type { KeyMinter } from '../../domain/ports/key-minter.ts';
import { generateApiKey, generateSigningSecret, sha256Hex } from './api-keys.ts';

export const cryptoKeyMinter: KeyMinter = {
  newKeyId: () => `key_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
  newApiKey: generateApiKey,
  newSigningSecret: generateSigningSecret,
  hash: sha256Hex,
};

/** What a stored API key belongs to. */
export type KeyOwner = { readonly kind: 'partner'; readonly id: string } | { readonly kind: 'agent-group'; readonly id: string };

export interface RateLimitOverride {
  readonly perMinute: number;
  readonly burst: number;
}

/** A key as stored: never the key itself, only its SHA-256 and its first characters. */
export interface ApiKeyRecord {
  readonly keyId: string;
  readonly keyHash: string;
  readonly keyPrefix: string;
  readonly owner: KeyOwner;
  readonly status: 'ACTIVE' | 'REVOKED';
  readonly label: string | null;
  readonly rateLimit: RateLimitOverride | null;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** How many leading characters of a key are shown back (ping, admin listings). */
export const KEY_PREFIX_LENGTH = 12;

export const keyPrefixOf = (key: string): string => key.slice(0, KEY_PREFIX_LENGTH);

/** Keys we issue: `pds_` and 40 base62 characters (~238 bits). World files may bring their own on sandbox stages. */
export const ISSUED_KEY_PATTERN = /^pds_[A-Za-z0-9]{40}$/;

/** Anything acceptable as a key at all: printable, no colon (it would split the Basic pair), 16–128 chars. */
export const ACCEPTABLE_KEY_PATTERN = /^[\x21-\x39\x3b-\x7e]{16,128}$/;

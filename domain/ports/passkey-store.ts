import type { AuditDraft } from '../audit/audit-event.ts';

/** A person's passkey as stored: the public half only, never anything that could sign. */
export interface Passkey {
  /** The credential id the authenticator chose, base64url. */
  readonly credentialId: string;
  readonly personId: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  /** The authenticator's signature counter at its last use (0 when it keeps none). */
  readonly counter: number;
  readonly transports: readonly string[];
  /** The name the person gave it ("Work laptop"), for the list. */
  readonly label: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
}

/** A WebAuthn challenge handed to a browser: used once, before it expires, for its one purpose. */
export interface PasskeyChallenge {
  readonly challenge: string;
  /** Registration binds the challenge to the signed-in person; a sign-in challenge names nobody. */
  readonly purpose: { readonly kind: 'register'; readonly personId: string } | { readonly kind: 'sign-in' };
  readonly expiresAt: string;
}

/** Passkeys beside their person, and the challenges of ceremonies under way (single table in AWS). */
export interface PasskeyStore {
  putChallenge(challenge: PasskeyChallenge): Promise<void>;
  /** Uses the challenge up atomically: the first caller gets it, every later one (and a missing one) undefined. */
  takeChallenge(challenge: string): Promise<PasskeyChallenge | undefined>;
  /** Fails with ConflictError when the credential id is already registered (to anyone); the audit event commits with it. */
  addPasskey(passkey: Passkey, audit: AuditDraft): Promise<void>;
  getPasskey(credentialId: string): Promise<Passkey | undefined>;
  listPasskeys(personId: string): Promise<Passkey[]>;
  /** Records a use: the new counter, only while the stored one is still `previous` (of two racing uses of a cloned key, one loses). */
  recordUse(passkey: Passkey, previous: number, counter: number, at: string): Promise<boolean>;
  /** Removes the person's passkey with its audit event; false when the person has no such passkey. */
  removePasskey(personId: string, credentialId: string, audit: AuditDraft): Promise<boolean>;
}

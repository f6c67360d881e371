/** One stored secret, sealed under a key of the stage's secrets key ring. */
export interface SealedField {
  /** Where it lives, opaque to the domain (the adapter's key and attribute). */
  readonly ref: unknown;
  /** What kind of record holds it, for the operator's summary. */
  readonly kind: 'callback-secret' | 'webhook-auth' | 'webhook-signing';
  /** The AAD the value was sealed with (callbackSecretContext, secretContext). */
  readonly context: string;
  readonly sealed: string;
}

/** Every sealed secret the service stores, and a compare-and-swap to re-seal one. */
export interface SealedSecretStore {
  list(): AsyncIterable<SealedField>;
  /** Writes `resealed` only if the field still holds `field.sealed`; false when it changed meanwhile. */
  replace(field: SealedField, resealed: string): Promise<boolean>;
}

/** Opens a value under the ring's keys and, when the previous key sealed it, seals it again under the current one. */
export interface Resealer {
  /** The value under the current key, or undefined when it already is; throws when no key opens it. */
  reseal(sealed: string, context: string): string | undefined;
}

/** Randomness and hashing for credentials, kept behind a port so the domain stays pure. */
export interface KeyMinter {
  newKeyId(): string;
  newApiKey(): string;
  newSigningSecret(): string;
  hash(key: string): string;
}

export interface SecretSealer {
  seal(plaintext: string, context: string): string;
}

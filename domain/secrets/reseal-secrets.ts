import type { Resealer, SealedField, SealedSecretStore } from '../ports/sealed-secrets.ts';

export interface ResealDeps {
  readonly store: SealedSecretStore;
  readonly resealer: Resealer;
}

export interface ResealSummary {
  /** Sealed values looked at. */
  readonly examined: number;
  /** Moved from the previous key to the current one. */
  readonly resealed: number;
  /** Already under the current key. */
  readonly current: number;
  /** Changed by someone else between read and write; they were sealed by the service itself, so under the current key. */
  readonly changedMeanwhile: number;
  /** Opened by no key of the ring: kind and context, never the value. */
  readonly unreadable: readonly { kind: SealedField['kind']; context: string }[];
}

/**
 * The step of a secrets-key rotation that makes the old key unnecessary: every stored secret
 * still sealed under the previous key is sealed again under the current one. Run with the
 * ring `<new>,<old>`; afterwards the old key can be dropped (docs/deploy.md "Key rotation").
 * Rerunning it is harmless: a value already under the current key is left alone.
 */
export async function resealSecrets(deps: ResealDeps): Promise<ResealSummary> {
  let examined = 0;
  let resealed = 0;
  let current = 0;
  let changedMeanwhile = 0;
  const unreadable: { kind: SealedField['kind']; context: string }[] = [];
  for await (const field of deps.store.list()) {
    examined += 1;
    let next: string | undefined;
    try {
      next = deps.resealer.reseal(field.sealed, field.context);
    } catch {
      unreadable.push({ kind: field.kind, context: field.context });
      continue;
    }
    if (next === undefined) {
      current += 1;
    } else if (await deps.store.replace(field, next)) {
      resealed += 1;
    } else {
      // A write by the service itself in between: that one used the current key already.
      changedMeanwhile += 1;
    }
  }
  return { examined, resealed, current, changedMeanwhile, unreadable };
}

/**
 * The keys one purpose (cursor signing, secret sealing) accepts. `current` signs and seals
 * everything new; `previous` is only ever read, during a rotation window, so cursors and
 * sealed secrets made before the rotation keep working until they are re-made or expire.
 */
export interface KeyRing {
  readonly current: Buffer;
  readonly previous?: Buffer;
}

/** current first, then previous: the order every reader tries them in. */
export const keysOf = (ring: KeyRing): readonly Buffer[] => (ring.previous ? [ring.current, ring.previous] : [ring.current]);

/** A ring of one key: a stage outside a rotation. */
export const singleKey = (key: Buffer): KeyRing => ({ current: key });

/** When a stored catalogue record first appeared and last changed in content. */
export interface Versioned {
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type Stored<T> = T & Versioned;

export type Change = 'created' | 'updated' | 'unchanged';

/**
 * A record's content as a canonical string: keys sorted, `undefined` dropped, timestamps
 * left out. DynamoDB returns maps in any order and drops undefined attributes, so this is
 * the comparison that survives a round trip through the table.
 */
export function contentOf(value: unknown): string {
  return JSON.stringify(canonical(value, true));
}

function canonical(value: unknown, top: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => canonical(v, false));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      if (top && (key === 'createdAt' || key === 'updatedAt')) continue;
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonical(v, false);
    }
    return out;
  }
  return value;
}

export function sameContent(a: unknown, b: unknown): boolean {
  return contentOf(a) === contentOf(b);
}

/**
 * The record to store for `next`: the stored one untouched when the content is the same
 * (so re-importing changes no timestamp), otherwise `next` keeping the first createdAt and
 * stamped updatedAt = now.
 */
export function reconcile<T extends object>(stored: Stored<T> | undefined, next: T, now: string): { record: Stored<T>; change: Change } {
  if (!stored) return { record: { ...next, createdAt: now, updatedAt: now }, change: 'created' };
  if (sameContent(stored, next)) return { record: stored, change: 'unchanged' };
  return { record: { ...next, createdAt: stored.createdAt, updatedAt: now }, change: 'updated' };
}

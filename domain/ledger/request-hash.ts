/** A SHA-256 of UTF-8 text as lowercase hex; infra supplies it so the domain stays pure. */
export type Sha256Hex = (text: string) => string;

/**
 * JSON with object keys sorted at every depth and undefined members dropped, so two requests
 * that differ only in key order or in omitted-versus-undefined fields read the same. Array
 * order is kept: it is part of the request (guest positions, date lists).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`cannot hash a ${typeof value}`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const members = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`);
  return `{${members.join(',')}}`;
}

/**
 * The content hash stored beside an idempotency key: a replay with the same key and hash is
 * the same request; the same key with another hash is a different request reusing the key.
 */
export function requestContentHash(request: unknown, sha256: Sha256Hex): string {
  return sha256(canonicalJson(request));
}

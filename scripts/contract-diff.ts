import { readFileSync } from 'node:fs';
import { inlinedDocument } from '../functions/openapi/refs.ts';

/**
 * The partner-visible contract of an OpenAPI document, and what changed in it since the last
 * release (docs/versioning.md). The released document is kept in the repository
 * (docs/openapi.released.json) rather than read from a tag, so a fresh clone without tags
 * checks the same thing.
 */
type Json = Record<string, unknown>;

export const RELEASED_FILE = new URL('../docs/openapi.released.json', import.meta.url);
export const CHANGELOG_FILE = new URL('../CHANGELOG.md', import.meta.url);

/** Prose annotations: rewording them changes no request or answer, so it needs no changelog line. */
const PROSE = new Set(['description', 'summary', 'title', 'examples', 'example', 'tags']);

/** The value without its prose; a `properties` map keeps every key, since a field may be named `description`. */
function withoutProse(value: unknown, inProperties = false): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutProse(v));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) {
    if (!inProperties && PROSE.has(k)) continue;
    out[k] = withoutProse(v, !inProperties && k === 'properties');
  }
  return out;
}

/** One entry per operation (`GET /v1/ledger`) and per call we make (`webhook bookingOutcome`), each its contract as canonical text. */
export function contractOf(named: Json): Map<string, string> {
  // Components inlined: naming a shape changes no request or answer; a change inside one changes every operation using it.
  const document = inlinedDocument(named);
  const out = new Map<string, string>();
  for (const [path, ops] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    for (const [method, op] of Object.entries(ops)) out.set(`${method.toUpperCase()} ${path}`, JSON.stringify(withoutProse(op)));
  }
  for (const [name, item] of Object.entries((document.webhooks ?? {}) as Record<string, Json>)) out.set(`webhook ${name}`, JSON.stringify(withoutProse(item)));
  out.set('security schemes', JSON.stringify(withoutProse((document.components as Json | undefined)?.securitySchemes ?? {})));
  return out;
}

export interface ContractChange {
  readonly key: string;
  readonly change: 'added' | 'removed' | 'changed';
}

/** What differs between two documents' contracts, in key order. */
export function contractChanges(released: Json, current: Json): ContractChange[] {
  const before = contractOf(released);
  const after = contractOf(current);
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  return keys.flatMap((key): ContractChange[] => {
    if (!before.has(key)) return [{ key, change: 'added' }];
    if (!after.has(key)) return [{ key, change: 'removed' }];
    return before.get(key) === after.get(key) ? [] : [{ key, change: 'changed' }];
  });
}

/** The text of the changelog's `## Unreleased` section: what the next release will say. */
export function unreleasedSection(changelog: string): string {
  const match = /^## Unreleased[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(changelog);
  if (!match) throw new Error('CHANGELOG.md has no "## Unreleased" section');
  return match[1]!;
}

/**
 * The contract changes the changelog does not mention: each changed operation must be named in
 * `## Unreleased` as `METHOD /path` (a webhook by its name), so a partner reading the changelog
 * learns of every change to what it calls.
 */
export function unmentionedChanges(changes: readonly ContractChange[], changelog: string): ContractChange[] {
  const unreleased = unreleasedSection(changelog);
  return changes.filter((c) => !unreleased.includes(c.key.replace(/^webhook /, '')));
}

export const readJson = (url: URL): Json => JSON.parse(readFileSync(url, 'utf8')) as Json;

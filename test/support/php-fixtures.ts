import { readFileSync } from 'node:fs';

/** A fixture of the public PHP implementation (test/fixtures/channex/README.md). */
export interface PhpFixture {
  readonly source: { readonly repository: string; readonly commit: string; readonly path: string; readonly test: string };
  readonly kind: 'changes' | 'mapping_details' | 'test_connection' | 'new_booking';
  readonly body: any;
  readonly theirAnswer: any;
}

/**
 * Reads a fixture with its ids replaced by ours (`ids`: their id → ours, matched as whole JSON
 * strings) and, when `datesTo` is given, its 2024 dates moved to the same day and month `datesTo`
 * names (a year-month such as 2027-04).
 */
export function phpFixture(name: string, ids: Readonly<Record<string, string>> = {}, datesTo?: string): PhpFixture {
  let text = readFileSync(new URL(`../fixtures/channex/${name}`, import.meta.url), 'utf8');
  for (const [theirs, ours] of Object.entries(ids)) text = text.replaceAll(JSON.stringify(theirs), JSON.stringify(ours));
  if (datesTo) text = text.replace(/"2024-\d{2}-(\d{2})"/g, (_, day: string) => `"${datesTo}-${day}"`);
  return JSON.parse(text) as PhpFixture;
}

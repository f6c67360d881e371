import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DOC = join(import.meta.dirname, '../../docs/console.md');

describe('docs/console.md', () => {
  it('links only to screenshots that are committed (the browser journey takes them)', () => {
    const images = [...readFileSync(DOC, 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((src) => !existsSync(join(dirname(DOC), src)))).toEqual([]);
  });
});

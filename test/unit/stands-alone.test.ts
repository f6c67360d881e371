import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands alone: someone who clones it has nothing beside it, so no file may
 * send a reader to a document outside it. Product rules live in docs/product-rules.md and
 * the area docs; the partner contract is docs/openapi.json.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = relative(ROOT, fileURLToPath(import.meta.url));

/**
 * The sibling folder a clone does not have, spelled from its parts so that this file, which
 * must name it to look for it, does not itself point there.
 */
const SIBLING = ['..', 'shared'].join('/');

/** A path out of the repository, or a citation of a document that only exists outside it ("SPEC §3", "PRODUCT.md"). */
const OUTSIDE = new RegExp(`${SIBLING.replace(/\./g, '\\.')}|shared\\/spec|\\b(?:SPEC|PRODUCT|DESIGN|STYLE)\\.md\\b|\\b(?:SPEC|PRODUCT|DESIGN|STYLE)\\b`);

/** Tracked files and new ones not yet added (ignored ones excluded); without git, every file outside node_modules and .git. */
function repositoryFiles(): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return out.split('\0').filter(Boolean);
  } catch {
    const walk = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
        const path = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) return e.name === 'node_modules' || e.name === '.git' ? [] : walk(path);
        return e.isFile() ? [path] : [];
      });
    return walk('');
  }
}

/** Lines of a text file that point outside the repository, as `path:line: text`. */
function outsideReferences(path: string, text: string): string[] {
  if (text.includes('\0')) return [];
  return text.split('\n').flatMap((line, i) => (OUTSIDE.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : []));
}

describe('The repository stands alone', () => {
  it('finds the references it forbids, and not the words that merely contain them', () => {
    expect(outsideReferences('a.md', `The contract is \`${SIBLING}/spec/SPEC.md\`.`)).toEqual([`a.md:1: The contract is \`${SIBLING}/spec/SPEC.md\`.`]);
    expect(outsideReferences('b.ts', 'ok\n// answers are in PRODUCT.md "Bookings"')).toEqual(['b.ts:2: // answers are in PRODUCT.md "Bookings"']);
    expect(outsideReferences('c.ts', '/** 409 (SPEC rule 1) */')).toHaveLength(1);
    expect(outsideReferences('d.md', 'see DESIGN.md and STYLE.md')).toHaveLength(1);
    expect(outsideReferences('e.ts', 'const PRODUCTION = 1; // a spec object; shared helpers; docs/product-rules.md')).toEqual([]);
    expect(outsideReferences('f.pdf', 'SPEC.md\0binary')).toEqual([]);
  });

  it('has no file that points at the sibling shared folder, the spec or the product notes outside it', () => {
    const files = repositoryFiles().filter((f) => f !== SELF);
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((f) => {
      let text: string;
      try {
        text = readFileSync(join(ROOT, f), 'utf8');
      } catch {
        // Listed by git but deleted in the work tree: nothing to read.
        return [];
      }
      return outsideReferences(f, text);
    });
    expect(hits, 'say the rule in docs/ (docs/product-rules.md or the area doc) and cite that instead').toEqual([]);
  });
});

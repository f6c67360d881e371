import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FONT_FILES, FONT_PACKAGE_DIR, fontPath } from '../infra/pdf/pdf-invoice-renderer.ts';
import { REDOC_BUNDLE } from '../functions/system/docs-page.ts';
import { ROOT } from './local-stack.ts';

/**
 * After `serverless package`: every function artifact whose bundle carries the PDF renderer
 * must also carry its fonts where the bundle resolves them at run time. For each such
 * artifact the zip is extracted and the fonts are resolved exactly as the renderer does
 * (Node's resolution from the bundle's own file), then compared byte for byte with the
 * package's files. A bundle that cannot find them fails here instead of on the first PDF in
 * the cloud. The docs page's Redoc bundle is checked the same way. Usage: `npx tsx scripts/check-packaged-fonts.ts [.serverless]`.
 */
const dir = process.argv[2] ?? join(ROOT, '.serverless');
const unzip = (args: string[]): string => {
  const out = spawnSync('unzip', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (out.error || out.status !== 0) throw new Error(`unzip ${args.join(' ')} failed: ${out.error?.message ?? out.stderr}`);
  return out.stdout;
};

const zips = readdirSync(dir).filter((f) => f.endsWith('.zip'));
if (zips.length === 0) throw new Error(`no function artifacts in ${dir}: run \`npx serverless package --stage ci\` first`);
const failures: string[] = [];
let rendering = 0;
for (const zip of zips) {
  const path = join(dir, zip);
  const bundles = unzip(['-Z1', path])
    .split('\n')
    .filter((e) => e.endsWith('.mjs'));
  const needing = bundles.filter((b) => unzip(['-p', path, b]).includes(FONT_PACKAGE_DIR));
  if (needing.length === 0) continue;
  rendering++;
  const into = mkdtempSync(join(tmpdir(), 'artifact-'));
  try {
    unzip(['-q', path, '-d', into]);
    for (const bundle of needing) {
      for (const file of Object.values(FONT_FILES)) {
        let resolved: string;
        try {
          resolved = fontPath(file, pathToFileURL(join(into, bundle)).href);
        } catch {
          failures.push(`${zip}: ${bundle} cannot resolve ${FONT_PACKAGE_DIR}${file} (add \`package: { patterns: \${self:custom.pdfFontPatterns} }\` to the function)`);
          continue;
        }
        if (!resolved.startsWith(into)) failures.push(`${zip}: ${bundle} resolves ${file} outside its artifact (${resolved})`);
        else if (!readFileSync(resolved).equals(readFileSync(fontPath(file)))) failures.push(`${zip}: ${relative(into, resolved)} differs from the package's ${file}`);
        else console.log(`${zip}: ${bundle} → ${relative(into, resolved)}`);
      }
    }
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
}
// Resolution from a file outside any node_modules tree must fail, or the check above proves nothing.
const outside = mkdtempSync(join(tmpdir(), 'no-fonts-'));
try {
  createRequire(pathToFileURL(join(outside, 'probe.mjs')).href).resolve(`${FONT_PACKAGE_DIR}${FONT_FILES.regular}`);
  failures.push(`fonts resolve from ${outside}, so the check cannot tell an artifact without them`);
} catch {
  // expected: nothing above the temp directory provides the package
} finally {
  rmSync(outside, { recursive: true, force: true });
}
// The docs page reads Redoc's standalone bundle from its artifact at the first request (functions/system/docs.ts).
let docsPages = 0;
for (const zip of zips) {
  const path = join(dir, zip);
  const needing = unzip(['-Z1', path])
    .split('\n')
    .filter((e) => e.endsWith('.mjs') && unzip(['-p', path, e]).includes(REDOC_BUNDLE));
  if (needing.length === 0) continue;
  docsPages++;
  const into = mkdtempSync(join(tmpdir(), 'artifact-'));
  try {
    unzip(['-q', path, '-d', into]);
    for (const bundle of needing) {
      let resolved: string;
      try {
        resolved = createRequire(pathToFileURL(join(into, bundle)).href).resolve(REDOC_BUNDLE);
      } catch {
        failures.push(`${zip}: ${bundle} cannot resolve ${REDOC_BUNDLE} (the docs function's package.patterns)`);
        continue;
      }
      if (!resolved.startsWith(into)) failures.push(`${zip}: ${bundle} resolves ${REDOC_BUNDLE} outside its artifact (${resolved})`);
      else if (!readFileSync(resolved).equals(readFileSync(createRequire(join(ROOT, 'package.json')).resolve(REDOC_BUNDLE)))) failures.push(`${zip}: ${relative(into, resolved)} differs from the package's`);
      else console.log(`${zip}: ${bundle} → ${relative(into, resolved)}`);
    }
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
}
if (docsPages === 0) failures.push(`no artifact reads ${REDOC_BUNDLE}: the docs function's bundle no longer names it`);
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log(`fonts: ${rendering} of ${zips.length} function artifacts render PDFs, each finds both font files`);

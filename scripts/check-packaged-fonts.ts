import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FONT_FILES, FONT_PACKAGE_DIR, fontPath } from '../infra/pdf/pdf-layout.ts';
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

interface Packaged {
  /** What the check calls the file in its messages. */
  readonly name: string;
  /** Resolves the file as the bundle does at run time, from the bundle's URL. */
  readonly resolve: (fromUrl: string) => string;
  /** The project's own copy, which the artifact's must equal. */
  readonly expected: string;
  /** What to do when a bundle cannot resolve it. */
  readonly hint: string;
}

/**
 * Every artifact with a bundle whose text names `marker` must carry `files` where that bundle
 * resolves them, inside the artifact, byte for byte the project's. Returns how many artifacts
 * need them.
 */
function checkPackaged(marker: string, files: readonly Packaged[]): number {
  let needed = 0;
  for (const zip of zips) {
    const path = join(dir, zip);
    const needing = unzip(['-Z1', path])
      .split('\n')
      .filter((e) => e.endsWith('.mjs') && unzip(['-p', path, e]).includes(marker));
    if (needing.length === 0) continue;
    needed++;
    const into = mkdtempSync(join(tmpdir(), 'artifact-'));
    try {
      unzip(['-q', path, '-d', into]);
      for (const bundle of needing) {
        for (const file of files) {
          let resolved: string;
          try {
            resolved = file.resolve(pathToFileURL(join(into, bundle)).href);
          } catch {
            failures.push(`${zip}: ${bundle} cannot resolve ${file.name} (${file.hint})`);
            continue;
          }
          if (!resolved.startsWith(into)) failures.push(`${zip}: ${bundle} resolves ${file.name} outside its artifact (${resolved})`);
          else if (!readFileSync(resolved).equals(readFileSync(file.expected)))
            failures.push(`${zip}: ${relative(into, resolved)} differs from the package's ${file.name}`);
          else console.log(`${zip}: ${bundle} → ${relative(into, resolved)}`);
        }
      }
    } finally {
      rmSync(into, { recursive: true, force: true });
    }
  }
  return needed;
}

const rendering = checkPackaged(
  FONT_PACKAGE_DIR,
  Object.values(FONT_FILES).map((file) => ({
    name: `${FONT_PACKAGE_DIR}${file}`,
    resolve: (fromUrl) => fontPath(file, fromUrl),
    expected: fontPath(file),
    hint: "add `package: pdfFonts` to the function's manifest (functions/manifests/)",
  })),
);
// The docs page reads Redoc's standalone bundle from its artifact at the first request (functions/system/docs.ts).
const resolveRedoc = (fromUrl: string) => createRequire(fromUrl).resolve(REDOC_BUNDLE);
const docsPages = checkPackaged(REDOC_BUNDLE, [
  {
    name: REDOC_BUNDLE,
    resolve: resolveRedoc,
    expected: resolveRedoc(pathToFileURL(join(ROOT, 'package.json')).href),
    hint: "the docs function's package.patterns",
  },
]);
if (docsPages === 0) failures.push(`no artifact reads ${REDOC_BUNDLE}: the docs function's bundle no longer names it`);
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
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log(`fonts: ${rendering} of ${zips.length} function artifacts render PDFs, each finds both font files; Redoc: ${docsPages} artifact(s) find it`);

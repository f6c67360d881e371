import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { esbuildOptions, stageBuild, stageFunctions } from '../bench/cold-load.ts';
import { ROOT } from './local-stack.ts';

/**
 * Where serverless-esbuild packs and serves the bundles from (custom.esbuild.outputWorkFolder:
 * ESBUILD_WORK_FOLDER, else `.esbuild`), and where `serverless offline` reads them with
 * ESBUILD_PREBUILT (scripts/serverless-prebuilt-bundles.cjs).
 */
export const WORK_FOLDER = process.env.ESBUILD_WORK_FOLDER || '.esbuild';
export const BUILD_DIR = join(ROOT, WORK_FOLDER, '.build');
export const METAFILE = join(ROOT, WORK_FOLDER, 'metafile.json');

/**
 * Every function of serverless.yml bundled in one esbuild pass, with the stage's settings
 * (custom.esbuild): one bundle per handler, as serverless-esbuild makes them (no code
 * splitting; `functions/x/y.ts` → `.esbuild/.build/functions/x/y.mjs`), and one metafile that
 * lists what each bundle holds. One pass parses every shared module once; serverless-esbuild
 * bundles function by function. `write: false` builds in memory (the cold-start import check
 * reads only the metafile).
 */
export async function buildFunctions(opts: { write?: boolean } = {}): Promise<{ metafile: Metafile; entries: number; ms: number }> {
  const started = performance.now();
  const { esbuild } = stageBuild();
  const entryPoints = stageFunctions().map((f) => join(ROOT, `${f.module}.ts`));
  const write = opts.write ?? true;
  const { metafile } = await build({
    ...esbuildOptions(esbuild),
    entryPoints,
    outbase: ROOT,
    outdir: BUILD_DIR,
    outExtension: { '.js': esbuild.outputFileExtension },
    write,
    metafile: true,
    absWorkingDir: ROOT,
  });
  if (write) {
    mkdirSync(join(ROOT, WORK_FOLDER), { recursive: true });
    writeFileSync(METAFILE, JSON.stringify(metafile));
  }
  return { metafile, entries: entryPoints.length, ms: performance.now() - started };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { entries, ms } = await buildFunctions();
  console.log(`${entries} functions bundled in one pass in ${(ms / 1000).toFixed(1)} s → ${BUILD_DIR} (metafile ${METAFILE})`);
}

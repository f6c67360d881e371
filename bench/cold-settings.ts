import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { ROOT } from '../scripts/local-stack.ts';
import { buildFloor, esbuildOptions, floorKey, loadTime, PairedSamples, stageBuild, stageFunctions, targetOf, type StageBuild } from './cold-load.ts';

/**
 * `npx tsx bench/cold-settings.ts`: chooses the bundle settings by measurement. Builds a few
 * handlers (one per class: ping, a booking route, the docs page, billing, the PDF route) with
 * esbuild as serverless-esbuild does, once per variant of the stage's settings (one setting
 * changed at a time), and measures each handler's module load next to its SDK floor built with
 * the same variant: paired samples in fresh Node processes, medians. No packaging, so it is
 * cheap enough to try many settings; `npm run bench:cold` then confirms on the packaged stage.
 * `--fns a,b` picks the functions, `--samples N` (default 5), `--variants a,b` some variants,
 * `--meta` prints what dominates each handler's bundle (bytes per package or project folder).
 */
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const SAMPLES = Number(option('--samples') ?? 5);
const FNS = (option('--fns') ?? 'system,bookings,accounts,invoicePdf').split(',');

type Settings = StageBuild['esbuild'];
interface Variant {
  readonly name: string;
  readonly settings: (s: Settings) => Settings;
  readonly nodeOptions?: string;
  readonly splitting?: boolean;
}
const VARIANTS: Variant[] = [
  { name: 'stage', settings: (s) => s },
  { name: 'source maps linked + --enable-source-maps (before)', settings: (s) => ({ ...s, sourcemap: 'linked' }), nodeOptions: '--enable-source-maps' },
  { name: 'source maps linked, no --enable-source-maps', settings: (s) => ({ ...s, sourcemap: 'linked' }), nodeOptions: '' },
  { name: 'source maps inline + --enable-source-maps', settings: (s) => ({ ...s, sourcemap: 'inline' }), nodeOptions: '--enable-source-maps' },
  { name: 'minify', settings: (s) => ({ ...s, minify: true }) },
  { name: 'treeShaking false', settings: (s) => ({ ...s, treeShaking: false }) },
  { name: 'mainFields module,main', settings: (s) => ({ ...s, mainFields: ['module', 'main'] }) },
  { name: 'format cjs', settings: (s) => ({ ...s, format: 'cjs', banner: undefined, outputFileExtension: '.cjs' }) },
  // The floor bundles the SDK too, so the comparison stays like for like.
  { name: 'SDK bundled (floor too)', settings: (s) => ({ ...s, exclude: [] }) },
  { name: 'splitting (esm chunks)', settings: (s) => s, splitting: true },
];
const picked = option('--variants')?.split(',');
const variants = picked ? VARIANTS.filter((v, i) => picked.includes(String(i)) || picked.includes(v.name)) : VARIANTS;

const stage = stageBuild();
const fns = stageFunctions().filter((f) => FNS.includes(f.name));
const work = mkdtempSync(join(tmpdir(), 'cold-settings-'));
try {
  // The Lambda runtime's SDK, for what a bundle leaves external.
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules', '@aws-sdk'), join(work, 'node_modules', '@aws-sdk'));
  console.log(
    `cold module load by bundle setting, median of ${SAMPLES} paired samples (floor, then handler, fresh processes; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${process.version})`,
  );
  console.log(`| setting | ${fns.map((f) => `${f.name} (${f.kind}, ${floorKey(f.sdks)}): ms · floor ms · × (cpu ×)`).join(' | ')} |`);
  console.log(`|---|${fns.map(() => '---').join('|')}|`);
  for (const [i, variant] of variants.entries()) {
    const settings = variant.settings(stage.esbuild);
    const nodeOptions = variant.nodeOptions ?? stage.nodeOptions;
    const dir = join(work, String(i));
    const cells: string[] = [];
    for (const f of fns) {
      const floor = await buildFloor(join(dir, 'floor', f.name), floorKey(f.sdks), settings);
      const outdir = join(dir, 'fn', f.name);
      const entryName = f.module;
      const result = await build({
        ...esbuildOptions(settings),
        entryPoints: { [entryName]: join(ROOT, `${f.module}.ts`) },
        outdir,
        outExtension: { '.js': settings.outputFileExtension },
        splitting: variant.splitting ?? false,
        metafile: true,
      });
      const bundle = join(outdir, `${entryName}${settings.outputFileExtension}`);
      if (args.includes('--meta') && i === 0) printMeta(f.name, result.metafile);
      try {
        const samples = new PairedSamples();
        for (let s = 0; s < SAMPLES; s++) {
          const fl = loadTime(floor, work, nodeOptions);
          samples.add(fl, loadTime(bundle, work, nodeOptions));
        }
        const { load, floor: floorMs, ratio, cpuRatio } = samples.medians();
        const target = targetOf(f.kind);
        cells.push(`${load.toFixed(0)} · ${floorMs.toFixed(0)} · ${ratio.toFixed(2)} (cpu ${cpuRatio.toFixed(2)})${target && ratio <= target ? ' ✓' : ''}`);
      } catch (err) {
        cells.push(
          `fails to load (${
            String((err as Error).message)
              .split('\n')
              .find((l) => /Error/.test(l))
              ?.trim()
              .slice(0, 60) ?? 'error'
          })`,
        );
      }
    }
    console.log(`| ${variant.name} | ${cells.join(' | ')} |`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The bundle's bytes by package (node_modules/<pkg>) or project folder (two levels), largest first. */
function printMeta(name: string, meta: Metafile): void {
  const bytes = new Map<string, number>();
  for (const output of Object.values(meta.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
      const key = pkg ?? path.split('/').slice(0, 2).join('/');
      bytes.set(key, (bytes.get(key) ?? 0) + bytesInOutput);
    }
  }
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  const top = [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 14);
  console.log(`${name}: ${(total / 1024).toFixed(0)} KiB: ${top.map(([k, b]) => `${k} ${(b / 1024).toFixed(0)}`).join(', ')}`);
}

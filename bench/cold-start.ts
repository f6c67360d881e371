import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../scripts/local-stack.ts';
import { buildFloor, floorKey, loadTime, PairedSamples, stageBuild, stageFunctions, targetOf, type StageFunction } from './cold-load.ts';

/**
 * `npm run bench:cold`: packages the stage as the pipeline does (`serverless package --stage
 * ci`), unpacks every function artifact and measures each handler's module-load time (the
 * `import()` of its bundle, in a fresh Node process with the stage's NODE_OPTIONS), next to its
 * SDK floor measured in the same run: a file that imports only the AWS SDK clients the function
 * uses, built with the same esbuild settings. What a function uses is read from its IAM grants
 * in serverless.yml (dynamodb:* → the DynamoDB client and lib-dynamodb, sqs:* → SQS, s3:* → S3),
 * not from its bundle, so a bundle that loads a client it never calls shows as a higher ratio.
 * The runtime's own SDK (Lambda ships v3) sits in a node_modules above the unpacked artifacts,
 * for whatever a bundle leaves external. A function granted no AWS call has no floor of its own
 * and is held to the lightest one (DynamoDB's).
 *
 * Targets (docs/performance.md): an HTTP handler ≤ 1.5 × its floor, a function that renders
 * PDFs (its artifact carries the fonts) ≤ 2 ×; workers are listed without a target. Each sample
 * loads the floor and then the handler, back to back, so a ratio compares two loads made under
 * the same machine load; a handler's figures are the medians of its samples (ratio included).
 * The artifacts stay in `<tmp>/pds-cold-package`; `--reuse <dir>` measures artifacts packaged
 * before; `--samples N` (default 7).
 */
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const SAMPLES = Number(option('--samples') ?? 7);

interface Fn extends StageFunction {
  readonly bundle: string;
}

const { esbuild: esb, nodeOptions } = stageBuild();

const work = mkdtempSync(join(tmpdir(), 'cold-start-'));
try {
  const artifacts = option('--reuse') ?? packageStage(join(tmpdir(), 'pds-cold-package'));
  // The Lambda runtime's SDK: external imports resolve here, above every unpacked artifact.
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules', '@aws-sdk'), join(work, 'node_modules', '@aws-sdk'));

  const fns = functionsOf(artifacts);
  const floors = new Map<string, string>();
  for (const key of new Set(fns.map((f) => floorKey(f.sdks)))) floors.set(key, await buildFloor(join(work, 'floor', key), key, esb));

  const samples = new Map(fns.map((f) => [f.name, new PairedSamples()]));
  for (let round = 0; round < SAMPLES; round++) {
    for (const f of fns) {
      const floor = loadTime(floors.get(floorKey(f.sdks))!, work, nodeOptions);
      samples.get(f.name)!.add(floor, loadTime(f.bundle, work, nodeOptions));
    }
  }

  console.log(
    `cold module load, median of ${SAMPLES} paired samples (floor, then handler, each a fresh process; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )}; ${process.version}; NODE_OPTIONS=${nodeOptions || '(none)'}; esbuild minify=${esb.minify ?? false} sourcemap=${esb.sourcemap ?? false} external=${(esb.exclude ?? []).join(',') || '(none)'})`,
  );
  let worst: { name: string; ratio: number; target: number } | undefined;
  let targeted = 0;
  let missed = 0;
  for (const f of [...fns].sort((a, b) => a.name.localeCompare(b.name))) {
    const key = floorKey(f.sdks);
    const { load, floor, ratio, cpuRatio } = samples.get(f.name)!.medians();
    const target = targetOf(f.kind);
    const verdict = target === undefined ? 'no target' : ratio <= target ? 'met' : 'missed';
    if (target !== undefined) {
      targeted++;
      if (ratio > target) missed++;
      if (!worst || ratio / target > worst.ratio / worst.target) worst = { name: f.name, ratio, target };
    }
    const floorName = f.sdks.length ? key : `${key} (uses no AWS client)`;
    // The CPU ratio is for reading a run on a busy machine; the target is the wall ratio.
    console.log(
      `${f.name.padEnd(24)} ${f.kind.padEnd(6)} load ${load.toFixed(1).padStart(6)} ms  floor ${floorName} ${floor.toFixed(1)} ms  ratio ${ratio.toFixed(2)} × (cpu ${cpuRatio.toFixed(2)} ×)  target ${target === undefined ? '—' : `≤ ${target} ×`}  ${verdict}`,
    );
  }
  console.log(
    worst
      ? `worst: ${worst.name} ${worst.ratio.toFixed(2)} × its floor (target ≤ ${worst.target} ×); ${missed === 0 ? 'every target met' : `${missed} of ${targeted} targets missed`}`
      : 'no targeted function found',
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

function packageStage(into: string): string {
  console.error(`packaging the ci stage into ${into} …`);
  rmSync(into, { recursive: true, force: true });
  const out = spawnSync(join(ROOT, 'node_modules', '.bin', 'serverless'), ['package', '--stage', 'ci', '--package', into], {
    cwd: ROOT,
    // Its own esbuild folder, never over a running offline's.
    env: { ...process.env, ESBUILD_WORK_FOLDER: '.esbuild-cold', SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (out.status !== 0) throw new Error(`serverless package failed:\n${out.stdout}\n${out.stderr}`);
  return into;
}

/** Every function's artifact unpacked under work/fn/<name>, with its bundle. */
function functionsOf(artifacts: string): Fn[] {
  const zips = new Set(readdirSync(artifacts).filter((f) => f.endsWith('.zip')));
  return stageFunctions().map((fn) => {
    const zip = `${fn.name}.zip`;
    if (!zips.has(zip)) throw new Error(`no artifact ${zip} in ${artifacts}`);
    const dir = join(work, 'fn', fn.name);
    mkdirSync(dir, { recursive: true });
    const unzipped = spawnSync('unzip', ['-q', join(artifacts, zip), '-d', dir], { encoding: 'utf8' });
    if (unzipped.status !== 0) throw new Error(`unzip ${zip}: ${unzipped.stderr}`);
    return { ...fn, bundle: join(dir, `${fn.module}${esb.outputFileExtension}`) };
  });
}

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from '../scripts/local-stack.ts';
import { serverlessYaml } from '../test/support/serverless-yaml.ts';

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
const HTTP_TARGET = 1.5;
const PDF_TARGET = 2;

const SDK_OF: Record<string, { label: string; exports: string }> = {
  dynamodb: { label: 'dynamodb', exports: "export { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\n" },
  sqs: { label: 'sqs', exports: "export { SQSClient } from '@aws-sdk/client-sqs';\n" },
  s3: { label: 's3', exports: "export { S3Client } from '@aws-sdk/client-s3';\n" },
};

interface Fn {
  readonly name: string;
  readonly bundle: string;
  readonly sdks: readonly string[];
  readonly kind: 'http' | 'pdf' | 'worker';
}

const doc = serverlessYaml();
const esb = doc.custom.esbuild as { minify?: boolean; sourcemap?: boolean | string; format: 'esm'; target: string; platform: 'node'; exclude?: string[]; banner?: { js?: string }; outputFileExtension: string };
const nodeOptions = String(doc.provider.environment.NODE_OPTIONS ?? '');

const work = mkdtempSync(join(tmpdir(), 'cold-start-'));
try {
  const artifacts = option('--reuse') ?? packageStage(join(tmpdir(), 'pds-cold-package'));
  // The Lambda runtime's SDK: external imports resolve here, above every unpacked artifact.
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules', '@aws-sdk'), join(work, 'node_modules', '@aws-sdk'));

  const fns = functionsOf(artifacts);
  const floors = new Map<string, string>();
  for (const sdks of new Set(fns.map((f) => floorKey(f.sdks)))) floors.set(sdks, await buildFloor(sdks));

  const samples = new Map<string, { load: number[]; floor: number[]; ratio: number[] }>(fns.map((f) => [f.name, { load: [], floor: [], ratio: [] }]));
  for (let round = 0; round < SAMPLES; round++) {
    for (const f of fns) {
      const floor = loadTime(floors.get(floorKey(f.sdks))!);
      const load = loadTime(f.bundle);
      const s = samples.get(f.name)!;
      s.floor.push(floor);
      s.load.push(load);
      s.ratio.push(load / floor);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  console.log(`cold module load, median of ${SAMPLES} paired samples (floor, then handler, each a fresh process; load average ${loadavg()[0]!.toFixed(1)}; NODE_OPTIONS=${nodeOptions || '(none)'}; esbuild minify=${esb.minify ?? false} sourcemap=${esb.sourcemap ?? false} external=${(esb.exclude ?? []).join(',') || '(none)'})`);
  let worst: { name: string; ratio: number; target: number } | undefined;
  let allMet = true;
  for (const f of [...fns].sort((a, b) => a.name.localeCompare(b.name))) {
    const key = floorKey(f.sdks);
    const s = samples.get(f.name)!;
    const [load, floor, ratio] = [median(s.load), median(s.floor), median(s.ratio)];
    const target = f.kind === 'http' ? HTTP_TARGET : f.kind === 'pdf' ? PDF_TARGET : undefined;
    const verdict = target === undefined ? 'no target' : ratio <= target ? 'met' : 'missed';
    if (target !== undefined) {
      if (ratio > target) allMet = false;
      if (!worst || ratio / target > worst.ratio / worst.target) worst = { name: f.name, ratio, target };
    }
    const floorName = f.sdks.length ? key : `${key} (uses no AWS client)`;
    console.log(`${f.name.padEnd(24)} ${f.kind.padEnd(6)} load ${load.toFixed(1).padStart(6)} ms  floor ${floorName} ${floor.toFixed(1)} ms  ratio ${ratio.toFixed(2)} ×  target ${target === undefined ? '—' : `≤ ${target} ×`}  ${verdict}`);
  }
  console.log(worst ? `worst: ${worst.name} ${worst.ratio.toFixed(2)} × its floor (target ≤ ${worst.target} ×); every target ${allMet ? 'met' : 'missed'}` : 'no targeted function found');
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

/** Every function's artifact unpacked under work/fn/<name>, with its bundle, SDKs and kind. */
function functionsOf(artifacts: string): Fn[] {
  const zips = new Set(readdirSync(artifacts).filter((f) => f.endsWith('.zip')));
  return Object.entries(doc.functions as Record<string, { handler: string; events?: Record<string, unknown>[]; iamRoleStatements?: { Action: string | string[] }[]; package?: { patterns?: unknown } }>).map(([name, fn]) => {
    const zip = [...zips].find((z) => z === `${name}.zip`);
    if (!zip) throw new Error(`no artifact ${name}.zip in ${artifacts}`);
    const dir = join(work, 'fn', name);
    mkdirSync(dir, { recursive: true });
    const unzipped = spawnSync('unzip', ['-q', join(artifacts, zip), '-d', dir], { encoding: 'utf8' });
    if (unzipped.status !== 0) throw new Error(`unzip ${zip}: ${unzipped.stderr}`);
    const actions = (fn.iamRoleStatements ?? []).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
    const sdks = Object.keys(SDK_OF).filter((service) => actions.some((a) => a.startsWith(`${service}:`)));
    const http = (fn.events ?? []).some((e) => 'httpApi' in e);
    const kind = fn.package?.patterns ? 'pdf' : http ? 'http' : 'worker';
    return { name, bundle: join(dir, `${fn.handler.slice(0, fn.handler.lastIndexOf('.'))}${esb.outputFileExtension}`), sdks, kind };
  });
}

/** A function granted no AWS call is held to the DynamoDB floor, the lightest any function has. */
function floorKey(sdks: readonly string[]): string {
  return (sdks.length ? sdks : ['dynamodb']).map((s) => SDK_OF[s]!.label).join('+');
}

/** The floor file for a set of SDKs, built as serverless-esbuild builds the handlers. */
async function buildFloor(key: string): Promise<string> {
  const dir = join(work, 'floor', key);
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, key.split('+').map((s) => SDK_OF[s]!.exports).join(''));
  const outfile = join(dir, `floor${esb.outputFileExtension}`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    minify: esb.minify ?? false,
    sourcemap: esb.sourcemap === true ? 'linked' : esb.sourcemap === false || esb.sourcemap === undefined ? false : (esb.sourcemap as 'inline' | 'external' | 'linked'),
    format: esb.format,
    target: esb.target,
    platform: esb.platform,
    external: esb.exclude ?? [],
    banner: esb.banner,
    // Resolves the SDK from the project, as the handlers' bundles were built.
    nodePaths: [join(ROOT, 'node_modules')],
    logLevel: 'error',
  });
  return outfile;
}

/** Milliseconds the `import()` of one bundle takes in a fresh Node process. */
function loadTime(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const out = spawnSync(process.execPath, [...nodeOptions.split(/\s+/).filter(Boolean), '--input-type=module', '-e', script], {
    cwd: work,
    env: { PATH: process.env.PATH ?? '', AWS_REGION: 'ap-south-1', STAGE: 'ci' },
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`loading ${file} failed: ${out.stderr}`);
  return Number(out.stdout);
}

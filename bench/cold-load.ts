import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { ROOT } from '../scripts/local-stack.ts';
import { serverlessYaml } from '../test/support/serverless-yaml.ts';

/** What `npm run bench:cold` and `bench/cold-settings.ts` share: the functions' SDKs and kinds, floors, timed loads. */

export const SDK_OF: Record<string, { label: string; exports: string }> = {
  dynamodb: {
    label: 'dynamodb',
    exports: "export { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\n",
  },
  sqs: { label: 'sqs', exports: "export { SQSClient } from '@aws-sdk/client-sqs';\n" },
  s3: { label: 's3', exports: "export { S3Client } from '@aws-sdk/client-s3';\n" },
};

export const HTTP_TARGET = 1.5;
export const PDF_TARGET = 2;

export interface StageFunction {
  readonly name: string;
  /** The handler's module path without extension, e.g. functions/system/api-ping. */
  readonly module: string;
  readonly sdks: readonly string[];
  readonly kind: 'http' | 'pdf' | 'worker';
}

/** The stage's esbuild settings (serverless.yml custom.esbuild) and its NODE_OPTIONS. */
export interface StageBuild {
  readonly esbuild: {
    minify?: boolean;
    sourcemap?: boolean | 'inline' | 'external' | 'linked';
    format: 'esm' | 'cjs';
    target: string;
    platform: 'node';
    exclude?: string[];
    banner?: { js?: string };
    outputFileExtension: string;
    loader?: Record<string, string>;
    treeShaking?: boolean;
    mainFields?: string[];
    alias?: Record<string, string>;
  };
  readonly nodeOptions: string;
}

const doc = serverlessYaml();

export function stageBuild(): StageBuild {
  return { esbuild: doc.custom.esbuild, nodeOptions: String(doc.provider.environment.NODE_OPTIONS ?? '') };
}

/**
 * Every function of serverless.yml with the SDKs it is granted (dynamodb:* → DynamoDB and
 * lib-dynamodb, sqs:* → SQS, s3:* → S3, read from its IAM grants, not its bundle) and its kind:
 * a function whose artifact carries the fonts (custom.pdfFontPatterns) renders PDFs, one with an httpApi event is HTTP.
 */
export function stageFunctions(): StageFunction[] {
  return Object.entries(
    doc.functions as Record<
      string,
      { handler: string; events?: Record<string, unknown>[]; iamRoleStatements?: { Action: string | string[] }[]; package?: { patterns?: unknown } }
    >,
  ).map(([name, fn]) => {
    const actions = (fn.iamRoleStatements ?? []).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
    const sdks = Object.keys(SDK_OF).filter((service) => actions.some((a) => a.startsWith(`${service}:`)));
    const http = (fn.events ?? []).some((e) => 'httpApi' in e);
    const kind = String(fn.package?.patterns ?? '').includes('pdfFontPatterns') ? 'pdf' : http ? 'http' : 'worker';
    return { name, module: fn.handler.slice(0, fn.handler.lastIndexOf('.')), sdks, kind };
  });
}

export const targetOf = (kind: StageFunction['kind']): number | undefined => (kind === 'http' ? HTTP_TARGET : kind === 'pdf' ? PDF_TARGET : undefined);

/** A function granted no AWS call is held to the DynamoDB floor, the lightest any function has. */
export function floorKey(sdks: readonly string[]): string {
  return (sdks.length ? sdks : ['dynamodb']).map((s) => SDK_OF[s]!.label).join('+');
}

/** esbuild's options for the stage's settings (serverless-esbuild passes `exclude` as `external`). */
export function esbuildOptions(settings: StageBuild['esbuild']): BuildOptions {
  return {
    bundle: true,
    minify: settings.minify ?? false,
    sourcemap: settings.sourcemap === true ? 'linked' : (settings.sourcemap ?? false),
    format: settings.format,
    target: settings.target,
    platform: settings.platform,
    external: settings.exclude ?? [],
    banner: settings.banner,
    loader: settings.loader as BuildOptions['loader'],
    ...(settings.treeShaking === undefined ? {} : { treeShaking: settings.treeShaking }),
    ...(settings.mainFields ? { mainFields: settings.mainFields } : {}),
    // esbuild resolves an alias's relative path from the working directory: the project's, as serverless-esbuild's.
    ...(settings.alias
      ? { alias: Object.fromEntries(Object.entries(settings.alias).map(([from, to]) => [from, to.startsWith('.') ? join(ROOT, to) : to])) }
      : {}),
    // Resolves the SDK from the project, as the handlers' bundles are built.
    nodePaths: [join(ROOT, 'node_modules')],
    logLevel: 'error',
  };
}

/** The floor file for a set of SDKs (a floorKey), built in `dir` with the same settings as the handlers. */
export async function buildFloor(dir: string, key: string, settings: StageBuild['esbuild']): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    key
      .split('+')
      .map((s) => SDK_OF[s]!.exports)
      .join(''),
  );
  const outfile = join(dir, `floor${settings.outputFileExtension}`);
  await build({ ...esbuildOptions(settings), entryPoints: [entry], outfile });
  return outfile;
}

/** One load: wall milliseconds of the `import()`, and the CPU milliseconds (user + system) the process spent in it. */
export interface Load {
  readonly wall: number;
  readonly cpu: number;
}

/**
 * The `import()` of one bundle in a fresh Node process started in `cwd` with `nodeOptions`.
 * The CPU time is reported beside the wall time: on a machine shared with other work a load
 * waits for a core, which the wall time counts and the CPU time does not.
 */
export function loadTime(file: string, cwd: string, nodeOptions: string): Load {
  const script = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); const u = process.cpuUsage(c); process.stdout.write(JSON.stringify({ wall: performance.now() - t, cpu: (u.user + u.system) / 1000 }));`;
  const out = spawnSync(process.execPath, [...nodeOptions.split(/\s+/).filter(Boolean), '--input-type=module', '-e', script], {
    cwd,
    env: { PATH: process.env.PATH ?? '', AWS_REGION: 'ap-south-1', STAGE: 'ci' },
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`loading ${file} failed: ${out.stderr}`);
  return JSON.parse(out.stdout) as Load;
}

export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Medians of one handler's paired samples: wall ms of the handler and its floor, the wall ratio and the CPU ratio. */
export interface Paired {
  readonly load: number;
  readonly floor: number;
  readonly ratio: number;
  readonly cpuRatio: number;
}

/** Collects paired samples (the floor, then the handler, back to back) so that each ratio compares two loads made under the same machine load. */
export class PairedSamples {
  private readonly samples: { load: number; floor: number; ratio: number; cpuRatio: number }[] = [];

  add(floor: Load, load: Load): void {
    this.samples.push({ load: load.wall, floor: floor.wall, ratio: load.wall / floor.wall, cpuRatio: load.cpu / floor.cpu });
  }

  medians(): Paired {
    const of = (k: keyof Paired) => median(this.samples.map((s) => s[k]));
    return { load: of('load'), floor: of('floor'), ratio: of('ratio'), cpuRatio: of('cpuRatio') };
  }
}

/**
 * `npm test`: the type check, the lint and every test tier, started together. vitest's first
 * seconds go to starting DynamoDB Local, fauxqs and `serverless offline`, and `tsc` alone takes
 * about 15 s, so running them one after the other only added their times up. The checks' output is
 * held and printed when each ends, so it never tears vitest's progress lines; the exit code is
 * the first failure's (0 when all pass). Arguments go to vitest: `npm test -- --project unit`.
 * Last it prints the tests and assertions per tier from vitest's JSON report.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { countsOf, totals } from './assertion-totals.ts';

const REPORT = '.vitest/report.json';
rmSync(REPORT, { force: true });

interface Run {
  readonly name: string;
  readonly done: Promise<number>;
}

function start(name: string, command: string, args: readonly string[], held: boolean): Run {
  const child = spawn(command, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  const output: Buffer[] = [];
  child.stdout?.on('data', (d: Buffer) => output.push(d));
  child.stderr?.on('data', (d: Buffer) => output.push(d));
  const done = new Promise<number>((resolve) => {
    child.on('error', (err) => {
      output.push(Buffer.from(`${name}: ${err.message}\n`));
      resolve(1);
    });
    child.on('close', (code) => {
      if (held) {
        const text = Buffer.concat(output).toString().trimEnd();
        process.stdout.write(`\n── ${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`}${text ? `\n${text}` : ''}\n`);
      }
      resolve(code ?? 1);
    });
  });
  return { name, done };
}

const runs = [
  start('tsc --noEmit', 'tsc', ['--noEmit', '-p', 'tsconfig.json'], true),
  start('biome ci', 'biome', ['ci', '--error-on-warnings', '.'], true),
  start('vitest', 'vitest', ['run', ...process.argv.slice(2)], false),
];
const codes = await Promise.all(runs.map((r) => r.done));
// How many assertions ran, so a change that loses some shows in the totals (docs/local-development.md).
if (existsSync(REPORT)) totals('\nvitest', countsOf(REPORT));
const failed = runs.filter((_, i) => codes[i] !== 0).map((r) => r.name);
if (failed.length > 0) process.stdout.write(`\nnpm test failed: ${failed.join(', ')}\n`);
process.exitCode = codes.find((c) => c !== 0) ?? 0;

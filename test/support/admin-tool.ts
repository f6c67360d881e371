import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stack } from './stack.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

export interface AdminRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The real admin tool as an operator runs it, against the test stack (plus `env`). */
export function runAdminTool(args: readonly string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(TSX, ['bin/admin.ts', ...args], { cwd: ROOT, env: adminToolEnv(env), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The environment the tool runs with: the test stack's, plus `env`. */
export const adminToolEnv = (env: Record<string, string> = {}): Record<string, string | undefined> => ({ PATH: process.env.PATH, HOME: process.env.HOME, ...stack().env, ADMIN_OPERATOR: 'test-operator', ...env });

/** The command that starts the tool, for a test that must hold the process (to kill it). */
export const ADMIN_TOOL = { command: TSX, args: ['bin/admin.ts'], cwd: ROOT } as const;

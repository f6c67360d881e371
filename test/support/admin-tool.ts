import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAdmin } from '../../bin/admin/run-admin.ts';
import type { Following } from '../../bin/admin/command.ts';
import { stack } from './stack.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

export interface AdminRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The admin tool called in-process, as bin/admin.ts calls it, against the test stack (plus
 * `env`). Each call gets its own environment object and builds its own configuration and
 * clients from it, so concurrent calls in one file never see each other's `env` and
 * `process.env` is neither read nor written. A test about the process itself (exit status,
 * streams, a signal) uses `spawnAdminTool`. `following`: how a following command (`--wait`)
 * waits, when the test sets the pace.
 */
export async function runAdminTool(args: readonly string[], env: Record<string, string> = {}, following?: Following): Promise<AdminRun> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    stdout: { write: (text) => void (stdout += text) },
    stderr: { write: (text) => void (stderr += text) },
    env: adminToolEnv(env),
    root: ROOT,
    cwd: ROOT,
    ...(following ? { following } : {}),
  });
  return { code, stdout, stderr };
}

/** The real tool as an operator runs it, a `tsx bin/admin.ts` process (a cold start of seconds), against the test stack (plus `env`). */
export function spawnAdminTool(args: readonly string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      [...ADMIN_TOOL.args, ...args],
      { cwd: ROOT, env: adminToolEnv(env), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The environment the tool runs with: the test stack's, plus `env`. */
export const adminToolEnv = (env: Record<string, string> = {}): Record<string, string | undefined> => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...stack().env,
  ADMIN_OPERATOR: 'test-operator',
  ...env,
});

/** The command that starts the tool, for a test that must hold the process (to kill it). */
export const ADMIN_TOOL = { command: TSX, args: ['bin/admin.ts'], cwd: ROOT } as const;

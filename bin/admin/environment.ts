import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written by `npm start` with the running local stack's environment. */
export const STACK_ENV_FILE = join('.local', 'stack.env');

/** Raised when the tool cannot tell which stack to talk to; exit code 2. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

const NO_STACK = [
  'No stack to talk to: STAGE is not set and .local/stack.env does not exist.',
  'For the local stack, run `npm start` in another terminal (it writes .local/stack.env), then retry.',
  'For a deployed stage, set STAGE, TABLE_NAME, CURSOR_KEY and SECRETS_KEY (and AWS_REGION and AWS credentials) in the environment.',
].join('\n');

/** KEY=VALUE lines; blank lines and # comments are skipped, surrounding quotes dropped. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const value = line.slice(eq + 1).trim();
    env[line.slice(0, eq).trim()] = /^(['"]).*\1$/.test(value) ? value.slice(1, -1) : value;
  }
  return env;
}

/**
 * The environment the tool configures itself from. An explicit STAGE means the operator
 * chose a stack, so the process environment is used as it is. Without one, the local
 * stack's file describes a complete stack and its values win, so a stray TABLE_NAME or
 * endpoint in the shell cannot point half the tool elsewhere.
 */
export function adminEnvironment(env: Readonly<Record<string, string | undefined>>, root: string): Record<string, string | undefined> {
  if (env.STAGE) return { ...env };
  const file = join(root, STACK_ENV_FILE);
  if (!existsSync(file)) throw new SetupError(NO_STACK);
  return { ...env, ...parseEnvFile(readFileSync(file, 'utf8')) };
}

/**
 * The stack's HTTP routes did not answer (refused, unknown host, reset): the service is not
 * running at that address, which the operator can fix, and nothing was sent, so nothing changed.
 */
export class ServiceUnreachableError extends Error {
  override readonly name = 'ServiceUnreachableError';
  constructor(url: string, err: unknown) {
    const cause = (err as { cause?: { code?: string } } | undefined)?.cause?.code ?? (err instanceof Error ? err.message : 'no answer');
    super(
      `Network: the service did not answer at ${new URL(url).origin} (${cause}); nothing was sent. For the local stack, check that \`npm start\` is running (it writes its address to .local/stack.env), or pass --url.`,
    );
  }
}

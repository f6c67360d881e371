import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAdmin } from './admin/run-admin.ts';

/** `npm run admin -- <command>`: the operator tool. bin/admin/run-admin.ts holds the commands. */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

process.exitCode = await runAdmin(process.argv.slice(2), {
  stdout: { write: (text) => void process.stdout.write(text) },
  stderr: { write: (text) => void process.stderr.write(text) },
  env: process.env,
  root,
  // npm runs scripts from the package root; INIT_CWD is where the operator typed the command.
  cwd: process.env.INIT_CWD ?? process.cwd(),
});

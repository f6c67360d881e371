import { execFileSync } from 'node:child_process';

/** The Debian package `chromium` (.ci/run installs it), or CHROMIUM_BIN: the browser the docs and console tests drive. */
export function chromiumBinary(): string {
  for (const name of [process.env.CHROMIUM_BIN, 'chromium', 'chromium-browser', 'google-chrome'].filter(Boolean) as string[]) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      // not on PATH; try the next name
    }
  }
  throw new Error('No Chromium on PATH: install the Debian package `chromium` (.ci/run does) or set CHROMIUM_BIN.');
}

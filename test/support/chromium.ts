import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

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

/**
 * Headless Chromium for the console's journeys on the e2e stack. The stack's console is
 * http://localhost:<port> (a secure context, and a host a passkey's relying party id may be)
 * while offline listens on 127.0.0.1 only: localhost is mapped there, never tried as ::1.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumBinary(),
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--host-resolver-rules=MAP localhost 127.0.0.1'],
  });
}

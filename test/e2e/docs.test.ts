import { execFile } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/registry.ts';
import { OUTBOUND_MESSAGES } from '../../functions/contracts/outbound.ts';
import { expectContract } from '../support/contract.ts';
import { call, stack } from '../support/stack.ts';
import { chromiumBinary } from '../support/chromium.ts';

/*
 * GET /docs over the wire, then rendered by headless Chromium (the Debian package `chromium`;
 * .ci/run installs it) with every host but the test stack unresolvable: the reference must
 * render from the page alone.
 */
const run = promisify(execFile);

/** Headless Chromium with nothing reachable except the loopback test stack. */
const chromium = (args: string[]) =>
  run(
    chromiumBinary(),
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      '--virtual-time-budget=30000',
      ...args,
    ],
    { maxBuffer: 64 * 1024 * 1024, timeout: 150_000 },
  );

const docsUrl = () => `${stack().baseUrl.replace('localhost', '127.0.0.1')}/docs`;

describe('GET /docs', () => {
  it('serves one self-contained HTML page without a key: no external script, style or font, and a CSP allowing none', async () => {
    const res = await call('GET', '/docs');

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.has('x-ratelimit-limit')).toBe(false);
    expectContract(res, 'getDocs');
    // The markup outside the inline scripts: any src or href there would be a load from elsewhere.
    const markup = res.text.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');
    const tags = markup.match(/<(script|link|img|iframe|object|embed)\b[^>]*>/gi) ?? [];
    expect(tags.filter((t) => /\b(src|href)\s*=/i.test(t))).toEqual([]);
    expect(res.text).toContain('Redoc.init(');
  });

  it('refuses a query parameter with the error body naming it', async () => {
    const res = await call('GET', '/docs?theme=dark');

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'theme' });
    expectContract(res, 'getDocs');
  });

  it('renders every operation and both outbound messages in headless Chromium, with no network but the stack', async () => {
    const { stdout: dom } = await chromium(['--dump-dom', docsUrl()]);

    const missing = [...ROUTES.map((r) => r.summary), ...OUTBOUND_MESSAGES.map((m) => m.summary)].filter(
      (summary) => !dom.includes(summary.replace(/&/g, '&amp;').replace(/'/g, '&#x27;')) && !dom.includes(summary),
    );
    expect(missing).toEqual([]);
    for (const section of ['Authentication', 'Rate limits', 'Errors', 'Sandbox scenarios', 'Calls we make to you']) expect(dom).toContain(section);
    expect(dom).toContain('X-RateLimit-Remaining');
  }, 180_000);

  it('takes a screenshot of the rendered page for a person to look at', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pds-docs-')), 'docs.png');

    await chromium(['--window-size=1400,1800', '--hide-scrollbars', `--screenshot=${file}`, docsUrl()]);

    expect(statSync(file).size).toBeGreaterThan(50_000);
    console.log(`/docs screenshot: ${file}`);
  }, 180_000);
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnvFile, STACK_ENV_FILE } from '../bin/admin/environment.ts';
import { DEMO_PEOPLE } from '../scripts/demo-people.ts';
import { mailbox } from '../test/support/mailbox.ts';
import { measure, type Summary } from './harness.ts';

/**
 * `npm run bench:console`: every console page's server answer, N times, against the running
 * local stack (`npm start`: serverless offline with the demo world and the local mailbox),
 * signed in as the demo partner admin and the demo finance operator by the e-mailed link, as a
 * person would. Prints p50 and p95 per page against the 300 ms target (docs/console.md
 * "How fast"). BENCH_RUNS (default 30) requests per page after 3 unmeasured ones.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a positive whole number; got ${process.env.BENCH_RUNS}`);
const TARGET_MS = 300;

const file = join(process.cwd(), STACK_ENV_FILE);
if (!existsSync(file)) throw new Error(`No local stack: ${STACK_ENV_FILE} is missing. Run \`npm start\` in another terminal first.`);
const stackEnv = parseEnvFile(readFileSync(file, 'utf8'));
const base = (process.env.CONSOLE_BASE ?? stackEnv.SERVICE_URL ?? 'http://localhost:3000').replace('localhost', '127.0.0.1');
const mail = mailbox(process.env.MAILBOX_URL ?? stackEnv.MAILBOX_URL!);

/** Signs in as `email` through the mailed link; the session cookie's value. */
async function signIn(email: string): Promise<string> {
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    redirect: 'manual' as const,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  const since = Date.now() / 1000;
  const asked = await fetch(`${base}/console/sign-in`, form({ email }));
  if (asked.status !== 200) throw new Error(`asking a link for ${email}: HTTP ${asked.status}`);
  const link = await mail.waitFor(email, 'Your sign-in link', { tries: 60, everyMs: 500 });
  if (link.at < since - 5) throw new Error(`no new sign-in mail for ${email}`);
  const token = new URL(/https?:\/\/\S+/.exec(link.text)![0]).searchParams.get('token')!;
  const landed = await fetch(`${base}/console/sign-in/link`, form({ token }));
  const cookie = landed.headers.getSetCookie().find((c) => c.startsWith('__Host-console-session='));
  if (landed.status !== 303 || !cookie) throw new Error(`signing in ${email}: HTTP ${landed.status}`);
  return cookie.split(';')[0]!;
}

const get = async (cookie: string, path: string): Promise<{ status: number; text: string }> => {
  const res = await fetch(`${base}${path}`, { headers: { cookie }, redirect: 'manual' });
  return { status: res.status, text: await res.text() };
};
const firstMatch = (text: string, pattern: RegExp): string | undefined => pattern.exec(text)?.[1];

/** The pages to measure: fixed paths, then ones found on them (a booking, an invoice, a group…), as a person would click through. */
async function partnerPages(cookie: string): Promise<string[]> {
  const pages = ['/console/home', '/console/bookings', '/console/invoices', '/console/statement', '/console/ledger', '/console/audit'];
  pages.push('/console/webhooks', '/console/keys', '/console/team', '/console/test-clocks', '/console/test-scenarios', '/console/statement.csv');
  pages.push('/console/partner-keys', '/console/partner-audit');
  const booking = firstMatch((await get(cookie, '/console/bookings')).text, /href="(\/console\/bookings\/[^"]+)"/);
  if (booking) pages.push(booking);
  const pdf = firstMatch((await get(cookie, '/console/invoices')).text, /href="(\/console\/invoices\/[^"]+\/pdf)"/);
  if (pdf) pages.push(pdf);
  const deliveries = firstMatch((await get(cookie, '/console/webhooks')).text, /href="(\/console\/webhooks\/[^"]+\/deliveries)"/);
  if (deliveries) pages.push(deliveries);
  return pages;
}

async function operatorPages(cookie: string): Promise<string[]> {
  const pages = ['/console/operator/groups', '/console/operator/partners', '/console/operator/billing', '/console/operator/audit'];
  const group = firstMatch((await get(cookie, '/console/operator/groups')).text, /href="(\/console\/operator\/groups\/[^"/]+)"/);
  if (group) {
    pages.push(group, `${group}/payments`, `${group}/invoices`);
    const invoice = firstMatch((await get(cookie, `${group}/invoices`)).text, /href="(\/console\/operator\/groups\/[^"/]+\/invoices\/[^"/]+)"/);
    if (invoice) pages.push(invoice);
    pages.push(`/console/operator/audit?group=${encodeURIComponent(group.split('/').at(-1)!)}`);
  }
  const partner = firstMatch((await get(cookie, '/console/operator/partners')).text, /href="(\/console\/operator\/partners\/[^"/]+)"/);
  if (partner) pages.push(partner);
  return pages;
}

const admin = DEMO_PEOPLE.find((p) => p.access.kind === 'partner' && p.access.role === 'admin')!;
const operator = DEMO_PEOPLE.find((p) => p.access.kind === 'operator')!;
const rows: { who: string; path: string; status: number; s: Summary }[] = [];
for (const [who, email, pagesOf] of [
  ['partner admin', admin.email, partnerPages],
  ['operator', operator.email, operatorPages],
] as const) {
  const cookie = await signIn(email);
  for (const path of await pagesOf(cookie)) {
    let status = 0;
    const s = await measure(async () => {
      status = (await get(cookie, path)).status;
    }, RUNS);
    rows.push({ who, path, status, s });
    console.log(`${who.padEnd(13)} ${path.padEnd(70)} HTTP ${status}  p50 ${s.median.toFixed(1).padStart(7)} ms  p95 ${s.p95.toFixed(1).padStart(7)} ms`);
  }
}
const over = rows.filter((r) => r.s.p95 > TARGET_MS);
const failed = rows.filter((r) => r.status >= 400);
console.log(
  `\n${rows.length} pages, ${RUNS} requests each, against ${base}: ${over.length ? `${over.length} over ${TARGET_MS} ms p95 (${over.map((r) => r.path).join(', ')})` : `every page within ${TARGET_MS} ms p95`}.`,
);
if (failed.length) console.log(`Answered with an error: ${failed.map((r) => `${r.path} (HTTP ${r.status})`).join(', ')}`);
process.exitCode = over.length || failed.length ? 1 : 0;

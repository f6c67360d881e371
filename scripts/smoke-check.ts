import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

/**
 * The pipeline's check after each deploy (and after a rollback): the stage answers
 * `/openapi.json`, `/api/ping` with the smoke partner key and `/v1/ping` with the smoke group
 * key, and refuses `/v1/ping` without one. Keys come from the stage secret (the workflow
 * reads and masks them); they are never printed.
 *
 *   SMOKE_PARTNER_KEY=… SMOKE_GROUP_KEY=… npx tsx scripts/smoke-check.ts https://api.example.com [--attempts 5]
 *
 * Each check gets a few attempts, since a stage just deployed may answer its first requests
 * with cold starts or a 503 while the new version goes live. Exit 0 when all pass, 1 otherwise.
 */
export interface SmokeCredentials {
  readonly partnerKey: string;
  readonly groupKey: string;
}

export interface SmokeOptions {
  readonly attempts?: number;
  readonly retryDelayMs?: number;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface SmokeResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

interface Check {
  readonly name: string;
  readonly path: string;
  readonly key?: string;
  readonly expectStatus: number;
  /** What the body must show beyond the status, or a reason it does not. */
  readonly verify: (body: unknown) => string | undefined;
}

const basic = (key: string): string => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

const field = (body: unknown, name: string): unknown => (body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined);

function checks(creds: SmokeCredentials): Check[] {
  return [
    {
      name: 'GET /openapi.json',
      path: '/openapi.json',
      expectStatus: 200,
      verify: (body) =>
        typeof field(body, 'openapi') === 'string' && field(field(body, 'paths'), '/v1/ping') ? undefined : 'not the OpenAPI document of this service',
    },
    {
      name: 'GET /api/ping (smoke partner key)',
      path: '/api/ping',
      key: creds.partnerKey,
      expectStatus: 200,
      verify: (body) => (typeof field(body, 'partnerId') === 'string' ? undefined : 'no partnerId in the reply'),
    },
    {
      name: 'GET /v1/ping (smoke group key)',
      path: '/v1/ping',
      key: creds.groupKey,
      expectStatus: 200,
      verify: (body) => (typeof field(body, 'agentGroupId') === 'string' ? undefined : 'no agentGroupId in the reply'),
    },
    {
      name: 'GET /v1/ping without a key is refused',
      path: '/v1/ping',
      expectStatus: 401,
      verify: (body) => (field(body, 'code') === 'UNAUTHORIZED' ? undefined : 'not the UNAUTHORIZED error body'),
    },
  ];
}

async function attempt(baseUrl: string, check: Check, timeoutMs: number): Promise<string | undefined> {
  let res: Response;
  try {
    res = await fetch(new URL(check.path, baseUrl), { headers: check.key ? { authorization: basic(check.key) } : {}, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    return `no answer (${(err as Error).name})`;
  }
  const text = await res.text();
  if (res.status !== check.expectStatus) return `status ${res.status}, expected ${check.expectStatus}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  return check.verify(body);
}

export async function smokeCheck(baseUrl: string, creds: SmokeCredentials, opts: SmokeOptions = {}): Promise<SmokeResult[]> {
  const { attempts = 5, retryDelayMs = 3000, timeoutMs = 10_000, log = () => undefined, sleep = (ms) => new Promise((r) => setTimeout(r, ms)) } = opts;
  const results: SmokeResult[] = [];
  for (const check of checks(creds)) {
    let problem: string | undefined;
    for (let n = 1; n <= attempts; n += 1) {
      problem = await attempt(baseUrl, check, timeoutMs);
      if (problem === undefined) break;
      log(`  ${check.name}: attempt ${n}/${attempts}: ${problem}`);
      if (n < attempts) await sleep(retryDelayMs * n);
    }
    const result = { name: check.name, ok: problem === undefined, detail: problem ?? 'ok' };
    log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name}${result.ok ? '' : `: ${result.detail}`}`);
    results.push(result);
  }
  return results;
}

const USAGE = 'Usage: SMOKE_PARTNER_KEY=… SMOKE_GROUP_KEY=… tsx scripts/smoke-check.ts <base URL> [--attempts <n>]\n';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { attempts: { type: 'string' } }, allowPositionals: true });
  const [baseUrl] = positionals;
  const attempts = Number(values.attempts ?? 5);
  const partnerKey = process.env.SMOKE_PARTNER_KEY;
  const groupKey = process.env.SMOKE_GROUP_KEY;
  if (!baseUrl || !/^https?:\/\//.test(baseUrl) || !partnerKey || !groupKey || !Number.isInteger(attempts) || attempts < 1 || attempts > 10) {
    process.stderr.write(USAGE);
    return 2;
  }
  process.stdout.write(`Smoke check of ${baseUrl}\n`);
  const results = await smokeCheck(baseUrl, { partnerKey, groupKey }, { attempts, log: (line) => process.stdout.write(`${line}\n`) });
  const failed = results.filter((r) => !r.ok).length;
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main();

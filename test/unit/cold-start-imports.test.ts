import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { stageFunctions } from '../../bench/cold-load.ts';
import { buildFunctions } from '../../scripts/build-functions.ts';

/**
 * What a handler's bundle evaluates at its cold start: the modules reached from its entry by
 * static imports and requires, not by a dynamic `import()` (esbuild keeps a bundled module
 * behind one until it is called, and leaves an external one a dynamic import). Packages that
 * only some calls need must stay behind a dynamic import, or every function pays for them at
 * start (docs/performance.md, "What loads when"); `npm run bench:cold` measures the time, this
 * test keeps the imports from sliding back.
 */
const AT_FIRST_CALL: { readonly what: string; readonly matches: (path: string) => boolean }[] = [
  { what: 'the SQS SDK (infra/sqs/client.ts sqsSdk)', matches: (p) => p === '@aws-sdk/client-sqs' },
  { what: 'the S3 SDK (infra/s3/client.ts s3Sdk)', matches: (p) => p === '@aws-sdk/client-s3' },
  { what: 'the SESv2 SDK (infra/mail/ses-mailer.ts sesSdk)', matches: (p) => p === '@aws-sdk/client-sesv2' },
  { what: "Razorpay's SDK and axios (infra/payments)", matches: (p) => /node_modules\/(razorpay\/dist\/razorpay\.js|axios\/)/.test(p) },
  {
    what: 'SimpleWebAuthn and its X.509 and ASN.1 stack (domain/console/passkeys.ts, loaded at the first ceremony)',
    matches: (p) => /node_modules\/@simplewebauthn\//.test(p),
  },
  { what: 'pdf-lib and fontkit (infra/pdf, loaded at the first render)', matches: (p) => /node_modules\/(pdf-lib|@pdf-lib\/fontkit)\//.test(p) },
  // An ESM import of node:http loads Node's bundled undici (its WebSocket getters); the stage aliases it to infra/node-http.cjs.
  { what: 'node:http as an ESM import (custom.esbuild.alias)', matches: (p) => p === 'node:http' || p === 'http' },
  {
    what: 'the route registry (functions/registry.ts: every contract, for /openapi.json, /docs and the fallback)',
    matches: (p) => p === 'functions/registry.ts',
  },
  { what: "Redoc's standalone bundle (a file of the docs artifact, read at the first request)", matches: (p) => /node_modules\/redoc\//.test(p) },
];

/**
 * Every input and external path a bundle evaluates at start: the inputs reached from `entry`
 * without crossing a dynamic import, plus every external a bundled module imports statically,
 * wherever that module sits (in an ESM bundle esbuild hoists those imports to the top of the
 * file, so they load at start even from a module the handler reaches only dynamically).
 */
function loadedAtStart(meta: Metafile, entry: string, bundled: readonly string[]): Set<string> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length) {
    for (const imp of meta.inputs[queue.pop()!]?.imports ?? []) {
      if (imp.kind !== 'import-statement' && imp.kind !== 'require-call') continue;
      if (seen.has(imp.path)) continue;
      seen.add(imp.path);
      if (!imp.external) queue.push(imp.path);
    }
  }
  for (const input of bundled) for (const imp of meta.inputs[input]?.imports ?? []) if (imp.external && imp.kind === 'import-statement') seen.add(imp.path);
  return seen;
}

/**
 * The functions that call Razorpay's API (orders for invoices, virtual accounts, reconciliation):
 * their entries wire the payments adapter group, the one module that names the SDK (the billing run is in the accounts area, the clock's advance in testClocks
 * and on the console's test clock page, which bills the group's closed periods as the API's advance does). No other bundle carries the SDK, not even
 * behind a dynamic import (V8 parses the whole file at start); the webhook receiver checks
 * signatures with the SDK's utils module only.
 */
const RAZORPAY_CALLERS = ['accounts', 'billGroup', 'console', 'reconcilePayments', 'testClocks'];
const RAZORPAY_SDK = /node_modules\/(razorpay\/dist\/razorpay\.js|axios\/|form-data\/)/;

describe('cold start: what every function loads at start', () => {
  const fns = stageFunctions();
  let metafile: Metafile;
  let bundles: Map<string | undefined, string[]>;

  beforeAll(async () => {
    // The one build of every function that the test stack serves (scripts/build-functions.ts), in memory: each output lists its bundle's inputs.
    ({ metafile } = await buildFunctions({ write: false }));
    bundles = new Map(Object.values(metafile.outputs).map((o) => [o.entryPoint, Object.keys(o.inputs)]));
  }, 600_000);

  it('no function loads the SQS, S3 or SES SDK, Razorpay, pdf-lib or the route registry before it calls them', () => {
    const found: string[] = [];
    const checked: string[] = [];
    for (const f of fns) {
      const entry = `${f.module}.ts`;
      const atStart = [...loadedAtStart(metafile, entry, bundles.get(entry) ?? [])];
      for (const rule of AT_FIRST_CALL) if (atStart.some(rule.matches)) found.push(`${f.name} loads ${rule.what} at start`);
      if (bundles.has(entry)) checked.push(f.name);
    }
    expect(checked).toEqual(fns.map((f) => f.name));
    expect(found).toEqual([]);
  });

  it("only the functions that call Razorpay's API carry its SDK and axios in their bundle", () => {
    const carrying = fns.filter((f) => (bundles.get(`${f.module}.ts`) ?? []).some((p) => RAZORPAY_SDK.test(p))).map((f) => f.name);
    expect(carrying.sort()).toEqual(RAZORPAY_CALLERS);
  });
});

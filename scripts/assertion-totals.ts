/**
 * Assertion totals of a vitest JSON report (`npx vitest run --reporter=json --outputFile=r.json`),
 * each test's count recorded by test/support/count-assertions.ts:
 *   npx tsx scripts/assertion-totals.ts after.json               totals per tier
 *   npx tsx scripts/assertion-totals.ts before.json after.json   and what the change lost: every
 *     test gone, and every test that now makes fewer assertions (a test that asserts inside a
 *     polling loop counts its rounds, so compare its count by reading it)
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface Report {
  readonly testResults: {
    readonly name: string;
    readonly assertionResults: { readonly fullName: string; readonly status: string; readonly meta?: { readonly assertionCalls?: number } }[];
  }[];
}

/** Test "<file relative to test/> > <full name>" → its assertion count. */
export function countsOf(path: string): Map<string, number> {
  const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  const counts = new Map<string, number>();
  for (const file of report.testResults) {
    const name = file.name.slice(file.name.lastIndexOf('/test/') + '/test/'.length);
    for (const t of file.assertionResults) {
      if (t.status === 'skipped') continue;
      // Two tests of one file may share a name: the second is "… #2", and so on.
      let key = `${name} > ${t.fullName}`;
      for (let n = 2; counts.has(key); n++) key = `${name} > ${t.fullName} #${n}`;
      counts.set(key, t.meta?.assertionCalls ?? 0);
    }
  }
  return counts;
}

export function totals(label: string, counts: Map<string, number>): void {
  const byTier = new Map<string, { tests: number; assertions: number }>();
  for (const [key, n] of counts) {
    const tier = key.slice(0, key.indexOf('/'));
    const row = byTier.get(tier) ?? { tests: 0, assertions: 0 };
    byTier.set(tier, { tests: row.tests + 1, assertions: row.assertions + n });
  }
  const all = [...byTier.values()].reduce((a, r) => ({ tests: a.tests + r.tests, assertions: a.assertions + r.assertions }), { tests: 0, assertions: 0 });
  console.log(`${label}: ${all.tests} tests, ${all.assertions} assertions`);
  for (const [tier, r] of [...byTier].sort()) console.log(`  ${tier}: ${r.tests} tests, ${r.assertions} assertions`);
}

function main(first: string | undefined, second: string | undefined): void {
  if (!first) {
    console.error('usage: npx tsx scripts/assertion-totals.ts [before.json] after.json');
    process.exitCode = 2;
    return;
  }
  if (!second) {
    totals(first, countsOf(first));
  } else {
    const before = countsOf(first);
    const after = countsOf(second);
    totals(`before (${first})`, before);
    totals(`after (${second})`, after);
    const gone = [...before.keys()].filter((k) => !after.has(k));
    const fewer = [...before].filter(([k, n]) => after.has(k) && after.get(k)! < n);
    for (const k of gone) console.log(`gone: ${k}`);
    for (const [k, n] of fewer) console.log(`fewer: ${k}: ${n} → ${after.get(k)}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv[2], process.argv[3]);

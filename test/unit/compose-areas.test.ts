import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stageFunctions } from '../../bench/cold-load.ts';

/**
 * One way of wiring (docs/decisions/platform.md, "Composition per area"): every function, and the
 * admin tool, reaches the adapters through infra/compose/core.ts and its own area's module under
 * infra/compose/, never another area's and never infra/container.ts (the tests' entry). Read from
 * the source, as a bundler would: every static, side-effect and dynamic import from the entry,
 * type-only ones included, stopping at the compose modules (an area's module may build on
 * another's; its handlers may not reach past it).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const COMPOSE = 'infra/compose/';
/** The adapter groups an entry wires (infra/compose/core.ts, wire): any entry may name them, `npm run check:wiring` checks which. */
const ADAPTERS = `${COMPOSE}adapters/`;
const CORE = `${COMPOSE}core.ts`;
const CONTAINER = 'infra/container.ts';

/** Each function's area module; `core` for a function that needs no area's builders. A new function is named here. */
const AREA_OF: Record<string, string> = {
  system: 'core',
  catalogue: 'catalogue',
  webhooks: 'deliveries',
  bookings: 'bookings',
  accounts: 'billing',
  invoicePdf: 'invoice-pdf',
  testClocks: 'sandbox',
  // The gateway's notifications need only each group's clock (core); reconciliation is the worker's.
  payments: 'core',
  channelManager: 'channel-manager',
  console: 'console',
  deliverWebhooks: 'deliveries',
  sweepDeliveries: 'deliveries',
  syncCatalogue: 'catalogue',
  bookingWorkflow: 'bookings',
  sweepBookings: 'bookings',
  renderInvoicePdfs: 'invoice-pdf',
  mailEvents: 'core',
  reconcilePayments: 'receivables',
  channexChangesWorker: 'channel-manager',
  eraseGuestData: 'bookings',
  writeAuditDigest: 'core',
  scheduledBilling: 'core',
  billGroup: 'billing',
};

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The project files `file` imports (relative specifiers only: packages are the cold-start test's business). */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2]!;
    if (!spec.startsWith('.')) continue;
    const path = relative(ROOT, resolve(ROOT, dirname(file), spec));
    if (existsSync(join(ROOT, path))) out.push(path);
  }
  return out;
}

/** The compose modules and the container reached from `entry`, without walking into the compose modules. */
function wiringReached(entry: string): string[] {
  const seen = new Set([entry]);
  const reached = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    for (const path of importsOf(queue.pop()!)) {
      if (path.startsWith(COMPOSE) || path === CONTAINER) reached.add(path);
      else if (!seen.has(path)) {
        seen.add(path);
        queue.push(path);
      }
    }
  }
  return [...reached].sort();
}

const expected = (area: string) => (area === 'core' ? [CORE] : [CORE, `${COMPOSE}${area}.ts`].sort());

describe('composition: each handler reaches only its own area module', () => {
  const fns = stageFunctions();

  it('names the area of every function of the stage, and of no other', () => {
    expect(Object.keys(AREA_OF).sort()).toEqual(fns.map((f) => f.name).sort());
    for (const area of Object.values(AREA_OF)) expect(existsSync(join(ROOT, COMPOSE, `${area}.ts`)), area).toBe(true);
  });

  it("no function reaches another area's module or infra/container.ts", () => {
    const wrong = fns
      .map((f) => ({ name: f.name, reached: wiringReached(`${f.module}.ts`).filter((p) => !p.startsWith(ADAPTERS)) }))
      .filter((f) => AREA_OF[f.name] && JSON.stringify(f.reached) !== JSON.stringify(expected(AREA_OF[f.name]!)));
    expect(wrong).toEqual([]);
  });

  it('reaches adapter groups only from the entries that wire them, never from a handler', () => {
    const fromHandlers = fns.flatMap((f) =>
      importsOf(`${f.module}.ts`)
        .filter((p) => !p.startsWith(COMPOSE))
        .flatMap((p) =>
          wiringReached(p)
            .filter((r) => r.startsWith(ADAPTERS) || r === `${COMPOSE}all.ts`)
            .map((r) => `${p} → ${r}`),
        ),
    );
    expect(fromHandlers).toEqual([]);
  });

  it('the admin tool reaches the admin module and the core, nothing else of the wiring', () => {
    expect(wiringReached('bin/admin.ts')).toEqual(expected('admin'));
  });

  it('sees an import of the container, and does not walk into the compose modules', () => {
    expect(wiringReached('test/support/billing-run-kit.ts')).toContain(CONTAINER);
    expect(wiringReached('infra/compose/console.ts')).toEqual(
      ['billing', 'core', 'deliveries', 'invoice-pdf', 'receivables', 'sandbox'].map((m) => `${COMPOSE}${m}.ts`),
    );
  });
});

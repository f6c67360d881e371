import { operatorOrigin } from '../domain/audit/audit-event.ts';
import { randomUUID } from 'node:crypto';
import { addDays } from '../domain/catalogue/calendar.ts';
import { NO_TOTALS, type Invoice } from '../domain/invoicing/invoice.ts';
import type { AgentGroup } from '../domain/tenants.ts';
import type { Services } from '../infra/container.ts';
import { bookingItem } from '../infra/dynamo/entities/booking.ts';
import { putAll } from '../infra/dynamo/batch-write.ts';
import { createDocumentClient, dynamoCalls } from '../infra/dynamo/client.ts';
import { entryItem } from '../infra/dynamo/dynamo-credit-ledger.ts';
import { keys } from '../infra/dynamo/keys.ts';
import { benchBillingRun, benchGroupInput, benchWorld } from './bench-world.ts';
import { httpEvent, lambdaContext, measureInTurns } from './harness.ts';
import { seededBooking } from './invoicing-bench.ts';
import { benchAlone } from './standalone.ts';
import { seeding } from './seeding.ts';

/**
 * `npm run bench:billing-scale`: the targets of billing at scale (docs/invoicing.md, "Figures"),
 * one line each ending in its figure and `met` or `missed`. History is written straight to the
 * table (as the search bench does): billed bookings with their entries, entry lists and billing
 * markers, and invoices with their kept figures, so set-up takes seconds, not hours of runs.
 */
const HISTORY = Number(process.env.BENCH_HISTORY ?? 50_000);
const NEW = Number(process.env.BENCH_NEW ?? 1_000);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 10_000);
const LISTINGS = 10;
const CHANNEL = 'bench-billing-scale';

const verdict = (ok: boolean) => (ok ? 'met' : 'missed');

async function benchBillingScale(svc: Services): Promise<void> {
  const { adminDeps, billingDeps } = await import('../infra/container.ts');
  const { createPartner, createAgentGroup, issueKey } = await import('../domain/admin.ts');
  const { importWorld } = await import('../domain/world/import-world.ts');
  const { PdfInvoiceRenderer } = await import('../infra/pdf/pdf-invoice-renderer.ts');
  const seed = await seeding(svc);
  const admin = adminDeps(seed, operatorOrigin('bench', 'seed'));
  const db = createDocumentClient(seed.config);
  const table = svc.config.tableName;
  await importWorld(
    { ...admin, catalogue: seed.catalogue },
    {
      ...benchWorld({ channelId: CHANNEL, listings: LISTINGS, from: '2027-01-01', days: 30, idPrefix: 'inv-l' }),
      gst: { registrations: [{ state: 'Goa', stateCode: '30', gstin: '30AAKCB1234C1ZX', legalName: 'Bench Stays Goa', address: 'Panaji, Goa 403001' }] },
    },
    { allowPlaintextKeys: true },
  );
  await createPartner(admin, { partnerId: 'bench-scale-partner', name: 'Bench', channelId: CHANNEL });
  const newGroup = (agentGroupId: string): Promise<AgentGroup> =>
    createAgentGroup(admin, benchGroupInput(agentGroupId, 'bench-scale-partner', CHANNEL, 100_000_000_00));
  const at = new Date(Date.now() - 3_600_000).toISOString();
  const indexed = (g: string) => indexedGroup(g, at);
  const bookings = (g: AgentGroup, from: number, count: number, billed: boolean) => bookingItems(g, CHANNEL, from, count, billed, at);

  const fresh = await newGroup('bench-scale-fresh');
  const aged = await newGroup('bench-scale-history');
  const t0 = performance.now();
  await putAll(db, table, [indexed(fresh.agentGroupId), indexed(aged.agentGroupId), ...bookings(aged, 0, HISTORY, true)]);
  await putAll(db, table, [...bookings(fresh, HISTORY, NEW, false), ...bookings(aged, HISTORY + NEW, NEW, false)]);
  console.log(
    `set-up: ${HISTORY} billed bookings of history and ${NEW} new in each of two groups written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const deps = billingDeps(svc, new PdfInvoiceRenderer());
  const billingRun = benchBillingRun(deps);
  const timed = async (group: AgentGroup) => {
    const { result, ms } = await billingRun(group);
    return { ms, calls: dynamoCalls.total, reads: readsOf(), lines: result.linesWritten };
  };
  const freshRun = await timed(fresh);
  const agedRun = await timed(aged);
  const rerun = await timed(aged);
  const timeRatio = agedRun.ms / freshRun.ms;
  const callRatio = agedRun.calls / freshRun.calls;
  console.log(
    `fresh group, ${NEW} new: ${(freshRun.ms / 1000).toFixed(2)} s, ${freshRun.calls} calls, ${freshRun.lines} lines; with ${HISTORY} of history: ${(agedRun.ms / 1000).toFixed(2)} s, ${agedRun.calls} calls, ${agedRun.lines} lines`,
  );
  console.log(
    `${HISTORY} billed bookings of history + ${NEW} new bill in ≤ 1.2 × a fresh group's time and calls | time ${timeRatio.toFixed(2)} ×, calls ${callRatio.toFixed(2)} × | ${verdict(timeRatio <= 1.2 && callRatio <= 1.2 && agedRun.lines === freshRun.lines)}`,
  );
  console.log(
    `re-run with nothing new over ${HISTORY + NEW} billed bookings: O(1) reads | ${rerun.calls} calls (${rerun.reads} reads, ${rerun.lines} lines) | ${verdict(rerun.lines === 0 && rerun.reads <= 10)}`,
  );

  // The list: 10 invoices behind the page against 10,000, 95 % paid, as issue and payments leave them (kept figures included).
  const listGroup = async (agentGroupId: string, count: number) => {
    const g = await newGroup(agentGroupId);
    const { apiKey } = await issueKey(admin, { owner: { kind: 'agent-group', id: g.agentGroupId }, rateLimit: { perMinute: 100_000, burst: 10_000 } });
    const items: Record<string, unknown>[] = [];
    let outstanding = 0;
    let open = 0;
    for (let i = 0; i < count; i++) {
      const issueDate = addDays('2026-01-01', Math.floor((i * 300) / count));
      const dueDate = addDays(issueDate, 15);
      const paid = i % 20 !== 0;
      const inv = invoiceOf(g.agentGroupId, i, issueDate, dueDate, paid);
      items.push({
        ...keys.invoice(g.agentGroupId, inv.id),
        ...keys.invoiceListIndex(g.agentGroupId, issueDate, inv.issuedAt!, inv.id),
        entity: 'Invoice',
        ...inv,
        dueTracked: true,
      });
      if (!paid) {
        outstanding += inv.total;
        open += 1;
        items.push({ ...keys.dueMarker(g.agentGroupId, dueDate, inv.id), entity: 'DueMarker', agentGroupId: g.agentGroupId, invoiceId: inv.id, dueDate });
      }
    }
    items.push({ ...keys.dues(g.agentGroupId), entity: 'Dues', outstanding, openCount: open, complete: true, updatedAt: at });
    await putAll(db, table, items);
    return apiKey;
  };
  const fewKey = await listGroup('bench-scale-list-10', 10);
  const manyKey = await listGroup('bench-scale-list-many', INVOICES);
  const { handler } = (await import('../functions/invoices/list-invoices.ts')) as { handler: (e: unknown, c: unknown) => Promise<{ statusCode: number }> };
  const page = (key: string) => async () => (await handler(httpEvent('GET', '/v1/invoices', { key, query: { size: '20' } }), lambdaContext)).statusCode;
  const [few, many] = await measureInTurns(page(fewKey), page(manyKey), Number(process.env.BENCH_RUNS ?? 40));
  const listRatio = many.median / few.median;
  console.log(
    `GET /v1/invoices?size=20 with ${INVOICES} invoices (95 % paid) ≤ 1.3 × with 10 | median ${many.median.toFixed(1)} ms (${many.calls} calls) vs ${few.median.toFixed(1)} ms (${few.calls} calls): ${listRatio.toFixed(2)} × | ${verdict(listRatio <= 1.3)}`,
  );
}

/** A group whose unbilled index is complete (as the backfill leaves it), so runs read only the index. */
export const indexedGroup = (g: string, at: string) => ({ ...keys.unbilledIndex(g), entity: 'UnbilledIndex', complete: true, completedAt: at });

/** Bookings as the gate and workflow leave them, entered in the unbilled index; `billed` ones as a run that billed them whole leaves them. */
export const bookingItems = (g: AgentGroup, channelId: string, from: number, count: number, billed: boolean, at: string) =>
  Array.from({ length: count }, (_, k) => seededBooking(g.agentGroupId, g.partnerId, channelId, from + k, at)).flatMap(({ booking, entry }) => [
    bookingItem(booking),
    entryItem(entry),
    { ...keys.bookingAlias(g.agentGroupId, booking.bookingId!), entity: 'BookingAlias', bookingRef: booking.bookingRef, bookingId: booking.bookingId },
    { ...keys.bookingEntries(g.agentGroupId, booking.bookingId!), entity: 'BookingEntries', bookingId: booking.bookingId, entryIds: new Set([entry.id]) },
    billed
      ? {
          ...keys.billingMarker(g.agentGroupId, booking.bookingRef),
          entity: 'BillingMarker',
          bookingRef: booking.bookingRef,
          billedTotal: entry.amount,
          lineCount: 2,
        }
      : { ...keys.unbilled(g.agentGroupId, booking.bookingId!), entity: 'Unbilled', bookingId: booking.bookingId, version: 1 },
  ]);

/** Reads among the DynamoDB calls counted since the last reset. */
const readsOf = () => ['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand', 'ScanCommand'].reduce((s, op) => s + (dynamoCalls.byOperation[op] ?? 0), 0);

function invoiceOf(agentGroupId: string, i: number, issueDate: string, dueDate: string, paid: boolean): Invoice {
  const total = 1_260_000;
  const issuedAt = `${issueDate}T06:00:00.000Z`;
  return {
    ...NO_TOTALS,
    subtotal: 1_200_000,
    igst: 60_000,
    total,
    lineCount: 2,
    supplierGstin: '30AAKCB1234C1ZX',
    supplierName: 'Bench Stays Goa',
    supplierAddress: 'Panaji, Goa 403001',
    supplierStateCode: '30',
    billToGstin: '27AAPFU0939F1ZV',
    billToName: 'Bench Agents Pvt Ltd',
    billToAddress: '1 Bench Road, Mumbai',
    placeOfSupply: 'Goa',
    placeOfSupplyStateCode: '30',
    id: randomUUID(),
    agentGroupId,
    status: paid ? 'PAID' : 'ISSUED',
    invoiceNumber: `30/26-27/${String(i + 1).padStart(6, '0')}`,
    issueDate,
    dueDate,
    issuedAt,
    periodFrom: addDays(issueDate, -30),
    periodTo: issueDate,
    runId: randomUUID(),
    gatewayOrderId: null,
    pdfKey: `invoices/${agentGroupId}/${i}.pdf`,
    bookingRefs: [],
    bookingsMarked: true,
    amountPaid: paid ? total : 0,
    lastError: null,
    createdAt: issuedAt,
    updatedAt: issuedAt,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Set-up writes a quarter of a million items: the SDK's request timeout is loosened (as in the tests) so a busy machine slows it rather than failing it.
  await benchAlone(
    {
      table: 'pds-bench-billing-scale',
      invoiceBucket: true,
      extra: async () => ({ AWS_CONNECT_TIMEOUT_MS: '10000', AWS_REQUEST_TIMEOUT_MS: '20000', AWS_MAX_ATTEMPTS: '3' }),
    },
    benchBillingScale,
  );
}

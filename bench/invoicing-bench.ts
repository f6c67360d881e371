import { operatorOrigin } from '../domain/audit/audit-event.ts';
import { randomUUID } from 'node:crypto';
import { NO_STEPS_DONE, type Booking } from '../domain/bookings/booking.ts';
import { addDays } from '../domain/catalogue/calendar.ts';
import type { LedgerEntry } from '../domain/ledger/ledger.ts';
import type { ChargeLine } from '../domain/pricing/charge-lines.ts';
import type { Services } from '../infra/container.ts';
import { bookingItem } from '../infra/dynamo/entities/booking.ts';
import { putAll } from '../infra/dynamo/batch-write.ts';
import { createDocumentClient, dynamoCalls, resetDynamoCalls } from '../infra/dynamo/client.ts';
import { entryItem } from '../infra/dynamo/dynamo-credit-ledger.ts';
import { keys } from '../infra/dynamo/keys.ts';
import { benchBillingRun, benchGroupInput, benchWorld } from './bench-world.ts';
import { fmt, httpEvent, lambdaContext, measure } from './harness.ts';
import { benchAlone } from './standalone.ts';
import { seeding } from './seeding.ts';

/**
 * The invoicing bench (`npm run bench`, or alone: `npm run bench:invoicing`; BENCH_INVOICING=0
 * skips it in the full run): one billing run for a group with BENCH_INVOICE_BOOKINGS (1,000)
 * POSTED two-night bookings, a re-run that finds nothing to bill, and the invoice reads.
 */
export const invoicingBenchEnabled = process.env.BENCH_INVOICING !== '0';
const BOOKINGS = Number(process.env.BENCH_INVOICE_BOOKINGS ?? 1_000);
const LISTINGS = 10;
const NIGHT: ChargeLine = {
  kind: 'STAY',
  ref: '',
  propertyId: '',
  date: '',
  quantity: 1,
  base: 600_000,
  discount: 0,
  taxableValue: 600_000,
  gstRatePercent: 5,
  gst: 30_000,
  total: 630_000,
};

/** A landed, CONFIRMED two-night booking with its POSTED charge, as the gate and the workflow leave them. */
export function seededBooking(agentGroupId: string, partnerId: string, channelId: string, i: number, at: string): { booking: Booking; entry: LedgerEntry } {
  const listingId = `inv-l${String(i % LISTINGS).padStart(5, '0')}`;
  const propertyId = `${listingId}-p1`;
  const checkIn = addDays('2027-01-01', i % 20);
  const lines = [0, 1].map((n) => ({ ...NIGHT, ref: `${propertyId}#${addDays(checkIn, n)}#5`, propertyId, date: addDays(checkIn, n) }));
  const total = 2 * NIGHT.total;
  const bookingRef = randomUUID();
  const bookingId = `PSB-${String(i).padStart(6, '0')}`;
  const entry: LedgerEntry = {
    id: randomUUID(),
    agentGroupId,
    type: 'CHARGE',
    status: 'POSTED',
    amount: total,
    currency: 'INR',
    bookingId,
    externalBookingId: `BENCH-${i}`,
    description: `Booking ${bookingId}`,
    occurredAt: at,
  };
  const summary = {
    baseSubtotal: 1_200_000,
    mealsSubtotal: 0,
    vasSubtotal: 0,
    cancellationPlanDiscount: 0,
    stayAfterCancellationPlan: 1_200_000,
    bankOffer: null,
    priceAfterBankOffer: 1_200_000,
    offersDiscount: 0,
    taxableSubtotal: 1_200_000,
    gst: 60_000,
    grandTotal: total,
  };
  const booking: Booking = {
    bookingRef,
    agentGroupId,
    partnerId,
    channelId,
    externalBookingId: `BENCH-${i}`,
    orderId: randomUUID(),
    code: `PB-${bookingRef.slice(0, 8).toUpperCase()}`,
    status: 'CONFIRMED',
    bookingId,
    listingId,
    checkIn,
    checkOut: addDays(checkIn, 2),
    selectedProperties: [{ propertyId, quantity: 1 }],
    currency: 'INR',
    items: [
      {
        listingId,
        checkIn,
        checkOut: addDays(checkIn, 2),
        nights: 2,
        soldOut: false,
        itemSubtotal: 1_200_000,
        cancellationPlanId: 'bench-flex',
        cancellationPlanDiscount: 0,
        cancellationPolicy: [],
      },
    ],
    summary,
    amount: total,
    chargedTotal: total,
    invoicedIn: [],
    lastAmendment: null,
    amendingId: null,
    chargeLines: lines,
    ledgerEntryId: entry.id,
    primaryGuest: { firstName: 'Bench', email: 'bench@example.com' },
    additionalGuests: [],
    specialRequests: null,
    callbackUrl: null,
    deadline: at,
    watchUntil: at,
    steps: { ...NO_STEPS_DONE, inventoryTaken: true },
    failure: null,
    cancellation: null,
    confirmedAt: at,
    nextCheckAt: null,
    createdAt: at,
    updatedAt: at,
    version: 3,
  };
  return { booking, entry };
}

export async function benchInvoicing(svc: Services, runs: number): Promise<void> {
  const { adminDeps, billingDeps } = await import('../infra/container.ts');
  const { createPartner, createAgentGroup, issueKey } = await import('../domain/admin.ts');
  const { importWorld } = await import('../domain/world/import-world.ts');
  const { PdfInvoiceRenderer } = await import('../infra/pdf/pdf-invoice-renderer.ts');
  const seed = await seeding(svc);
  const admin = adminDeps(seed, operatorOrigin('bench', 'seed'));
  const channelId = 'bench-invoicing';
  await importWorld(
    { ...admin, catalogue: seed.catalogue },
    {
      ...benchWorld({ channelId, listings: LISTINGS, from: '2027-01-01', days: 30, idPrefix: 'inv-l' }),
      gst: { registrations: [{ state: 'Goa', stateCode: '30', gstin: '30AAKCB1234C1ZX', legalName: 'Bench Stays Goa', address: 'Panaji, Goa 403001' }] },
    },
    { allowPlaintextKeys: true },
  );
  await createPartner(admin, { partnerId: 'bench-inv-partner', name: 'Bench', channelId });
  const group = await createAgentGroup(admin, benchGroupInput('bench-inv-agents', 'bench-inv-partner', channelId, 100_000_000_00));
  const { apiKey } = await issueKey(admin, { owner: { kind: 'agent-group', id: group.agentGroupId }, rateLimit: { perMinute: 100_000, burst: 10_000 } });

  const at = new Date(Date.now() - 3_600_000).toISOString();
  const items = Array.from({ length: BOOKINGS }, (_, i) => seededBooking(group.agentGroupId, group.partnerId, channelId, i, at)).flatMap(
    ({ booking, entry }) => [
      bookingItem(booking),
      entryItem(entry),
      { ...keys.bookingAlias(group.agentGroupId, booking.bookingId!), entity: 'BookingAlias', bookingRef: booking.bookingRef, bookingId: booking.bookingId },
    ],
  );
  await putAll(createDocumentClient(seed.config), svc.config.tableName, items);

  const deps = billingDeps(svc, new PdfInvoiceRenderer());
  const billingRun = benchBillingRun(deps);
  const timed = async (label: string) => {
    const { result, ms } = await billingRun(group);
    const ops = Object.entries(dynamoCalls.byOperation)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([op, n]) => `${op.replace(/Command$/, '')} ${n}`)
      .join(', ');
    console.log(
      `${label}: ${(ms / 1000).toFixed(2)} s, ${dynamoCalls.total} DynamoDB calls (${ops}); ${result.linesWritten} lines on ${result.invoiceIds.length} invoice(s)`,
    );
    return result;
  };
  console.log(`\ninvoicing: one group, ${BOOKINGS} POSTED bookings of 2 nights on ${LISTINGS} listings in one state`);
  const first = await timed('billing run');
  // Items written by the run: each line, each booking's billing marker (with its lines), the invoice (created, its figures per transaction, issue, PDF key, marks), the series, each booking's invoicedIn, the run record, the lock.
  console.log(
    `items written: ${first.linesWritten} lines + ${BOOKINGS} billing markers + ${BOOKINGS} bookings marked invoiced + the invoice, its series counter, the run record and the lock`,
  );
  await timed('re-run (nothing left to bill)');
  const { rerenderPdf } = await import('../domain/invoicing/manage-invoices.ts');
  resetDynamoCalls();
  const r0 = performance.now();
  await rerenderPdf(deps, group.agentGroupId, first.invoiceIds[0]!);
  console.log(
    `of which the PDF of the ${first.linesWritten}-line invoice (render + store): ${((performance.now() - r0) / 1000).toFixed(2)} s, ${dynamoCalls.total} DynamoDB calls`,
  );

  const invoiceId = first.invoiceIds[0]!;
  const handler = async (module: string, event: unknown) => {
    const { handler: h } = (await import(module)) as { handler: (e: unknown, c: unknown) => Promise<{ statusCode: number }> };
    return (await h(event, lambdaContext)).statusCode;
  };
  console.log(
    `GET /v1/invoices (page of 20) | ${fmt(await measure(() => handler('../functions/invoices/list-invoices.ts', httpEvent('GET', '/v1/invoices', { key: apiKey, query: { size: '20' } })), runs))}`,
  );
  console.log(
    `GET /v1/invoices/{id} (${first.linesWritten} lines) | ${fmt(await measure(() => handler('../functions/invoices/get-invoice.ts', { ...httpEvent('GET', `/v1/invoices/${invoiceId}`, { key: apiKey }), pathParameters: { id: invoiceId } }), Math.min(runs, 10), 1))}`,
  );
  console.log(
    `GET /v1/invoices/{id}/pdf (stored) | ${fmt(await measure(() => handler('../functions/invoices/get-invoice-pdf.ts', { ...httpEvent('GET', `/v1/invoices/${invoiceId}/pdf`, { key: apiKey }), pathParameters: { id: invoiceId } }), Math.min(runs, 10), 1))}`,
  );
}

/** `npm run bench:invoicing`: this case alone, on its own emulators. */
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchAlone({ table: 'pds-bench-invoicing', invoiceBucket: true }, (svc) => benchInvoicing(svc, Number(process.env.BENCH_RUNS ?? 30)));
}

import { randomUUID } from 'node:crypto';
import { QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { newDraftInvoice, type Invoice, type InvoiceLine } from '../../domain/invoicing/invoice.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { DynamoAuditTrail } from '../../infra/dynamo/dynamo-audit-trail.ts';
import { DynamoBookingMarks } from '../../infra/dynamo/dynamo-booking-marks.ts';
import { DynamoInvoiceStore } from '../../infra/dynamo/dynamo-invoice-store.ts';
import { db, table } from '../support/billing-run-kit.ts';

/**
 * An invoice with more lines than one transaction holds is written by parallel lanes
 * (docs/invoicing.md "A large run's cost"): these race them against another run, an
 * operator's abandon and a run that dies midway, on DynamoDB Local.
 */
const BOOKINGS = 150;
/** The run's time, given to every write; far from the machine's so a write dated by the machine shows. */
const RUN_AT = '2027-04-01T02:00:00.000Z';

const parties = {
  supplierGstin: '30AAKCP4821M1ZC',
  supplierName: 'Lanes Test',
  supplierAddress: 'Panaji',
  supplierStateCode: '30',
  billToGstin: null,
  billToName: 'Agents',
  billToAddress: 'Mumbai',
  placeOfSupply: 'Goa',
  placeOfSupplyStateCode: '30',
};

const storeOn = (client: DynamoDBDocumentClient) => new DynamoInvoiceStore(client, table(), new DynamoAuditTrail(client, table(), 'test', sha256Hex));

async function draftOf(store: DynamoInvoiceStore, g: string): Promise<Invoice> {
  const draft = newDraftInvoice({
    id: randomUUID(),
    agentGroupId: g,
    runId: randomUUID(),
    period: { from: '2027-03-01', to: '2027-03-31' },
    parties,
    at: new Date().toISOString(),
  });
  await store.createDraft(draft);
  return draft;
}

/** One night's line for each of the group's bookings, with figures that differ by booking. */
const linesFor = (invoice: Invoice): InvoiceLine[] =>
  Array.from({ length: BOOKINGS }, (_, i) => {
    const taxableValue = 400_000 + i * 137;
    const gst = Math.round(taxableValue * 0.09);
    return {
      id: randomUUID(),
      invoiceId: invoice.id,
      agentGroupId: invoice.agentGroupId,
      key: 'STAY#p1#2027-03-02',
      lineKind: 'STAY',
      sac: '996311',
      description: 'Villa stay, one unit-night',
      propertyName: 'Casa Azul',
      bookingRef: `BR-${String(i).padStart(4, '0')}`,
      bookingId: `PS-${i}`,
      ledgerEntryId: randomUUID(),
      itemRef: 'p1#2027-03-02',
      nightDate: '2027-03-02',
      checkIn: '2027-03-02',
      checkOut: '2027-03-03',
      quantity: 1,
      unitBase: taxableValue,
      discount: 0,
      taxableValue,
      gstRate: 18,
      cgst: gst,
      sgst: gst,
      igst: 0,
      lineTotal: taxableValue + 2 * gst,
    } as InvoiceLine;
  });

async function storedLines(g: string): Promise<Record<string, unknown>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': `GROUP#${g}`, ':p': 'INVLINE#' },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

/** The invoice's figures are exactly those of the lines stored for it, and final. */
function expectFiguresOfLines(invoice: Invoice, lines: Record<string, unknown>[]): void {
  const own = lines.filter((l) => l.invoiceId === invoice.id);
  const sum = (f: string) => own.reduce((s, l) => s + (l[f] as number), 0);
  expect(invoice.linesOpen).toBeUndefined();
  expect({ lineCount: invoice.lineCount, subtotal: invoice.subtotal, cgst: invoice.cgst, sgst: invoice.sgst, total: invoice.total }).toEqual({
    lineCount: own.length,
    subtotal: sum('taxableValue'),
    cgst: sum('cgst'),
    sgst: sum('sgst'),
    total: sum('lineTotal'),
  });
  expect([...invoice.bookingRefs].sort()).toEqual([...new Set(own.map((l) => l.bookingRef as string))].sort());
}

/**
 * A client whose line transactions after the first `pass` wait at a gate (a run stalled or
 * dying mid-write, deterministic): `held` resolves once `expectHeld` of them wait, `open()`
 * lets them go to DynamoDB.
 */
function gatedClient(pass: number, expectHeld: number) {
  const real = db();
  let sent = 0;
  let waiting = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let allHeld!: () => void;
  const held = new Promise<void>((r) => (allHeld = r));
  const send = async (cmd: unknown) => {
    if (cmd instanceof TransactWriteCommand && ++sent > pass) {
      if (++waiting === expectHeld) allHeld();
      await gate;
    }
    return real.send(cmd as TransactWriteCommand);
  };
  const client = new Proxy(real, { get: (t, p) => (p === 'send' ? send : Reflect.get(t, p)) }) as DynamoDBDocumentClient;
  return { client, held, open: () => release() };
}

describe('Class: DynamoInvoiceStore, lines written by parallel lanes', () => {
  it('bills each booking once when two runs race their lanes for the same bookings, each invoice holding exactly its lines', async () => {
    const store = storeOn(db());
    const g = `grp-lanes-${randomUUID().slice(0, 8)}`;
    const [a, b] = await Promise.all([draftOf(store, g), draftOf(store, g)]);

    const [wa, wb] = await Promise.all([store.addLines(a, linesFor(a), RUN_AT), store.addLines(b, linesFor(b), RUN_AT)]);

    const lines = await storedLines(g);
    expect(lines).toHaveLength(BOOKINGS);
    expect(wa.written + wb.written).toBe(BOOKINGS);
    // Each run tried every booking: what it did not write, the other had.
    expect([wa.refusedBookings.length, wb.refusedBookings.length]).toEqual([BOOKINGS - wa.written, BOOKINGS - wb.written]);
    for (const inv of [a, b]) expectFiguresOfLines((await store.get(g, inv.id))!, lines);
    // The run's clock, not the machine's, dates the writes (a run's left-behind check reads it).
    for (const inv of [a, b]) expect((await store.get(g, inv.id))!.updatedAt).toBe(RUN_AT);
  }, 60_000);

  it('refuses an abandon while the lanes write, and releases every line once it is allowed', async () => {
    const gated = gatedClient(2, 6);
    const store = storeOn(gated.client);
    const g = `grp-lanes-${randomUUID().slice(0, 8)}`;
    const draft = await draftOf(store, g);
    const writing = store.addLines(draft, linesFor(draft), RUN_AT);
    await gated.held;

    expect(await storeOn(db()).abandon(g, draft.id, new Date().toISOString())).toBe(false);
    gated.open();
    expect((await writing).written).toBe(BOOKINGS);
    expectFiguresOfLines((await store.get(g, draft.id))!, await storedLines(g));

    expect(await storeOn(db()).abandon(g, draft.id, new Date().toISOString())).toBe(true);
    expect(await storedLines(g)).toEqual([]);
    const billed = await new DynamoBookingMarks(db(), table()).billedTotals(
      g,
      linesFor(draft).map((l) => l.bookingRef),
    );
    expect([...billed.values()]).toEqual(Array.from({ length: BOOKINGS }, () => 0));
  }, 60_000);

  it("closes the draft of a run that died mid-write with the figures of what committed, and refuses that run's late writes", async () => {
    const gated = gatedClient(3, 5);
    const dying = storeOn(gated.client);
    const g = `grp-lanes-${randomUUID().slice(0, 8)}`;
    const draft = await draftOf(dying, g);
    const writing = dying.addLines(draft, linesFor(draft), RUN_AT);
    await gated.held;
    const open = (await storeOn(db()).get(g, draft.id))!;
    expect(open.linesOpen).toBe(true);
    expect(open.lineCount).toBe(0);

    const closed = await storeOn(db()).closeLines(g, draft.id, RUN_AT);
    const committed = await storedLines(g);
    expect(committed.length).toBeGreaterThan(0);
    expect(committed.length).toBeLessThan(BOOKINGS);
    expectFiguresOfLines(closed, committed);

    gated.open();
    await expect(writing).rejects.toThrow(/closed by another run/);
    expect(await storedLines(g)).toHaveLength(committed.length);
    expectFiguresOfLines((await storeOn(db()).get(g, draft.id))!, committed);
    expect((await storeOn(db()).closeLines(g, draft.id, RUN_AT)).lineCount).toBe(committed.length);
  }, 60_000);
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newDraftInvoice, type Invoice, type InvoiceLine } from '../../../domain/invoicing/invoice.ts';
import type { BookingMarks } from '../../../domain/ports/booking-marks.ts';
import type { InvoiceStore } from '../../../domain/ports/invoice-store.ts';
import type { BilledMarks, DraftInvoiceStore } from '../memory/in-memory-invoice-store.ts';

export interface InvoiceStoreSubject {
  readonly store: DraftInvoiceStore | InvoiceStore;
  /** What each booking was billed, as the store's lines move it. */
  readonly marks: BilledMarks | BookingMarks;
  /** A new agent group's id. */
  newGroup(): Promise<string>;
}

export const T0 = Date.parse('2027-02-01T03:00:00.000Z');
export const at = (second: number): string => new Date(T0 + second * 1000).toISOString();

/** A new DRAFT of the group with Goa's parties, created `second` seconds after T0. */
export function draft(agentGroupId: string, second = 0): Invoice {
  return newDraftInvoice({
    id: randomUUID(),
    agentGroupId,
    runId: randomUUID(),
    period: { from: '2027-01-01', to: '2027-01-31' },
    parties: {
      supplierGstin: '30AAAAA0000A1Z5',
      supplierName: 'Villas Pvt Ltd',
      supplierAddress: '1 Beach Road, Goa',
      supplierStateCode: '30',
      billToGstin: null,
      billToName: 'Agent Group',
      billToAddress: '2 MG Road, Bengaluru',
      placeOfSupply: 'Goa',
      placeOfSupplyStateCode: '30',
    },
    at: at(second),
  });
}

/** A night's stay line of a booking: 5 % GST split CGST/SGST inside `total`. */
function line(invoice: Invoice, bookingRef: string, night: string, total: number): InvoiceLine {
  const gst = Math.round(total / 21);
  const taxable = total - gst;
  return {
    id: randomUUID(),
    invoiceId: invoice.id,
    agentGroupId: invoice.agentGroupId,
    key: `STAY#${night}`,
    lineKind: 'STAY',
    sac: '996311',
    description: `Suite, night of ${night}`,
    propertyName: 'Suite',
    bookingRef,
    bookingId: `PS-${bookingRef.slice(0, 8)}`,
    ledgerEntryId: randomUUID(),
    itemRef: 'suite',
    nightDate: night,
    checkIn: '2027-01-10',
    checkOut: '2027-01-12',
    quantity: 1,
    unitBase: taxable,
    discount: 100,
    taxableValue: taxable,
    gstRate: 5,
    cgst: Math.floor(gst / 2),
    sgst: gst - Math.floor(gst / 2),
    igst: 0,
    lineTotal: total,
  };
}

/**
 * The InvoiceStore port's contract for draft invoices (the methods of DraftInvoiceStore), run
 * against every adapter (as creditLedgerContract): InMemoryInvoiceStore in the unit tier,
 * DynamoInvoiceStore on DynamoDB Local. What billing rules rely on: a line billed once per
 * booking, kind and item across invoices, a booking whose line is taken left out whole, the
 * figures the sum of the lines, only a DRAFT taking lines, and abandoning giving lines back (the
 * billing lock is billingRunControlContract's). Numbering, issue, payments, e-invoicing and the parallel lanes of large
 * invoices stay in the DynamoDB tests.
 */
export function invoiceStoreContract(adapter: string, subject: () => Promise<InvoiceStoreSubject>): void {
  describe(`InvoiceStore contract (drafts): ${adapter}`, () => {
    it('adds lines to a DRAFT with its figures and bookings; a booking with a line billed elsewhere is left out whole', async () => {
      const { store, marks, newGroup } = await subject();
      const g = await newGroup();
      const [first, second] = [draft(g), draft(g, 1)];
      await store.createDraft(first);
      await store.createDraft(second);
      const [b1, b2] = [randomUUID(), randomUUID()];
      const firstLines = [line(first, b1, '2027-01-10', 5_250_00), line(first, b1, '2027-01-11', 5_250_00)];

      const wrote = await store.addLines(first, firstLines, at(5));
      // b1's second night is already on the first invoice: b1 is refused whole, b2 goes on.
      const racing = await store.addLines(
        second,
        [line(second, b1, '2027-01-12', 4_200_00), line(second, b1, '2027-01-11', 5_250_00), line(second, b2, '2027-01-10', 2_100_00)],
        at(6),
      );

      // The port's figures (an adapter may carry more of its own on `totals`).
      const figures = { subtotal: 10_000_00, cgst: 25_000, sgst: 25_000, igst: 0, discount: 200, total: 10_500_00, lineCount: 2 };
      expect(wrote).toMatchObject({ written: 2, totals: figures, refusedBookings: [], unwrittenBookings: 0 });
      expect(racing).toMatchObject({ written: 1, refusedBookings: [b1], unwrittenBookings: 0, totals: { total: 2_100_00, lineCount: 1 } });
      expect(await store.get(g, first.id)).toEqual({ ...first, ...figures, bookingRefs: [b1], updatedAt: at(5) });
      expect(await store.get(g, second.id)).toMatchObject({ total: 2_100_00, lineCount: 1, bookingRefs: [b2] });
      expect(await store.lines(g, first.id)).toEqual(firstLines);
      expect(Object.fromEntries(await marks.billedTotals(g, [b1, b2, randomUUID()]))).toEqual({ [b1]: 10_500_00, [b2]: 2_100_00 });
      expect(Object.fromEntries(await marks.billedLines(g, b1))).toEqual({ 'STAY#2027-01-10': 5_250_00, 'STAY#2027-01-11': 5_250_00 });
      expect(await store.get(await newGroup(), first.id)).toBeUndefined();
      expect(await store.lines(await newGroup(), first.id)).toEqual([]);
      for (const i of [first, second]) expect(await store.abandon(g, i.id, at(9))).toBe(true);
    });

    it('lists open DRAFTs oldest first, removes one only while it is empty, and writes nothing when asked to stop', async () => {
      const { store, newGroup } = await subject();
      const g = await newGroup();
      const [older, empty, withLines] = [draft(g, 0), draft(g, 1), draft(g, 2)];
      for (const i of [withLines, empty, older]) await store.createDraft(i);
      const ref = randomUUID();
      await store.addLines(withLines, [line(withLines, ref, '2027-01-10', 1_050_00)], at(3));

      const stopped = await store.addLines(older, [line(older, randomUUID(), '2027-01-10', 1_050_00)], at(4), { stop: () => true });
      await store.deleteEmptyDraft(g, empty.id);
      await store.deleteEmptyDraft(g, withLines.id);

      expect(stopped).toMatchObject({ written: 0, unwrittenBookings: 1, refusedBookings: [] });
      expect(await store.get(g, empty.id)).toBeUndefined();
      expect((await store.openInvoices(g)).map((i) => i.id)).toEqual([older.id, withLines.id]);
      expect(await store.groupsWithOpenInvoices()).toContain(g);
      expect(await store.lines(g, older.id)).toEqual([]);
      for (const i of [older, withLines]) await store.abandon(g, i.id, at(9));
    });

    it('abandons only a DRAFT: it leaves the open list and gives its lines back to be billed again', async () => {
      const { store, marks, newGroup } = await subject();
      const g = await newGroup();
      const invoice = draft(g);
      await store.createDraft(invoice);
      const ref = randomUUID();
      const night = line(invoice, ref, '2027-01-10', 3_150_00);
      await store.addLines(invoice, [night], at(1));

      const abandoned = await store.abandon(g, invoice.id, at(2));
      const next = draft(g, 3);
      await store.createDraft(next);
      const rebilled = await store.addLines(next, [{ ...night, id: randomUUID(), invoiceId: next.id }], at(4));
      const refused = await store.addLines(invoice, [line(invoice, randomUUID(), '2027-01-10', 1_00)], at(5)).catch((err: unknown) => err);

      expect(abandoned).toBe(true);
      expect(await store.get(g, invoice.id)).toMatchObject({ status: 'CANCELLED', updatedAt: at(2) });
      expect(await store.lines(g, invoice.id)).toEqual([]);
      expect(rebilled).toMatchObject({ written: 1, refusedBookings: [] });
      expect(refused).toBeInstanceOf(Error);
      expect(Object.fromEntries(await marks.billedTotals(g, [ref]))).toEqual({ [ref]: 3_150_00 });
      expect((await store.openInvoices(g)).map((i) => i.id)).toEqual([next.id]);
      expect(await store.abandon(g, next.id, at(6))).toBe(true);
      expect(Object.fromEntries(await marks.billedTotals(g, [ref]))).toEqual({ [ref]: 0 });
      expect(await store.openInvoices(g)).toEqual([]);
    });
  });
}

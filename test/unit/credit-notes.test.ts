import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planBilling, type BillingPlanInput, type ChargeForBilling, type PlannedLine } from '../../domain/invoicing/billing-engine.ts';
import {
  bookingCredit,
  creditNoteNumberOf,
  lineCredit,
  remainingOf,
  spreadCredit,
  type CreditableLine,
  type LineCredit,
} from '../../domain/invoicing/credit-notes.ts';
import type { GstRegistration } from '../../domain/catalogue/gst.ts';
import { creditNoteDocumentOf } from '../../domain/invoicing/credit-note-document.ts';
import { checkInvoiceDocument } from '../../domain/invoicing/invoice-document.ts';
import type { Invoice } from '../../domain/invoicing/invoice.ts';
import { raiseBookingCredit, type CreditNoteDeps } from '../../domain/invoicing/raise-credit-note.ts';
import { StaleCreditPlan, type CreditNoteWrite } from '../../domain/ports/credit-note-store.ts';
import { creditedSpans } from '../../domain/receivables/allocation.ts';
import type { LedgerEntry } from '../../domain/ledger/ledger.ts';
import type { ChargeLine } from '../../domain/pricing/charge-lines.ts';
import { splitTax } from '../../domain/invoicing/tax.ts';

const GOA: GstRegistration = { state: 'Goa', stateCode: '30', gstin: '30AAACS1234A1Z5', legalName: 'Stays Goa', address: 'Panaji, Goa' };

const entry = (over: Pick<LedgerEntry, 'id' | 'type' | 'amount'>): LedgerEntry => ({
  agentGroupId: 'g',
  status: 'POSTED',
  currency: 'INR',
  bookingId: 'PS-1',
  externalBookingId: 'ext-1',
  description: '',
  occurredAt: '2026-11-02T10:00:00.000Z',
  ...over,
});

/** A stay of nights (taxable value, rate) and an optional meal, priced as pricing does (GST half up). */
function chargeLines(nights: readonly { value: number; rate: number }[], meal: number | null): ChargeLine[] {
  const gst = (v: number, r: number) => Math.floor((v * r * 2 + 100) / 200);
  const lines: ChargeLine[] = nights.map((n, k) => {
    const date = `2026-12-${String(10 + k).padStart(2, '0')}`;
    return {
      kind: 'STAY',
      ref: `p#${date}#${n.rate}`,
      propertyId: 'p',
      date,
      quantity: 1,
      base: n.value,
      discount: 0,
      taxableValue: n.value,
      gstRatePercent: n.rate,
      gst: gst(n.value, n.rate),
      total: n.value + gst(n.value, n.rate),
    };
  });
  if (meal !== null) {
    const rate = Math.max(...nights.map((n) => n.rate));
    lines.push({
      kind: 'MEAL',
      ref: 'thali#2026-12-10#0',
      propertyId: 'p',
      date: '2026-12-10',
      quantity: 2,
      base: meal,
      discount: 0,
      taxableValue: meal,
      gstRatePercent: rate,
      gst: gst(meal, rate),
      total: meal + gst(meal, rate),
    });
  }
  return lines;
}

function inputOf(lines: ChargeLine[], refund: number, billed: ChargeForBilling['billed'], interState = false): BillingPlanInput {
  const priced = lines.reduce((s, l) => s + l.total, 0);
  return {
    billTo: { gstin: '27AAACT1234B1Z2', name: 'Tripkart Agents', address: 'Mumbai' },
    charges: [
      {
        charge: entry({ id: 'charge-1', type: 'CHARGE', amount: priced }),
        movements: refund === 0 ? [] : [entry({ id: 'refund-1', type: 'REFUND', amount: -refund })],
        booking: {
          bookingRef: 'ref-1',
          bookingId: 'PS-1',
          status: refund === 0 ? 'CONFIRMED' : 'CANCELLED',
          listingId: 'l',
          checkIn: '2026-12-10',
          checkOut: '2026-12-20',
          grandTotal: priced,
          chargeLines: lines,
        },
        billed,
      },
    ],
    properties: new Map([['p', { name: 'Villa', state: 'Goa' }]]),
    addOnNames: new Map(),
    registrations: new Map([['Goa', interState ? { ...GOA, stateCode: '27' } : GOA]]),
  };
}

/** The lines a first run invoices, as stored (ids given), nothing credited yet. */
const invoiced = (planned: readonly PlannedLine[]): CreditableLine[] =>
  planned.map((l, k) => ({ ...l, id: `line-${k}`, invoiceId: 'inv-1', agentGroupId: 'g', creditedTotal: 0, creditedGst: 0 }));

const night = fc.record({ value: fc.integer({ min: 1, max: 2_000_000 }), rate: fc.constantFrom(5, 12, 18) });

describe('Function: spreadCredit', () => {
  it('adds up to the amount exactly, each share with its line’s sign and never more than is left of it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -500_000, max: 5_000_000 }), { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (remaining, f) => {
          const total = remaining.reduce((s, r) => s + r, 0);
          fc.pre(total > 0);
          const amount = Math.max(1, Math.floor(total * f));
          const shares = spreadCredit(remaining, amount);
          expect(shares.reduce((s, x) => s + x, 0)).toBe(amount);
          shares.forEach((x, i) => {
            const r = remaining[i]!;
            if (r >= 0) expect(x >= 0 && x <= r).toBe(true);
            else expect(x <= 0 && x >= r).toBe(true);
          });
          if (amount === total) expect(shares).toEqual(remaining);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses nothing, a negative credit, and more than is left', () => {
    expect(() => spreadCredit([100], 0)).toThrow(RangeError);
    expect(() => spreadCredit([100], -1)).toThrow(RangeError);
    expect(() => spreadCredit([100, 50], 151)).toThrow(RangeError);
  });
});

describe('Function: lineCredit', () => {
  it('credits a line in parts that add up, tax head by tax head, to the line itself once it is credited whole', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.constantFrom(5, 12, 18),
        fc.array(fc.double({ min: 0.01, max: 1, noNaN: true }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (taxable, rate, cuts, intra) => {
          const gst = Math.floor((taxable * rate * 2 + 100) / 200);
          const split = intra ? splitTax(gst, '30', '30') : splitTax(gst, '30', '27');
          let line: CreditableLine = { id: 'l', lineTotal: taxable + gst, taxableValue: taxable, ...split, creditedTotal: 0, creditedGst: 0 } as CreditableLine;
          const parts: LineCredit[] = [];
          for (const cut of [...cuts, 1]) {
            const left = remainingOf(line);
            if (left === 0) break;
            const amount = Math.max(1, Math.min(left, Math.round(left * cut)));
            const c = lineCredit(line, amount, intra);
            expect(c.taxableValue + c.cgst + c.sgst + c.igst).toBe(amount);
            expect(c.taxableValue).toBeGreaterThanOrEqual(0);
            expect(Math.min(c.cgst, c.sgst, c.igst)).toBeGreaterThanOrEqual(0);
            parts.push(c);
            line = { ...line, creditedTotal: line.creditedTotal + amount, creditedGst: line.creditedGst + c.gst };
          }
          const sum = (f: (c: (typeof parts)[number]) => number) => parts.reduce((s, c) => s + f(c), 0);
          expect([sum((c) => c.taxableValue), sum((c) => c.cgst), sum((c) => c.sgst), sum((c) => c.igst)]).toEqual([
            taxable,
            split.cgst,
            split.sgst,
            split.igst,
          ]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a credit beyond what is left of the line', () => {
    const line = { id: 'l', lineTotal: 1_050, taxableValue: 1_000, cgst: 25, sgst: 25, igst: 0, creditedTotal: 1_000, creditedGst: 48 } as CreditableLine;
    expect(() => lineCredit(line, 51, true)).toThrow(RangeError);
    expect(lineCredit(line, 50, true)).toMatchObject({ taxableValue: 48, gst: 2, cgst: 1, sgst: 1 });
  });
});

describe('Function: creditNoteNumberOf', () => {
  it('numbers a credit note from its own series: CN, state code, financial year, six digits, 16 characters', () => {
    expect(creditNoteNumberOf('30', '2026-27', 1)).toBe('CN30/2627/000001');
    expect(creditNoteNumberOf('30', '2026-27', 999_999)).toHaveLength(16);
    expect(() => creditNoteNumberOf('30', '2026-27', 0)).toThrow(RangeError);
  });
});

describe('Function: planBilling, bookings invoiced and then cancelled', () => {
  it('credits the invoiced lines by the refund, in their tax split, so what stays billed is exactly the net POSTED amount', () => {
    fc.assert(
      fc.property(
        fc.array(night, { minLength: 1, maxLength: 8 }),
        fc.option(fc.integer({ min: 100, max: 500_000 }), { nil: null }),
        fc.integer({ min: 1, max: 100 }),
        fc.boolean(),
        (nights, meal, percent, inter) => {
          const lines = chargeLines(nights, meal);
          const first = planBilling(inputOf(lines, 0, { total: 0 }, inter));
          const stored = invoiced(first.invoices[0]!.bookings[0]!.lines);
          const total = stored.reduce((s, l) => s + l.lineTotal, 0);
          const refund = Math.floor((total * percent) / 100);
          fc.pre(refund > 0);
          const plan = planBilling(inputOf(lines, refund, { total, invoiced: stored }, inter));
          expect([plan.invoices, plan.skippedEntries, plan.unreconciledEntries]).toEqual([[], [], []]);
          expect(plan.credits).toHaveLength(1);
          const credit = plan.credits[0]!;
          expect(credit).toMatchObject({ bookingRef: 'ref-1', billed: total });
          expect(credit.credits.reduce((s, c) => s + c.amount, 0)).toBe(refund);
          for (const c of credit.credits) {
            expect(c.amount).toBeGreaterThan(0);
            expect(c.amount).toBeLessThanOrEqual(c.line.lineTotal);
            const f = lineCredit(c.line, c.amount, !inter);
            if (inter) expect(f.cgst + f.sgst).toBe(0);
            else expect(f.igst).toBe(0);
          }
          // Once credited, the booking owes exactly what is still billed: nothing more to do.
          const after = stored.map((l) => ({ ...l, creditedTotal: credit.credits.find((c) => c.line.id === l.id)?.amount ?? 0 }));
          expect(after.reduce((s, l) => s + remainingOf(l), 0)).toBe(total - refund);
          const again = planBilling(inputOf(lines, refund, { total: total - refund }, inter));
          expect([again.invoices, again.credits]).toEqual([[], []]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a cancelled booking whose stay lines were invoiced gets a credit note for the stay lines less the retained amount, the retained part staying on its lines', () => {
    // Two nights at 5,000 + 5 % (5,250 each), cancelled with 50 % refunded: 5,250 is credited, 2,625 off each night.
    const lines = chargeLines(
      [
        { value: 500_000, rate: 5 },
        { value: 500_000, rate: 5 },
      ],
      null,
    );
    const stored = invoiced(planBilling(inputOf(lines, 0, { total: 0 })).invoices[0]!.bookings[0]!.lines);
    const plan = planBilling(inputOf(lines, 525_000, { total: 1_050_000, invoiced: stored }));
    expect(plan.credits[0]!.credits.map((c) => [c.line.id, c.amount])).toEqual([
      ['line-0', 262_500],
      ['line-1', 262_500],
    ]);
    expect(lineCredit(plan.credits[0]!.credits[0]!.line, 262_500, true)).toMatchObject({ taxableValue: 250_000, cgst: 6_250, sgst: 6_250, igst: 0 });
    expect(plan.credits[0]!.reason).toBe('Booking PS-1 (2026-12-10 to 2026-12-20) cancelled: ₹5,250.00 refunded, the retained ₹5,250.00 stays billed.');
  });

  it('reports a booking that would owe less than nothing as unreconciled, and one whose invoiced lines were not read as needing a credit note', () => {
    const lines = chargeLines([{ value: 500_000, rate: 5 }], null);
    const stored = invoiced(planBilling(inputOf(lines, 0, { total: 0 })).invoices[0]!.bookings[0]!.lines);
    expect(planBilling(inputOf(lines, 600_000, { total: 525_000, invoiced: stored })).unreconciledEntries).toEqual([
      { ledgerEntryId: 'charge-1', bookingId: 'PS-1', chargedAmount: -75_000, billedAmount: 525_000 },
    ]);
    expect(planBilling(inputOf(lines, 100_000, { total: 525_000 })).skippedEntries).toEqual([
      { ledgerEntryId: 'charge-1', bookingId: 'PS-1', reason: 'NEEDS_CREDIT_NOTE' },
    ]);
  });
});

describe('Function: bookingCredit with a line lowering the invoice (an amendment’s absorbed drift)', () => {
  it('credits the lowering line too, negative, so the credit note’s lines still net to the refund and it prints with the drift netted into the stay line before tax', () => {
    const base = {
      invoiceId: 'inv-1',
      agentGroupId: 'g',
      bookingRef: 'ref-1',
      bookingId: 'PS-1',
      ledgerEntryId: 'c',
      sac: '996311',
      propertyName: 'Villa',
      checkIn: '2027-01-05',
      checkOut: '2027-01-07',
      quantity: 1,
      discount: 0,
      igst: 0,
      creditedTotal: 0,
      creditedGst: 0,
    };
    const stay = {
      ...base,
      id: 'stay',
      key: 'STAY#p#2027-01-05',
      lineKind: 'STAY',
      description: 'Accommodation',
      itemRef: 'p#2027-01-05',
      nightDate: '2027-01-05',
      unitBase: 1_000_000,
      taxableValue: 1_000_000,
      gstRate: 5,
      cgst: 25_000,
      sgst: 25_000,
      lineTotal: 1_050_000,
    } as CreditableLine;
    const drift = {
      ...base,
      id: 'drift',
      key: 'ADJUSTMENT',
      lineKind: 'ADJUSTMENT',
      description: 'Price difference',
      itemRef: 'ADJUSTMENT',
      nightDate: null,
      unitBase: -16_190,
      taxableValue: -16_190,
      gstRate: 5,
      cgst: -405,
      sgst: -405,
      lineTotal: -17_000,
    } as CreditableLine;
    // Cancelled with 60 % of the 10,330.00 invoiced refunded: 6,198.00 credited.
    const credits = bookingCredit([stay, drift], 1_033_000, 1_033_000 - 619_800);
    expect(credits.reduce((s, c) => s + c.amount, 0)).toBe(619_800);
    expect(credits.find((c) => c.line.id === 'drift')!.amount).toBeLessThan(0);
    const lines = credits
      .map((c, k) => ({ ...lineCredit(c.line, c.amount, true), k }))
      .map((f) => ({
        ...f.line,
        id: `n${f.k}`,
        taxableValue: f.taxableValue,
        cgst: f.cgst,
        sgst: f.sgst,
        igst: f.igst,
        lineTotal: f.amount,
        creditNoteForLine: f.line.id,
      }));
    const note = {
      id: 'note',
      status: 'ISSUED',
      invoiceNumber: 'CN30/2627/000001',
      issueDate: '2027-01-20',
      dueDate: null,
      periodFrom: '2027-01-01',
      periodTo: '2027-01-31',
      supplierGstin: '30AAACS1234A1Z5',
      supplierName: 'Stays Goa',
      supplierAddress: 'Panaji',
      supplierStateCode: '30',
      billToGstin: '27AAACT1234B1Z2',
      billToName: 'Tripkart',
      billToAddress: 'Mumbai',
      placeOfSupply: 'Goa',
      placeOfSupplyStateCode: '30',
      total: 619_800,
      discount: 0,
      gatewayOrderId: null,
      creditNoteFor: 'inv-1',
      creditNoteForNumber: '30/26-27/000001',
      creditNoteForDate: '2027-01-10',
      creditReason: 'Cancelled',
    } as unknown as Parameters<typeof creditNoteDocumentOf>[0];
    const doc = checkInvoiceDocument(creditNoteDocumentOf(note, lines));
    expect(doc).toMatchObject({
      kind: 'CREDIT_NOTE',
      originalInvoice: { number: '30/26-27/000001', date: '2027-01-10' },
      reason: 'Cancelled',
      totals: { total: 619_800, discount: 0 },
    });
    const sum = (k: 'taxableValue' | 'cgst' | 'sgst') => lines.reduce((s, l) => s + l[k], 0);
    expect(doc.lines).toHaveLength(1);
    expect(doc.lines[0]).toMatchObject({
      taxableValue: sum('taxableValue'),
      cgst: sum('cgst'),
      sgst: sum('sgst'),
      lineTotal: 619_800,
      lowered: -lines.find((l) => l.creditNoteForLine === 'drift')!.taxableValue,
    });
  });
});

describe('Function: raiseBookingCredit', () => {
  const stay = {
    id: 'stay',
    invoiceId: 'inv-1',
    agentGroupId: 'g',
    bookingRef: 'ref-1',
    bookingId: 'PS-1',
    key: 'STAY#x',
    lineKind: 'STAY',
    sac: '996311',
    description: 'Accommodation',
    propertyName: 'Villa',
    ledgerEntryId: 'c',
    itemRef: 'x',
    nightDate: '2027-01-05',
    checkIn: '2027-01-05',
    checkOut: '2027-01-06',
    quantity: 1,
    unitBase: 1_000_000,
    discount: 0,
    taxableValue: 1_000_000,
    gstRate: 5,
    cgst: 25_000,
    sgst: 25_000,
    igst: 0,
    lineTotal: 1_050_000,
    creditedTotal: 0,
    creditedGst: 0,
  } as CreditableLine;
  const invoice = {
    id: 'inv-1',
    agentGroupId: 'g',
    status: 'ISSUED',
    invoiceNumber: '30/26-27/000001',
    issueDate: '2027-01-10',
    total: 1_050_000,
    supplierStateCode: '30',
    placeOfSupplyStateCode: '30',
    supplierGstin: '30AAACS1234A1Z5',
  } as Invoice;
  /** Fakes whose first commit is refused as stale; the marker reads `marker`. */
  function fakes(marker: number) {
    let calls = 0;
    const deps: CreditNoteDeps = {
      invoices: { get: async () => invoice, lines: async () => [stay] },
      bookingMarks: { billedTotals: async () => new Map([['ref-1', marker]]) },
      creditNotes: {
        creditableLines: async () => [stay],
        raise: async (w: CreditNoteWrite) => {
          calls += 1;
          if (calls === 1) throw new StaleCreditPlan('moved');
          return { ...w.note, invoiceNumber: w.numberOf(7) };
        },
      },
      clock: { now: () => new Date('2027-01-20T06:00:00Z') },
      ids: { uuid: () => crypto.randomUUID() },
    } as unknown as CreditNoteDeps;
    return { deps, calls: () => calls };
  }
  const plan = { bookingRef: 'ref-1', billed: 1_050_000, credits: [{ line: stay, amount: 525_000 }], reason: 'Cancelled' };

  it('retries on the invoice as it is now when only the invoice moved (a payment allocated meanwhile)', async () => {
    const f = fakes(1_050_000);
    const raised = await raiseBookingCredit(f.deps, 'g', 'run-1', plan);
    expect(raised.map((n) => [n.invoiceNumber, n.total, n.creditNoteFor])).toEqual([['CN30/2627/000007', 525_000, 'inv-1']]);
    expect(f.calls()).toBe(2);
  });

  it('leaves the booking to the next run when another run moved its marker first', async () => {
    const f = fakes(525_000);
    expect(await raiseBookingCredit(f.deps, 'g', 'run-1', plan)).toEqual([]);
    expect(f.calls()).toBe(1);
  });

  /** Fakes of a run that planned on the booking as billed, then read the invoice after a racing run credited all of it. */
  function creditedFirst(marker: number) {
    const f = fakes(marker);
    const credited = { ...invoice, creditedAmount: invoice.total };
    const deps = { ...f.deps, invoices: { ...f.deps.invoices, get: async () => credited } } as unknown as CreditNoteDeps;
    return { deps, calls: f.calls };
  }
  const whole = { ...plan, credits: [{ line: stay, amount: 1_050_000 }] };

  it('leaves the booking to the next run when a racing run credited the whole invoice before it read it', async () => {
    const f = creditedFirst(0);
    expect(await raiseBookingCredit(f.deps, 'g', 'run-2', whole)).toEqual([]);
    expect(f.calls()).toBe(0);
  });

  it('still refuses to credit more than was invoiced when nothing raced (the booking as planned)', async () => {
    const f = creditedFirst(1_050_000);
    await expect(raiseBookingCredit(f.deps, 'g', 'run-2', whole)).rejects.toThrow(/would credit more than was invoiced/);
    expect(f.calls()).toBe(0);
  });
});

describe('Function: creditedSpans', () => {
  it('shrinks each booking’s span by its credit and moves the later ones up, in line order', () => {
    const spans = { a: [0, 1_050_000], b: [1_050_000, 2_100_000], c: [2_100_000, 2_200_000] } as const;
    expect(creditedSpans(spans, { a: 1_050_000, c: 50_000 })).toEqual({ a: [0, 0], b: [0, 1_050_000], c: [1_050_000, 1_100_000] });
    expect(creditedSpans(spans, undefined)).toBe(spans);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import type { GstRegistration } from '../../domain/catalogue/gst.ts';
import { netCharged, planBilling, type BillingPlanInput, type ChargeForBilling } from '../../domain/invoicing/billing-engine.ts';
import { cutoffOf, financialYearOf, invoiceNumberOf, lastClosedPeriod } from '../../domain/invoicing/billing-period.ts';
import { splitInclusive, splitTax } from '../../domain/invoicing/tax.ts';
import type { LedgerEntry } from '../../domain/ledger/ledger.ts';
import type { ChargeLine } from '../../domain/pricing/charge-lines.ts';

const REGISTRATIONS: GstRegistration[] = [
  { state: 'Goa', stateCode: '30', gstin: '30AAACS1234A1Z5', legalName: 'Stays Goa', address: 'Panaji, Goa' },
  { state: 'Karnataka', stateCode: '29', gstin: '29AAACS1234A1Z7', legalName: 'Stays Karnataka', address: 'Bengaluru, Karnataka' },
];
const STATES = ['Goa', 'Karnataka', 'Kerala'] as const;

const entry = (over: Partial<LedgerEntry> & Pick<LedgerEntry, 'id' | 'type' | 'amount'>): LedgerEntry => ({
  agentGroupId: 'g',
  status: 'POSTED',
  currency: 'INR',
  bookingId: 'PS-1',
  externalBookingId: 'ext-1',
  description: '',
  occurredAt: '2026-11-02T10:00:00.000Z',
  ...over,
});

interface BookingShape {
  state: (typeof STATES)[number];
  nights: { units: number; value: number; rate: number }[];
  meals: number[];
  cancelled: null | number;
  drift: number;
}

const bookingShape: fc.Arbitrary<BookingShape> = fc.record({
  state: fc.constantFrom(...STATES),
  nights: fc.array(fc.record({ units: fc.integer({ min: 1, max: 3 }), value: fc.integer({ min: 1, max: 2_000_000 }), rate: fc.constantFrom(5, 12, 18) }), {
    minLength: 1,
    maxLength: 5,
  }),
  meals: fc.array(fc.integer({ min: 100, max: 500_000 }), { maxLength: 2 }),
  cancelled: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  drift: fc.oneof(fc.constant(0), fc.integer({ min: -50_000, max: 50_000 })),
});

/** A charge, its movements and booking from a shape; GST per line as pricing computes it (half up). */
function chargeOf(shape: BookingShape, i: number): ChargeForBilling {
  const gst = (v: number, r: number) => Math.floor((v * r * 2 + 100) / 200);
  const lines: ChargeLine[] = shape.nights.map((n, night) => {
    const taxableValue = n.value * n.units;
    const tax = gst(taxableValue, n.rate);
    return {
      kind: 'STAY',
      ref: `p${i}#${addDays('2026-11-01', night)}#${n.rate}`,
      propertyId: `p${i}`,
      date: addDays('2026-11-01', night),
      quantity: n.units,
      base: taxableValue,
      discount: 0,
      taxableValue,
      gstRatePercent: n.rate,
      gst: tax,
      total: taxableValue + tax,
    };
  });
  const topRate = Math.max(...shape.nights.map((n) => n.rate));
  shape.meals.forEach((m, k) => {
    const tax = gst(m, topRate);
    lines.push({
      kind: 'MEAL',
      ref: `meal-${k}#2026-11-01#${k}`,
      propertyId: `p${i}`,
      date: '2026-11-01',
      quantity: 2,
      base: m,
      discount: 0,
      taxableValue: m,
      gstRatePercent: topRate,
      gst: tax,
      total: m + tax,
    });
  });
  const priced = lines.reduce((s, l) => s + l.total, 0);
  const bookingId = `PS-${i}`;
  const charge = entry({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, type: 'CHARGE', amount: priced, bookingId });
  const movements: LedgerEntry[] = [];
  if (shape.drift !== 0 && shape.cancelled === null && priced + shape.drift > 0)
    movements.push(entry({ id: `adj-${i}`, type: 'ADJUSTMENT', amount: shape.drift, bookingId }));
  if (shape.cancelled !== null) {
    const refund = -Math.floor((priced * shape.cancelled) / 100);
    if (refund !== 0) movements.push(entry({ id: `ref-${i}`, type: 'REFUND', amount: refund, bookingId }));
  }
  return {
    charge,
    movements,
    booking: {
      bookingRef: `ref-${i}`,
      bookingId,
      status: shape.cancelled === null ? 'CONFIRMED' : 'CANCELLED',
      listingId: `l${i}`,
      checkIn: '2026-11-01',
      checkOut: addDays('2026-11-01', shape.nights.length),
      grandTotal: priced,
      chargeLines: lines,
    },
    billed: { total: 0 },
  };
}

function inputOf(shapes: BookingShape[]): BillingPlanInput {
  const charges = shapes.map(chargeOf);
  return {
    billTo: { gstin: '27AAACT1234B1Z2', name: 'Tripkart Agents', address: 'Mumbai' },
    charges,
    properties: new Map(shapes.map((s, i) => [`p${i}`, { name: `Villa ${i}`, state: s.state }])),
    addOnNames: new Map(),
    registrations: new Map(REGISTRATIONS.map((r) => [r.state, r])),
  };
}

describe('Function: planBilling', () => {
  it("bills each booking's lines adding up exactly to its net POSTED amount, one invoice per registration, and holds back unregistered states", () => {
    fc.assert(
      fc.property(fc.array(bookingShape, { minLength: 1, maxLength: 12 }), (shapes) => {
        const input = inputOf(shapes);
        const plan = planBilling(input);
        expect(plan.skippedEntries).toEqual([]);
        expect(plan.unreconciledEntries).toEqual([]);
        const gstins = plan.invoices.map((i) => i.parties.supplierGstin);
        expect(new Set(gstins).size).toBe(gstins.length);
        const billed = new Map<string, number>();
        for (const inv of plan.invoices) {
          expect(REGISTRATIONS.find((r) => r.gstin === inv.parties.supplierGstin)!.state).toBe(inv.parties.placeOfSupply);
          for (const b of inv.bookings) {
            billed.set(
              b.bookingRef,
              b.lines.reduce((s, l) => s + l.lineTotal, 0),
            );
            for (const l of b.lines) {
              expect(l.taxableValue + l.cgst + l.sgst + l.igst).toBe(l.lineTotal);
              // Intra-state: halves that add up, the odd paisa on CGST; no IGST.
              expect(l.igst).toBe(0);
              expect(Math.abs(l.cgst) - Math.abs(l.sgst)).toBeGreaterThanOrEqual(0);
              expect(Math.abs(l.cgst) - Math.abs(l.sgst)).toBeLessThanOrEqual(1);
              expect(l.sac).toBe('996311');
              // The partner's own reference rides on every line, from the booking's charge.
              expect(l.externalBookingId).toBe('ext-1');
            }
            expect(new Set(b.lines.map((l) => l.key)).size).toBe(b.lines.length);
          }
        }
        shapes.forEach((s, i) => {
          const c = input.charges[i]!;
          const owed = netCharged(c);
          if (s.state === 'Kerala' || owed === 0) expect(billed.has(`ref-${i}`)).toBe(false);
          else expect(billed.get(`ref-${i}`)).toBe(owed);
        });
        const kerala = shapes.map((s, i) => ({ s, c: input.charges[i]! })).filter(({ s, c }) => s.state === 'Kerala' && netCharged(c) > 0);
        if (kerala.length === 0) expect(plan.blockedStates).toEqual([]);
        else expect(plan.blockedStates).toEqual([expect.objectContaining({ state: 'Kerala' })]);
      }),
      { numRuns: 300 },
    );
  });

  it('bills nothing again once every line is invoiced, and only the missing lines after a partial write', () => {
    fc.assert(
      fc.property(fc.array(bookingShape, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 1000 }), (shapes, seed) => {
        const input = inputOf(shapes);
        const first = planBilling(input);
        const lines = new Map(first.invoices.flatMap((i) => i.bookings.map((b) => [b.bookingRef, b.lines] as const)));
        // All billed: nothing left.
        const allBilled = {
          ...input,
          charges: input.charges.map((c) => ({
            ...c,
            billed: { total: (lines.get(c.booking!.bookingRef) ?? []).reduce((s, l) => s + l.lineTotal, 0) || (netCharged(c) === 0 ? 0 : 0) },
          })),
        };
        const settled = planBilling({ ...allBilled, charges: allBilled.charges.filter((c) => lines.has(c.booking!.bookingRef)) });
        expect(settled.invoices).toEqual([]);
        // Part billed (a run that died between transactions): the rest, exactly once.
        const partial = input.charges.map((c) => {
          const own = lines.get(c.booking!.bookingRef) ?? [];
          const done = own.filter((_, k) => (k + seed) % 2 === 0);
          return { ...c, billed: { total: done.reduce((s, l) => s + l.lineTotal, 0), lines: new Map(done.map((l) => [l.key, l.lineTotal])) } };
        });
        const rest = planBilling({ ...input, charges: partial });
        for (const inv of rest.invoices) {
          for (const b of inv.bookings) {
            const own = lines.get(b.bookingRef)!;
            const done = own.filter((_, k) => (k + seed) % 2 === 0).map((l) => l.key);
            expect(b.lines.map((l) => l.key).sort()).toEqual(
              own
                .map((l) => l.key)
                .filter((k) => !done.includes(k))
                .sort(),
            );
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reports a booking whose stored lines do not add up to its stay as unreconciled and bills none of it', () => {
    const input = inputOf([{ state: 'Goa', nights: [{ units: 1, value: 800_000, rate: 18 }], meals: [], cancelled: null, drift: 0 }]);
    const c = input.charges[0]!;
    const plan = planBilling({ ...input, charges: [{ ...c, booking: { ...c.booking!, grandTotal: c.booking!.grandTotal + 1 } }] });
    expect(plan.invoices).toEqual([]);
    expect(plan.unreconciledEntries).toEqual([{ ledgerEntryId: c.charge.id, bookingId: 'PS-0', chargedAmount: 944_000, billedAmount: 944_000 }]);
  });

  it('skips a charge whose booking is unknown, or already invoiced for lines it no longer owes, with the reason', () => {
    const input = inputOf([{ state: 'Goa', nights: [{ units: 1, value: 500_000, rate: 5 }], meals: [], cancelled: null, drift: 0 }]);
    const c = input.charges[0]!;
    expect(planBilling({ ...input, charges: [{ ...c, booking: undefined }] }).skippedEntries).toEqual([
      { ledgerEntryId: c.charge.id, bookingId: 'PS-0', reason: 'BOOKING_NOT_FOUND' },
    ]);
    const stale = { ...c, billed: { total: 1, lines: new Map([['STAY#gone', 1]]) } };
    expect(planBilling({ ...input, charges: [stale] }).skippedEntries).toEqual([
      { ledgerEntryId: c.charge.id, bookingId: 'PS-0', reason: 'NEEDS_CREDIT_NOTE' },
    ]);
  });
});

describe('Function: splitTax', () => {
  it('halves GST intra-state with the odd paisa on CGST, and puts it all on IGST inter-state', () => {
    expect(splitTax(1_801, '29', '29')).toEqual({ cgst: 901, sgst: 900, igst: 0 });
    expect(splitTax(1_801, '29', '30')).toEqual({ cgst: 0, sgst: 0, igst: 1_801 });
    expect(splitTax(-1_801, '29', '29')).toEqual({ cgst: -901, sgst: -900, igst: 0 });
  });
});

describe('Function: splitInclusive', () => {
  it('splits any tax-inclusive amount into taxable value and GST that add up exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.constantFrom(0, 5, 12, 18, 28), (amount, rate) => {
        const { taxableValue, gst } = splitInclusive(amount, rate);
        expect(taxableValue + gst).toBe(amount);
        expect(Math.abs(taxableValue * (100 + rate) - amount * 100)).toBeLessThanOrEqual((100 + rate) / 2);
      }),
    );
    expect(splitInclusive(300_000, 18)).toEqual({ taxableValue: 254_237, gst: 45_763 });
  });
});

describe('Function: lastClosedPeriod', () => {
  it('closes MONTHLY on the anchor day, WEEKLY on the anchor weekday, FORTNIGHTLY every other week from 2024-01-01', () => {
    expect(lastClosedPeriod('MONTHLY', 5, '2026-11-25')).toEqual({ from: '2026-10-06', to: '2026-11-05' });
    expect(lastClosedPeriod('MONTHLY', 25, '2026-11-25')).toEqual({ from: '2026-09-26', to: '2026-10-25' });
    expect(lastClosedPeriod('MONTHLY', 28, '2026-01-10')).toEqual({ from: '2025-11-29', to: '2025-12-28' });
    // 2026-11-25 is a Wednesday; the week closing on the last Sunday (7).
    expect(lastClosedPeriod('WEEKLY', 7, '2026-11-25')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(lastClosedPeriod('WEEKLY', 3, '2026-11-25')).toEqual({ from: '2026-11-12', to: '2026-11-18' });
    const f = lastClosedPeriod('FORTNIGHTLY', 7, '2026-11-25');
    expect(f.to <= '2026-11-24' && f.to >= '2026-11-11').toBe(true);
    expect(addDays(f.from, 13)).toBe(f.to);
  });

  it('ends the cutoff at the last instant of the day in India time', () => {
    expect(cutoffOf('2026-10-31')).toBe('2026-10-31T18:29:59.999Z');
  });
});

describe('Function: invoiceNumberOf', () => {
  it('numbers per financial year (April–March) in at most 16 characters of letters, digits, / and -', () => {
    expect(financialYearOf('2026-03-31')).toBe('2025-26');
    expect(financialYearOf('2026-04-01')).toBe('2026-27');
    const n = invoiceNumberOf('29', '2026-27', 999_999);
    expect(n).toBe('I29/26-27/999999');
    expect(n).toMatch(/^[A-Za-z0-9/-]{1,16}$/);
  });
});

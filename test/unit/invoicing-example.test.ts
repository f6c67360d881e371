import { describe, expect, it } from 'vitest';
import { planBilling, type ChargeForBilling } from '../../domain/invoicing/billing-engine.ts';
import type { LedgerEntry } from '../../domain/ledger/ledger.ts';
import type { ChargeLine } from '../../domain/pricing/charge-lines.ts';

/** docs/invoicing.md, "Worked example": every figure of the page is asserted here. */
const entry = (id: string, type: LedgerEntry['type'], amount: number, bookingId: string): LedgerEntry => ({
  id,
  agentGroupId: 'tripkart',
  type,
  status: 'POSTED',
  amount,
  currency: 'INR',
  bookingId,
  externalBookingId: null,
  description: '',
  occurredAt: '2026-11-10T06:00:00.000Z',
});
const stay = (propertyId: string, date: string, taxableValue: number, rate: number, gst: number): ChargeLine => ({
  kind: 'STAY',
  ref: `${propertyId}#${date}#${rate}`,
  propertyId,
  date,
  quantity: 1,
  base: taxableValue,
  discount: 0,
  taxableValue,
  gstRatePercent: rate,
  gst,
  total: taxableValue + gst,
});
const booking = (ref: string, bookingId: string, status: 'CONFIRMED' | 'CANCELLED', lines: ChargeLine[], checkIn: string, checkOut: string) => ({
  bookingRef: ref,
  bookingId,
  status,
  listingId: 'l',
  checkIn,
  checkOut,
  grandTotal: lines.reduce((s, l) => s + l.total, 0),
  chargeLines: lines,
});

const A = [
  stay('casa-azul-master', '2026-12-20', 700_000, 5, 35_000),
  stay('casa-azul-master', '2026-12-21', 900_000, 18, 162_000),
  { ...stay('casa-azul-master', '2026-12-20', 120_000, 18, 21_600), kind: 'MEAL' as const, ref: 'goan-thali#2026-12-20#0', quantity: 2 },
];
const B = [stay('casa-azul-garden', '2027-01-05', 520_000, 5, 26_000), stay('casa-azul-garden', '2027-01-06', 520_000, 5, 26_000)];
const C = [stay('casa-azul-garden', '2027-02-01', 500_000, 5, 25_000), stay('casa-azul-garden', '2027-02-02', 500_000, 5, 25_000)];
const D = [stay('kochi-loft', '2026-12-24', 600_000, 5, 30_000)];

const charges: ChargeForBilling[] = [
  {
    charge: entry('e-a', 'CHARGE', 1_938_600, 'PS-A'),
    movements: [],
    booking: booking('ref-a', 'PS-A', 'CONFIRMED', A, '2026-12-20', '2026-12-22'),
    billed: { total: 0 },
  },
  {
    charge: entry('e-b', 'CHARGE', 525_000, 'PS-B'),
    movements: [entry('e-b-adj', 'ADJUSTMENT', 550_000, 'PS-B')],
    booking: booking('ref-b', 'PS-B', 'CONFIRMED', B, '2027-01-05', '2027-01-07'),
    billed: { total: 0 },
  },
  {
    charge: entry('e-c', 'CHARGE', 1_050_000, 'PS-C'),
    movements: [entry('e-c-ref', 'REFUND', -525_000, 'PS-C')],
    booking: booking('ref-c', 'PS-C', 'CANCELLED', C, '2027-02-01', '2027-02-03'),
    billed: { total: 0 },
  },
  {
    charge: entry('e-d', 'CHARGE', 630_000, 'PS-D'),
    movements: [],
    booking: booking('ref-d', 'PS-D', 'CONFIRMED', D, '2026-12-24', '2026-12-25'),
    billed: { total: 0 },
  },
];

const plan = planBilling({
  billTo: { gstin: '27AAFCT5521K1Z4', name: 'Tripkart Travels Pvt Ltd', address: 'Mumbai' },
  charges,
  properties: new Map([
    ['casa-azul-master', { name: 'Casa Azul, Master Suite', state: 'Goa' }],
    ['casa-azul-garden', { name: 'Casa Azul, Garden Room', state: 'Goa' }],
    ['kochi-loft', { name: 'Kochi Loft', state: 'Kerala' }],
  ]),
  addOnNames: new Map([['goan-thali', 'Goan thali']]),
  registrations: new Map([['Goa', { state: 'Goa', stateCode: '30', gstin: '30AAKCP4821M1ZC', legalName: 'Coastal Stays Pvt Ltd', address: 'Panaji, Goa' }]]),
});

describe('docs/invoicing.md worked example', () => {
  const invoice = plan.invoices[0]!;
  const lines = invoice.bookings.flatMap((b) => b.lines);
  const sum = (f: (l: (typeof lines)[number]) => number) => lines.reduce((s, l) => s + f(l), 0);

  it('bills Goa on one invoice, holds Kerala back', () => {
    expect(plan.invoices).toHaveLength(1);
    expect(invoice.parties).toMatchObject({ supplierGstin: '30AAKCP4821M1ZC', placeOfSupply: 'Goa', placeOfSupplyStateCode: '30' });
    expect(plan.blockedStates).toEqual([{ state: 'Kerala', lineCount: 1, taxableValue: 600_000 }]);
    expect(plan.skippedEntries).toEqual([]);
    expect(plan.unreconciledEntries).toEqual([]);
  });

  it('has the lines of the table, each adding up', () => {
    expect(lines.map((l) => [l.bookingId, l.lineKind, l.nightDate, l.taxableValue, l.gstRate, l.cgst, l.sgst, l.igst, l.lineTotal])).toEqual([
      ['PS-A', 'STAY', '2026-12-20', 700_000, 5, 17_500, 17_500, 0, 735_000],
      ['PS-A', 'STAY', '2026-12-21', 900_000, 18, 81_000, 81_000, 0, 1_062_000],
      ['PS-A', 'MEAL', '2026-12-20', 120_000, 18, 10_800, 10_800, 0, 141_600],
      ['PS-B', 'STAY', '2027-01-05', 520_000, 5, 13_000, 13_000, 0, 546_000],
      ['PS-B', 'STAY', '2027-01-06', 520_000, 5, 13_000, 13_000, 0, 546_000],
      ['PS-B', 'ADJUSTMENT', null, -16_190, 5, -405, -405, 0, -17_000],
      ['PS-C', 'CANCELLATION', null, 500_000, 5, 12_500, 12_500, 0, 525_000],
    ]);
  });

  it('totals 32,438.10 taxable + 1,473.95 CGST + 1,473.95 SGST = 35,386.00, each booking its net POSTED amount', () => {
    expect([sum((l) => l.taxableValue), sum((l) => l.cgst), sum((l) => l.sgst), sum((l) => l.igst), sum((l) => l.lineTotal)]).toEqual([
      3_243_810, 147_395, 147_395, 0, 3_538_600,
    ]);
    const perBooking = (id: string) => lines.filter((l) => l.bookingId === id).reduce((s, l) => s + l.lineTotal, 0);
    expect([perBooking('PS-A'), perBooking('PS-B'), perBooking('PS-C')]).toEqual([1_938_600, 1_075_000, 525_000]);
  });
});

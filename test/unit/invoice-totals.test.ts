import { describe, expect, it } from 'vitest';
import { NO_TOTALS, type InvoiceLine } from '../../domain/invoicing/invoice.ts';
import { addTotals, lineOrder, lineTotalOf, sumTotals, totalsOf } from '../../domain/invoicing/invoice-totals.ts';

const line = (over: Partial<InvoiceLine>): InvoiceLine =>
  ({
    bookingRef: 'b1',
    key: 'STAY#2027-01-10',
    checkIn: '2027-01-10',
    nightDate: '2027-01-10',
    taxableValue: 10_000_00,
    cgst: 250_00,
    sgst: 250_00,
    igst: 0,
    discount: 100_00,
    lineTotal: 10_500_00,
    ...over,
  }) as InvoiceLine;

describe('Module: invoice-totals', () => {
  it('sums each figure of the lines exactly in minor units, and counts them', () => {
    const lines = [line({}), line({ key: 'MEAL#1', taxableValue: 333, cgst: 9, sgst: 8, igst: 0, discount: 1, lineTotal: 350 })];
    expect(totalsOf(lines)).toEqual({ subtotal: 1_000_333, cgst: 25_009, sgst: 25_008, igst: 0, discount: 10_001, total: 1_050_350, lineCount: 2 });
    expect(totalsOf([])).toEqual(NO_TOTALS);
    expect(lineTotalOf(lines)).toBe(1_050_350);
    expect(lineTotalOf([])).toBe(0);
  });

  it('adds figures of parts to the figures of the whole', () => {
    const a = [line({}), line({ key: 'STAY#2027-01-11', lineTotal: 7 })];
    const b = [line({ bookingRef: 'b2', igst: 500_00, cgst: 0, sgst: 0 })];
    expect(addTotals(totalsOf(a), totalsOf(b))).toEqual(totalsOf([...a, ...b]));
    expect(sumTotals([totalsOf(a), totalsOf(b), NO_TOTALS])).toEqual(totalsOf([...a, ...b]));
    expect(sumTotals([])).toEqual(NO_TOTALS);
  });

  // A line without a night compares as '~', which localeCompare ranks before digits: it comes before the booking's nights.
  it('orders lines by check-in, booking, night and key', () => {
    const lines = [
      line({ bookingRef: 'b2', key: 'STAY#2027-01-10' }),
      line({ key: 'SERVICE#x', nightDate: undefined }),
      line({ key: 'STAY#2027-01-11', nightDate: '2027-01-11' }),
      line({ checkIn: '2027-01-09', bookingRef: 'b3', key: 'STAY#2027-01-09', nightDate: '2027-01-09' }),
      line({}),
    ];
    expect([...lines].sort(lineOrder).map((l) => `${l.bookingRef} ${l.key}`)).toEqual([
      'b3 STAY#2027-01-09',
      'b1 SERVICE#x',
      'b1 STAY#2027-01-10',
      'b1 STAY#2027-01-11',
      'b2 STAY#2027-01-10',
    ]);
  });
});

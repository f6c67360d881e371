import { describe, expect, it } from 'vitest';
import { statementCsv } from '../../domain/ledger/ledger-csv.ts';
import type { LedgerEntryView, StatementView } from '../../domain/ledger/read-ledger.ts';
import { formatIndianGrouping } from '../../domain/money.ts';
import { PdfStatementRenderer, statementRows } from '../../infra/pdf/pdf-statement-renderer.ts';
import { pdfLayoutProblems, pdfText } from '../support/pdf-scan.ts';

const renderer = new PdfStatementRenderer();
const holder = { name: 'Tripkart Holidays Private Limited', gstin: '27AABCT1234M1Z5' };

const entry = (i: number, over: Partial<LedgerEntryView> = {}): LedgerEntryView => ({
  id: `le-${i}`,
  type: 'CHARGE',
  status: 'POSTED',
  amount: 12_345.67,
  currency: 'INR',
  bookingId: `PS-${40_000 + i}`,
  externalBookingId: `TK-${1000 + i}`,
  description: 'Booking Casa Azul, Assagao',
  occurredAt: '2026-11-10T20:00:00.000Z',
  ...over,
});

/** November 2026 (India): opening ₹1,23,456.78 owed, then the given entries; the closing balance is their posted sum. */
function statement(entries: LedgerEntryView[]): StatementView {
  const opening = 12_345_678;
  const posted = entries.filter((e) => e.status === 'POSTED').reduce((s, e) => s + Math.round(e.amount * 100), 0);
  return {
    from: '2026-10-31T18:30:00.000Z',
    to: '2026-11-30T18:29:59.999Z',
    openingBalance: opening / 100,
    entries,
    closingBalance: (opening + posted) / 100,
    creditLimit: 50_00_000,
    availableCredit: 37_65_432.1,
  };
}

const mixed = (): LedgerEntryView[] => [
  entry(1),
  entry(2, { type: 'REFUND', amount: -2_500, occurredAt: '2026-11-12T05:00:00.000Z' }),
  entry(3, { status: 'AUTHORIZED', amount: 9_999, bookingId: null, occurredAt: '2026-11-20T10:00:00.000Z' }),
  entry(4, { type: 'PAYMENT', amount: -1_00_000, bookingId: null, externalBookingId: null, description: 'Payment received (NEFT UTR SBIN0000123)' }),
  entry(5, { status: 'RELEASED', amount: 4_000, bookingId: null, occurredAt: '2026-11-30T18:00:00.000Z' }),
];

/** The CSV's balance column (one per row: opening, each entry, closing), as printed amounts. */
const csvBalances = (s: StatementView): string[] =>
  statementCsv(s)
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => formatIndianGrouping(Math.round(Number(line.split(',').at(-1)) * 100)));

describe('the statement PDF', () => {
  it('prints the account, the period in India dates and every figure in rupees with Indian grouping', async () => {
    const s = statement(mixed());
    const text = pdfText(await renderer.render(s, holder));
    expect(text).toContain('ACCOUNT STATEMENT');
    expect(text).toContain(holder.name);
    expect(text).toContain('GSTIN: 27AABCT1234M1Z5');
    // 2026-10-31T18:30Z is 1 November in India; 2026-11-30T18:29:59.999Z is still 30 November.
    expect(text).toContain('01-11-2026 to 30-11-2026');
    expect(text).toContain('₹1,23,456.78');
    expect(text).toContain('₹50,00,000.00');
    expect(text).toContain('₹37,65,432.10');
    // The first charge (20:00Z on the 10th) is dated 11-11-2026 in India.
    expect(text).toMatch(/11-11-2026 CHARGE TK-1001/);
    for (const ref of ['TK-1001', 'TK-1002', 'TK-1003', 'TK-1005', 'PS-40001']) expect(text).toContain(ref);
    expect(text).toContain('Payment received (NEFT UTR');
    expect(text).toMatch(/20-11-2026 CHARGE\nAuthorized,\nnot in balance/);
    expect(text).toMatch(/30-11-2026 CHARGE\nReleased,\nnot in balance/);
    expect(text).toContain(`₹${formatIndianGrouping(Math.round(s.closingBalance * 100))}`);
    expect(text).toContain('Page 1 of 1');
  });

  it('has the same balances as the CSV, row by row, and posted debits less credits make opening into closing', () => {
    const s = statement(mixed());
    const { rows, debits, credits } = statementRows(s);
    expect(rows.map((r) => r.balance)).toEqual(csvBalances(s));
    expect(debits).toBe(1_234_567);
    expect(credits).toBe(250_000 + 10_000_000);
    expect(Math.round(s.openingBalance * 100) + debits - credits).toBe(Math.round(s.closingBalance * 100));
    expect(rows.map((r) => [r.debit, r.credit])).toEqual([
      ['', ''],
      ['12,345.67', ''],
      ['', '2,500.00'],
      ['9,999.00', ''],
      ['', '1,00,000.00'],
      ['4,000.00', ''],
      ['', ''],
    ]);
  });

  it('refuses a statement whose closing balance is not its opening plus its posted entries', () => {
    expect(() => statementRows({ ...statement(mixed()), closingBalance: 1 })).toThrow(/not the closing 1/);
  });

  it('says when no GSTIN is on file, and renders the same bytes twice', async () => {
    const s = statement([entry(1)]);
    const pdf = await renderer.render(s, { ...holder, gstin: null });
    expect(pdfText(pdf)).toContain('GSTIN: not on file');
    expect(Buffer.from(await renderer.render(s, { ...holder, gstin: null })).equals(Buffer.from(pdf))).toBe(true);
  });

  it('breaks 2,000 entries into pages cleanly: the table header on every page, nothing outside the margins or overlapping, the closing balance last', async () => {
    const entries = Array.from({ length: 2000 }, (_, i) =>
      entry(i, {
        amount: i % 7 === 0 ? -(10_000 + i) : 99_99_999.99 - i,
        type: i % 7 === 0 ? 'REFUND' : 'CHARGE',
        occurredAt: new Date(Date.parse('2026-10-31T18:30:00.000Z') + i * 800_000).toISOString(),
        // Every tenth row carries a long description that wraps onto several lines.
        description:
          i % 10 === 0
            ? 'Booking amendment: six-bedroom heritage mansion with private pool, chef and butler; two more nights and airport transfers for twelve adults'
            : 'Booking Casa Azul, Assagao',
      }),
    );
    const s = statement(entries);
    const pdf = await renderer.render(s, holder);
    expect(pdfLayoutProblems(pdf)).toEqual([]);
    const text = pdfText(pdf);
    const pages = text.split('\f').filter((p) => p.trim() !== '');
    expect(pages.length).toBeGreaterThan(25);
    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(page).toMatch(/Date Type Reference Description Debit \(₹\) Credit \(₹\) Balance \(₹\)/);
      if (i > 0) expect(page).toContain('Account statement 01-11-2026 to 30-11-2026 (continued)');
    });
    for (const ref of ['TK-1000', 'TK-2500', 'TK-2999']) expect(text).toContain(ref);
    const closing = formatIndianGrouping(Math.round(s.closingBalance * 100));
    expect(pages.at(-1)).toMatch(new RegExp(`Closing balance ${closing.replace(/[.,]/g, '\\$&')}`));
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import { LEDGER_CSV_COLUMNS, ledgerPageCsv, statementCsv } from '../../domain/ledger/ledger-csv.ts';
import type { LedgerEntryView, StatementView } from '../../domain/ledger/read-ledger.ts';
import { preferredMediaType } from '../../functions/http/negotiate.ts';

const entry = (over: Partial<LedgerEntryView>): LedgerEntryView => ({
  id: '00000000-0000-4000-8000-000000000001',
  type: 'CHARGE',
  status: 'POSTED',
  amount: 100,
  currency: 'INR',
  bookingId: null,
  externalBookingId: null,
  description: 'Booking',
  occurredAt: '2027-01-10T00:00:00.000Z',
  ...over,
});

/** RFC 4180 rows back into fields, so a test reads the file as a spreadsheet would. */
function parse(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') [cell, i] = [`${cell}"`, i + 1];
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') [row, cell] = [[...row, cell], ''];
    else if (c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell]);
      [row, cell, i] = [[], '', i + 1];
    } else cell += c;
  }
  return rows;
}

describe('Ledger and statement as CSV', () => {
  it('writes a header row and CRLF line ends, and quotes commas, quotes and line breaks', () => {
    const text = ledgerPageCsv({ data: [entry({ description: 'Stay, "Casa Azul"\nthree nights' })] });

    expect(text.startsWith(`${LEDGER_CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parse(text)[1]![5]).toBe('Stay, "Casa Azul"\nthree nights');
  });

  it('dates rows in India time, where the day may differ from UTC', () => {
    const [, row] = parse(ledgerPageCsv({ data: [entry({ occurredAt: '2027-01-10T20:00:00.000Z' })] }));

    expect(row!.slice(0, 2)).toEqual(['2027-01-11', '01:30:00']);
  });

  it('spells amounts as rupees with two decimals, negative and fractional ones exactly', () => {
    const rows = parse(ledgerPageCsv({ data: [entry({ amount: -25536 }), entry({ amount: 0.05 }), entry({ amount: 1234.5 }), entry({ amount: -0.3 })] }));

    expect(rows.slice(1).map((r) => r[8])).toEqual(['-25536.00', '0.05', '1234.50', '-0.30']);
  });

  it("leads a partner's text that a spreadsheet would run as a formula with an apostrophe, and never a number", () => {
    const rows = parse(
      ledgerPageCsv({
        data: [
          entry({ externalBookingId: '=HYPERLINK("http://x")', amount: -10 }),
          entry({ externalBookingId: '@SUM(A1)' }),
          entry({ externalBookingId: 'TK-1' }),
        ],
      }),
    );

    expect(rows.slice(1).map((r) => r[6])).toEqual(['\'=HYPERLINK("http://x")', "'@SUM(A1)", 'TK-1']);
    expect(rows[1]![8]).toBe('-10.00');
  });

  it('carries the POSTED balance down the statement from the opening to the closing balance; other statuses leave it', () => {
    const statement: StatementView = {
      from: '2027-01-01T00:00:00.000Z',
      to: '2027-01-31T23:59:59.999Z',
      openingBalance: 1000.1,
      entries: [
        entry({ amount: 500 }),
        entry({ amount: 300, status: 'AUTHORIZED' }),
        entry({ amount: -200.2, type: 'PAYMENT' }),
        entry({ amount: 50, status: 'RELEASED' }),
      ],
      closingBalance: 1299.9,
      creditLimit: 100000,
      availableCredit: 98000,
    };

    const rows = parse(statementCsv(statement));

    expect(rows.map((r) => [r[3], r[8], r[10]])).toEqual([
      ['type', 'amount', 'balance'],
      ['OPENING_BALANCE', '1000.10', '1000.10'],
      ['CHARGE', '500.00', '1500.10'],
      ['CHARGE', '300.00', '1500.10'],
      ['PAYMENT', '-200.20', '1299.90'],
      ['CHARGE', '50.00', '1299.90'],
      ['CLOSING_BALANCE', '1299.90', '1299.90'],
    ]);
    expect(rows[1]!.slice(0, 2)).toEqual(['2027-01-01', '05:30:00']);
  });
});

describe('Accept negotiation', () => {
  const OFFERED = ['application/json', 'text/csv'] as const;

  it.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['text/csv', 'text/csv'],
    ['text/*', 'text/csv'],
    ['application/json, text/csv', 'application/json'],
    ['text/csv, application/json;q=0.9', 'text/csv'],
    ['application/json;q=0.5, text/csv', 'text/csv'],
    ['text/csv;q=0, */*', 'application/json'],
    ['application/xml', 'application/json'],
    ['TEXT/CSV', 'text/csv'],
  ])('Accept %j gets %s', (accept, wanted) => {
    expect(preferredMediaType(accept, OFFERED)).toBe(wanted);
  });
});

import type { LedgerEntryView, LedgerListView, StatementView } from './read-ledger.ts';

/**
 * The ledger and the statement as CSV, for a finance clerk's spreadsheet or accounting import
 * (RFC 4180: comma-separated, CRLF line ends, a header row, fields quoted when they must be).
 * The figures are the JSON answer's, to the paisa; only their spelling changes: rupees with two
 * decimals, and India dates and times (IST), which is how the books and the invoices date them.
 */
export const LEDGER_CSV_COLUMNS = [
  'date',
  'time',
  'entry_id',
  'type',
  'status',
  'description',
  'external_booking_id',
  'booking_id',
  'amount',
  'currency',
  'balance',
] as const;

/** What each column holds, for the reference and docs/ledger.md. */
export const LEDGER_CSV_COLUMN_NOTES: Readonly<Record<(typeof LEDGER_CSV_COLUMNS)[number], string>> = {
  date: 'India date (IST) the entry occurred, YYYY-MM-DD.',
  time: 'India time (IST), HH:MM:SS.',
  entry_id: "The ledger entry id (empty on the statement's balance rows).",
  type: 'CHARGE, ADJUSTMENT, REFUND or PAYMENT; on the statement also OPENING_BALANCE and CLOSING_BALANCE rows.',
  status: 'AUTHORIZED, POSTED or RELEASED.',
  description: 'What the entry is.',
  external_booking_id: 'Your own booking reference.',
  booking_id: 'The property-system booking id, once the charge is POSTED.',
  amount: 'Signed rupees with two decimals: positive grows what you owe.',
  currency: 'INR.',
  balance:
    'Statement only: the POSTED balance after the row (AUTHORIZED and RELEASED rows leave it unchanged). Empty on the ledger, which is paged newest first.',
};

export const CSV_MEDIA_TYPE = 'text/csv';

const IST_OFFSET_MS = 330 * 60_000;

/** `2027-01-10T20:00:00Z` → ['2027-01-11', '01:30:00']. */
function indiaDateTime(instant: string): [string, string] {
  const ist = new Date(Date.parse(instant) + IST_OFFSET_MS).toISOString();
  return [ist.slice(0, 10), ist.slice(11, 19)];
}

const paise = (rupees: number): number => Math.round(rupees * 100);
const rupeeText = (p: number): string => `${p < 0 ? '-' : ''}${Math.floor(Math.abs(p) / 100)}.${String(Math.abs(p) % 100).padStart(2, '0')}`;

/**
 * One field. A text a partner wrote (their booking reference) may begin with `=`, `+`, `-` or
 * `@`, which a spreadsheet would run as a formula (OWASP "CSV injection"): such text is led by
 * an apostrophe. Numbers are ours and are written as they are.
 */
function field(value: string, text: boolean): string {
  const safe = text && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

type Row = Record<(typeof LEDGER_CSV_COLUMNS)[number], string>;
const NUMERIC = new Set(['amount', 'balance']);

function csv(rows: readonly Row[]): string {
  const lines = [LEDGER_CSV_COLUMNS.join(','), ...rows.map((r) => LEDGER_CSV_COLUMNS.map((c) => field(r[c], !NUMERIC.has(c))).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

function entryRow(e: LedgerEntryView, balance: string): Row {
  const [date, time] = indiaDateTime(e.occurredAt);
  return {
    date,
    time,
    entry_id: e.id,
    type: e.type,
    status: e.status,
    description: e.description,
    external_booking_id: e.externalBookingId ?? '',
    booking_id: e.bookingId ?? '',
    amount: rupeeText(paise(e.amount)),
    currency: e.currency,
    balance,
  };
}

/** One page of GET /v1/ledger, in the page's order (newest first). */
export function ledgerPageCsv(page: Pick<LedgerListView, 'data'>): string {
  return csv(page.data.map((e) => entryRow(e, '')));
}

/** GET /v1/statement: the opening balance, every entry oldest first with the balance after it, the closing balance. */
export function statementCsv(s: StatementView): string {
  const balanceRow = (type: 'OPENING_BALANCE' | 'CLOSING_BALANCE', at: string, amount: number, description: string): Row => {
    const [date, time] = indiaDateTime(at);
    const text = rupeeText(paise(amount));
    return { date, time, entry_id: '', type, status: '', description, external_booking_id: '', booking_id: '', amount: text, currency: 'INR', balance: text };
  };
  let running = paise(s.openingBalance);
  const rows = s.entries.map((e) => {
    if (e.status === 'POSTED') running += paise(e.amount);
    return entryRow(e, rupeeText(running));
  });
  return csv([
    balanceRow('OPENING_BALANCE', s.from, s.openingBalance, 'Opening balance'),
    ...rows,
    balanceRow('CLOSING_BALANCE', s.to, s.closingBalance, 'Closing balance'),
  ]);
}

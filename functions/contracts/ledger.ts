import * as v from 'valibot';
import { HORIZON_NOTE } from '../../domain/catalogue/calendar.ts';
import { LEDGER_ENTRY_STATUSES, LEDGER_ENTRY_TYPES } from '../../domain/ledger/ledger.ts';
import { LEDGER_PAGE, MAX_STATEMENT_DAYS } from '../../domain/ledger/read-ledger.ts';
import { CSV_MEDIA_TYPE, LEDGER_CSV_COLUMN_NOTES, LEDGER_CSV_COLUMNS } from '../../domain/ledger/ledger-csv.ts';
import { PDF_MEDIA_TYPE } from '../../domain/ledger/statement-file.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, cursorPageOf, DateTimeSchema, instantSchema, pageSizeParam } from './common.ts';
import { idList } from './partner-reads.ts';
import { DAY_OR_INSTANT_RULE, isDayOrInstant } from '../../domain/reads/date-window.ts';

const TAG = ['Ledger'];

export const instantParam = (name: string, description: string) => v.pipe(instantSchema(name), v.description(`${description} ${HORIZON_NOTE}`));

/** A window bound of the ledger and statement: an India date (the whole day, IST) or an instant. */
const dayOrInstantParam = (name: string, description: string) => {
  const message = `${name} must be ${DAY_OR_INSTANT_RULE}.`;
  return v.pipe(
    v.string(message),
    v.check(isDayOrInstant, message),
    v.description(
      `${description} A date (yyyy-mm-dd) is the whole India day (IST), e.g. 2026-11-01; or an ISO 8601 date-time with its offset. ${HORIZON_NOTE}`,
    ),
  );
};

/**
 * A filter of named values, comma-separated or repeated (payload 2.0 joins repeats with
 * commas). An unknown value is refused with the whole parameter named, not one position of
 * it, because the caller wrote one parameter.
 */
const valueList = <T extends string>(name: string, values: readonly T[], description: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.split(',').map((x) => x.trim())),
      v.check(
        (list) => list.every((x) => (values as readonly string[]).includes(x)),
        (issue) =>
          `${name} must be one or more of ${values.join(', ')}; got ${(issue.input as string[])
            .filter((x) => !(values as readonly string[]).includes(x))
            .map((x) => JSON.stringify(x))
            .join(', ')}.`,
      ),
      v.transform((list) => [...new Set(list)] as T[]),
      v.description(`${description} One or more of ${values.join(', ')}, comma-separated or repeated.`),
    ),
  );

export const LedgerQuerySchema = v.strictObject({
  from: v.optional(dayOrInstantParam('from', 'Only entries that occurred at or after this instant (from the start of this day).')),
  to: v.optional(dayOrInstantParam('to', 'Only entries that occurred at or before this instant (to the end of this day); not before from.')),
  type: valueList('type', LEDGER_ENTRY_TYPES, 'Only entries of these types.'),
  status: valueList('status', LEDGER_ENTRY_STATUSES, 'Only entries in these statuses.'),
  bookingIds: idList('bookingIds'),
  externalBookingIds: idList('externalBookingIds'),
  cursor: v.optional(
    v.pipe(v.string(), v.minLength(1, 'cursor must not be empty.'), v.description('nextCursor of the previous page, unchanged, with the same filters.')),
  ),
  size: v.optional(pageSizeParam(LEDGER_PAGE.maxSize, `Page size, 1–${LEDGER_PAGE.maxSize}; default ${LEDGER_PAGE.defaultSize}.`)),
});

/** Both bounds required: a strict object reports a missing key with its own message, prefixed by the key. */
export const StatementQuerySchema = v.strictObject(
  {
    from: dayOrInstantParam('from', 'Required. Start of the period, inclusive.'),
    to: dayOrInstantParam('to', `Required. End of the period, inclusive; at most ${MAX_STATEMENT_DAYS} days after from.`),
  },
  'is required.',
);

const Rupees = (description: string) => v.pipe(v.number(), v.description(description));

export const LedgerEntrySchema = v.object({
  id: v.pipe(v.string(), v.uuid(), v.description('The entry id.')),
  type: v.pipe(
    v.picklist(LEDGER_ENTRY_TYPES),
    v.description('CHARGE (a booking), ADJUSTMENT (an amendment or an operator correction, either sign), REFUND (a cancellation), PAYMENT (money received).'),
  ),
  status: v.pipe(
    v.picklist(LEDGER_ENTRY_STATUSES),
    v.description(
      'AUTHORIZED (credit held for a booking in flight: counts toward exposure, not balances), POSTED (owed: counts in both), RELEASED (an authorization given back: counts nowhere).',
    ),
  ),
  amount: Rupees('Signed rupees from your side: positive grows what you owe, negative shrinks it.'),
  currency: v.pipe(v.literal('INR'), v.description('ISO 4217; INR.')),
  bookingId: v.pipe(v.nullable(v.string()), v.description('The property-system booking id; set once a charge is POSTED.')),
  externalBookingId: v.pipe(v.nullable(v.string()), v.description('Your own booking reference, set from authorization.')),
  description: v.pipe(v.string(), v.description('The entry in words, as the statement prints it.')),
  occurredAt: v.pipe(DateTimeSchema, v.description('When it happened: what from and to filter on, and the order of the ledger.')),
});

const creditFields = {
  creditLimit: Rupees('Your credit limit, rupees.'),
  availableCredit: Rupees('creditLimit − exposure, live (not a figure at `to`); negative when a booking that landed late was posted past the limit.'),
};

export const LedgerPageSchema = v.object({
  ...cursorPageOf(LedgerEntrySchema, 'The entries of this page, newest first.').entries,
  ...creditFields,
  exposure: Rupees('Authorized and posted charges and adjustments less refunds and payments, live.'),
});

export const StatementSchema = v.object({
  from: v.pipe(DateTimeSchema, v.description('Start of the period, as asked.')),
  to: v.pipe(DateTimeSchema, v.description('End of the period, as asked.')),
  openingBalance: Rupees('Net POSTED position of everything that occurred before from.'),
  entries: v.pipe(v.array(LedgerEntrySchema), v.description('Every entry that occurred in the period, all statuses, oldest first (then by id).')),
  closingBalance: Rupees('openingBalance plus the POSTED amounts of the period.'),
  ...creditFields,
});

const CSV_COLUMNS = LEDGER_CSV_COLUMNS.map((c) => `${c}: ${LEDGER_CSV_COLUMN_NOTES[c]}`).join(' ');

export const listLedgerRoute = defineRoute({
  operationId: 'listLedger',
  method: 'GET',
  path: '/v1/ledger',
  auth: 'v1',
  summary: "Your agent group's ledger and credit position",
  description: [
    'Entries newest first (occurredAt, then id), with the live creditLimit, exposure and availableCredit in rupees. AUTHORIZED entries are included and marked by status.',
    'All filters combine with AND; bookingIds and externalBookingIds given together must both match (never either).',
    'bookingIds are property-system booking ids, which only POSTED entries carry, so an AUTHORIZED charge never matches them; externalBookingIds are your own references, set from authorization: the filter that finds a charge still in flight.',
    'nextCursor is returned whenever the page came back full and more may follow (the next page may be empty), null otherwise. A cursor is bound to your key and to the filters;',
    'a malformed, altered or foreign cursor is 400 naming cursor. size may change between pages.',
  ].join(' '),
  tags: TAG,
  query: LedgerQuerySchema,
  responses: {
    200: {
      description: 'One page and the credit position.',
      schema: LedgerPageSchema,
      alsoAs: [
        {
          mediaType: CSV_MEDIA_TYPE,
          description: `With Accept: text/csv, the page's entries as CSV (RFC 4180, a header row; the next page's cursor in the X-Next-Cursor header, absent on the last page). Columns: ${CSV_COLUMNS}`,
        },
      ],
    },
    ...AUTHENTICATED_ERRORS,
  },
});

export const getStatementRoute = defineRoute({
  operationId: 'getStatement',
  method: 'GET',
  path: '/v1/statement',
  auth: 'v1',
  summary: 'Statement of account for a period',
  description: [
    `Every entry that occurred from from to to (both inclusive, at most ${MAX_STATEMENT_DAYS} days), oldest first, between the opening and closing balances.`,
    'closingBalance = openingBalance + the POSTED amounts of the period. AUTHORIZED and RELEASED entries are listed but count in neither balance.',
    'creditLimit and availableCredit are live figures that include authorized exposure, not figures at to.',
  ].join(' '),
  tags: TAG,
  query: StatementQuerySchema,
  responses: {
    200: {
      description: 'The statement.',
      schema: StatementSchema,
      alsoAs: [
        {
          mediaType: CSV_MEDIA_TYPE,
          description: `With Accept: text/csv, the statement as CSV (RFC 4180, a header row): an OPENING_BALANCE row, every entry oldest first with the balance after it, a CLOSING_BALANCE row; the same figures as the JSON. Columns: ${CSV_COLUMNS}`,
        },
        {
          mediaType: PDF_MEDIA_TYPE,
          description:
            'With Accept: application/pdf, the statement as an A4 PDF (Content-Disposition: attachment; filename="statement-<from>-to-<to>.pdf", India dates): the group\'s legal name and GSTIN, the period, a summary (opening balance, posted debits and credits, closing balance), then the opening balance, every entry oldest first (date, type, your booking reference, description, debit or credit, the balance after it) and the closing balance, over as many pages as the period needs; the same figures as the JSON, in rupees with Indian digit grouping and DD-MM-YYYY dates.',
        },
      ],
    },
    ...AUTHENTICATED_ERRORS,
  },
});

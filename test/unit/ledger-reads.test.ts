import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { LEDGER_ENTRY_STATUSES, postedBalance, postedEntry, type LedgerEntryStatus } from '../../domain/ledger/ledger.ts';
import { ledgerEntryView, statementFigures } from '../../domain/ledger/read-ledger.ts';
import { LedgerQuerySchema, StatementQuerySchema } from '../../functions/contracts/ledger.ts';
import { parseInput } from '../../functions/http/validate.ts';
import { ledgerQueryInput } from '../../infra/dynamo/dynamo-credit-ledger.ts';
import { keys } from '../../infra/dynamo/keys.ts';

const entryArb = fc.record({
  status: fc.constantFrom<LedgerEntryStatus>(...LEDGER_ENTRY_STATUSES),
  amount: fc.integer({ min: -5_000_000_00, max: 5_000_000_00 }),
});

function paramOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.param;
    throw err;
  }
  return undefined;
}

describe('Function: statementFigures', () => {
  it('closes at opening plus the POSTED amounts of the period, for any entries and any cut', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 60 }), fc.nat(), (entries, cutAt) => {
        // prepare
        const cut = entries.length ? cutAt % (entries.length + 1) : 0;
        const before = entries.slice(0, cut);
        const within = entries.slice(cut);
        // act
        const { openingBalance, closingBalance } = statementFigures(postedBalance(before), within);
        // assess
        const postedWithin = within.filter((e) => e.status === 'POSTED').reduce((s, e) => s + e.amount, 0);
        expect(closingBalance).toBe(openingBalance + postedWithin);
        // Consecutive statements chain: the closing balance is the net POSTED position of all history.
        expect(closingBalance).toBe(postedBalance(entries));
      }),
    );
  });

  it('counts AUTHORIZED and RELEASED entries in neither balance', () => {
    fc.assert(
      fc.property(
        fc.array(entryArb, { maxLength: 30 }),
        fc.array(entryArb, { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 9_999_999 })),
        (before, within, held) => {
          const unposted = held.map((amount, i) => ({ status: i % 2 ? ('AUTHORIZED' as const) : ('RELEASED' as const), amount }));
          expect(statementFigures(postedBalance([...before, ...unposted]), [...within, ...unposted])).toEqual(statementFigures(postedBalance(before), within));
        },
      ),
    );
  });

  it('is exact in paise where rupee floats would drift', () => {
    const tenPaise = Array.from({ length: 10 }, () => ({ status: 'POSTED' as const, amount: 10 }));
    expect(statementFigures(0, tenPaise).closingBalance).toBe(100);
  });
});

describe('Function: postedEntry', () => {
  const base = { agentGroupId: 'g', bookingId: null, externalBookingId: null, description: 'x' };
  const at = new Date('2027-01-01T00:00:00Z');

  it('builds a POSTED entry at the given instant', () => {
    expect(postedEntry({ ...base, type: 'PAYMENT', amount: -500_00 }, 'id-1', at)).toEqual({
      ...base,
      id: 'id-1',
      type: 'PAYMENT',
      status: 'POSTED',
      amount: -500_00,
      currency: 'INR',
      occurredAt: '2027-01-01T00:00:00.000Z',
    });
  });

  it('takes an adjustment of either sign, but refunds and payments only negative and nothing zero', () => {
    expect(postedEntry({ ...base, type: 'ADJUSTMENT', amount: 1 }, 'a', at).amount).toBe(1);
    expect(postedEntry({ ...base, type: 'ADJUSTMENT', amount: -1 }, 'b', at).amount).toBe(-1);
    expect(() => postedEntry({ ...base, type: 'REFUND', amount: 1 }, 'c', at)).toThrow(RangeError);
    expect(() => postedEntry({ ...base, type: 'PAYMENT', amount: 1 }, 'd', at)).toThrow(RangeError);
    expect(() => postedEntry({ ...base, type: 'ADJUSTMENT', amount: 0 }, 'e', at)).toThrow(RangeError);
    expect(() => postedEntry({ ...base, type: 'REFUND', amount: -0.5 }, 'f', at)).toThrow(RangeError);
  });
});

describe('Function: ledgerEntryView', () => {
  it('shows signed rupees with two decimals and hides the tenant', () => {
    const entry = postedEntry(
      { agentGroupId: 'g', type: 'REFUND', amount: -1_234_56, bookingId: 'PS-1', externalBookingId: 'ext-1', description: 'Refund' },
      'id',
      new Date('2027-01-01T00:00:00Z'),
    );
    expect(ledgerEntryView(entry)).toEqual({
      id: 'id',
      type: 'REFUND',
      status: 'POSTED',
      amount: -1234.56,
      currency: 'INR',
      bookingId: 'PS-1',
      externalBookingId: 'ext-1',
      description: 'Refund',
      occurredAt: '2027-01-01T00:00:00.000Z',
    });
  });
});

describe('Function: keys.ledgerTimelineRange', () => {
  const sk = (instant: string) => keys.ledgerTimelineIndex('g', instant, 'f47ac10b-58cc-4372-a567-0e02b2c3d479').GSI1SK;
  const t = (ms: number) => new Date(Date.UTC(2027, 0, 1) + ms).toISOString();

  it('includes entries exactly at from and at to, excludes one millisecond outside, and excludes entries at before', () => {
    const { lower, upper } = keys.ledgerTimelineRange({ from: t(0), to: t(1000) });
    expect(sk(t(0)) >= lower!).toBe(true);
    expect(sk(t(-1)) >= lower!).toBe(false);
    expect(sk(t(1000)) <= upper!).toBe(true);
    expect(sk(t(1001)) <= upper!).toBe(false);
    const { upper: beforeBound } = keys.ledgerTimelineRange({ before: t(0) });
    expect(sk(t(0)) <= beforeBound!).toBe(false);
    expect(sk(t(-1)) <= beforeBound!).toBe(true);
  });

  it('takes the tighter upper bound when both to and before are given', () => {
    expect(keys.ledgerTimelineRange({ to: t(5), before: t(3) }).upper).toBe(t(3));
    expect(keys.ledgerTimelineRange({ to: t(3), before: t(5) }).upper).toBe(`${t(3)}#~`);
  });
});

describe('Function: ledgerQueryInput', () => {
  it('keys the window on GSI1 and reads nothing else when unfiltered', () => {
    const input = ledgerQueryInput('T', 'g1', { from: 'A', to: 'B', order: 'newest-first' });
    expect(input).toEqual({
      TableName: 'T',
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :lower AND :upper',
      ExpressionAttributeValues: { ':pk': 'GROUP#g1#LEDGER', ':lower': 'A', ':upper': 'B#~' },
      ScanIndexForward: false,
    });
  });

  it('ANDs every filter given, each list as IN', () => {
    const input = ledgerQueryInput('T', 'g1', {
      types: ['REFUND', 'PAYMENT'],
      statuses: ['POSTED'],
      bookingIds: ['PS-1'],
      externalBookingIds: ['e1', 'e2'],
      order: 'oldest-first',
    });
    expect(input.KeyConditionExpression).toBe('GSI1PK = :pk');
    expect(input.FilterExpression).toBe('#type IN (:type0, :type1) AND #status IN (:status0) AND #booking IN (:booking0) AND #ext IN (:ext0, :ext1)');
    expect(input.ExpressionAttributeNames).toEqual({ '#type': 'type', '#status': 'status', '#booking': 'bookingId', '#ext': 'externalBookingId' });
    expect(input.ExpressionAttributeValues).toMatchObject({ ':type1': 'PAYMENT', ':booking0': 'PS-1', ':ext1': 'e2' });
    expect(input.ScanIndexForward).toBe(true);
  });
});

describe('Schema: LedgerQuerySchema', () => {
  it('takes comma-separated filters, dropping repeats', () => {
    expect(parseInput(LedgerQuerySchema, { type: 'REFUND,PAYMENT,REFUND', status: 'POSTED' }, 'query')).toEqual({
      type: ['REFUND', 'PAYMENT'],
      status: ['POSTED'],
    });
  });

  it.each([
    [{ type: 'CHARGE,BOGUS' }, 'type'],
    [{ status: 'PENDING' }, 'status'],
    [{ status: '' }, 'status'],
    [{ size: '101' }, 'size'],
    [{ size: '0' }, 'size'],
    [{ size: '2.5' }, 'size'],
    [{ from: 'yesterday' }, 'from'],
    [{ to: '2027-01-32' }, 'to'],
    [{ cursor: '' }, 'cursor'],
    [{ bookingIds: Array.from({ length: 101 }, (_, i) => `b${i}`).join(',') }, 'bookingIds'],
    [{ externalBookingIds: Array.from({ length: 101 }, (_, i) => `e${i}`).join(',') }, 'externalBookingIds'],
    [{ page: '2' }, 'page'],
  ])('refuses %j naming %s', (query, param) => {
    expect(paramOf(() => parseInput(LedgerQuerySchema, query, 'query'))).toBe(param);
  });
});

describe('Schema: StatementQuerySchema', () => {
  it.each([
    [{ to: '2027-01-01T00:00:00Z' }, 'from'],
    [{ from: '2027-01-01T00:00:00Z' }, 'to'],
    [{ from: '2027-01-01T00:00:00Z', to: 'soon' }, 'to'],
    [{ from: '2027-02-31', to: '2027-03-01' }, 'from'],
    [{ from: '2027-02-01', to: '2027-3-01' }, 'to'],
  ])('refuses %j naming %s', (query, param) => {
    expect(paramOf(() => parseInput(StatementQuerySchema, query, 'query'))).toBe(param);
  });

  it('takes India dates and date-times, alone or mixed', () => {
    expect(parseInput(StatementQuerySchema, { from: '2026-11-01', to: '2026-11-30T23:59:59+05:30' }, 'query')).toEqual({
      from: '2026-11-01',
      to: '2026-11-30T23:59:59+05:30',
    });
    expect(parseInput(LedgerQuerySchema, { from: '2026-11-01' }, 'query')).toEqual({ from: '2026-11-01' });
  });
});

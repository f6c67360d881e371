import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorizedEntry, postedEntry, type LedgerEntry, type NewPostedEntry } from '../../domain/ledger/ledger.ts';
import { formatIndianGrouping } from '../../domain/money.ts';
import { expectContract } from '../support/contract.ts';
import { assertLedgerInvariant } from '../support/ledger-invariant.ts';
import { pdfText } from '../support/pdf-scan.ts';
import { call, newAgentGroup, stack, testServices, type CallResult, type GroupFixture } from '../support/stack.ts';

interface EntryJson {
  id: string;
  type: string;
  status: string;
  amount: number;
  currency: string;
  bookingId: string | null;
  externalBookingId: string | null;
  description: string;
  occurredAt: string;
}
interface LedgerPage {
  data: EntryJson[];
  nextCursor: string | null;
  creditLimit: number;
  exposure: number;
  availableCredit: number;
}
interface Statement {
  from: string;
  to: string;
  openingBalance: number;
  entries: EntryJson[];
  closingBalance: number;
  creditLimit: number;
  availableCredit: number;
}

const ledger = () => testServices().ledger;
/** Hour h of 2027-01-01 (UTC): distinct, ordered occurredAt values for the seeded entries. */
const T = (h: number): string => new Date(Date.UTC(2027, 0, 1, h)).toISOString();
/** Rupees → paise for exact comparisons of sums. */
const paise = (rupees: number): number => Math.round(rupees * 100);

async function charge(agentGroupId: string, h: number, amount: number, externalBookingId: string): Promise<LedgerEntry> {
  const entry = authorizedEntry(
    { agentGroupId, type: 'CHARGE', amount, externalBookingId, description: `Booking ${externalBookingId}` },
    randomUUID(),
    new Date(T(h)),
  );
  await ledger().authorize(entry, { externalBookingId, contentHash: `hash-${externalBookingId}`, bookingRef: randomUUID() });
  return entry;
}

const recorded = (agentGroupId: string, h: number, cmd: Omit<NewPostedEntry, 'agentGroupId' | 'description'>) =>
  ledger().recordPosted(postedEntry({ ...cmd, agentGroupId, description: `${cmd.type} at ${h}h` }, randomUUID(), new Date(T(h))));

/**
 * Group A's ledger, oldest first (amounts in paise):
 * e1 CHARGE +10,000.00 POSTED PS-1/ext-1 · e2 CHARGE +5,000.50 AUTHORIZED ext-2 · e3 CHARGE +3,000.00 RELEASED ext-3 ·
 * e4 REFUND −2,000.00 PS-1/ext-1 · e5 PAYMENT −4,000.00 · e6 ADJUSTMENT +1,234.56 PS-1/ext-1 ·
 * e7 CHARGE +7,000.00 POSTED PS-7/ext-7 · e8 ADJUSTMENT −500.00 PS-7.
 */
let A: GroupFixture;
let B: GroupFixture;
let ids: string[];
beforeAll(async () => {
  [A, B] = await Promise.all([newAgentGroup({ creditLimit: 50_000_00 }), newAgentGroup({ creditLimit: 20_000_00 })]);
  const g = A.agentGroupId;
  const e1 = await charge(g, 1, 10_000_00, 'ext-1');
  await ledger().post(g, e1.id, 'PS-1', T(1));
  const e2 = await charge(g, 2, 5_000_50, 'ext-2');
  const e3 = await charge(g, 3, 3_000_00, 'ext-3');
  await ledger().release(g, e3.id, T(3));
  const e4 = await recorded(g, 4, { type: 'REFUND', amount: -2_000_00, bookingId: 'PS-1', externalBookingId: 'ext-1' });
  const e5 = await recorded(g, 5, { type: 'PAYMENT', amount: -4_000_00, bookingId: null, externalBookingId: null });
  const e6 = await recorded(g, 6, { type: 'ADJUSTMENT', amount: 1_234_56, bookingId: 'PS-1', externalBookingId: 'ext-1' });
  const e7 = await charge(g, 7, 7_000_00, 'ext-7');
  await ledger().post(g, e7.id, 'PS-7', T(7));
  const e8 = await recorded(g, 8, { type: 'ADJUSTMENT', amount: -500_00, bookingId: 'PS-7', externalBookingId: null });
  ids = [e1, e2, e3, e4, e5, e6, e7, e8].map((e) => e.id);
  // Group B has one charge of its own, which group A must never see.
  await charge(B.agentGroupId, 4, 1_000_00, 'ext-1');
  await assertLedgerInvariant(ledger(), g);
}, 120_000);

/** Seeded entry numbers (1-based) → their ids, in the order given. */
const entries = (...n: number[]): string[] => n.map((i) => ids[i - 1]!);
const idsOf = (res: CallResult<LedgerPage>): string[] => res.body.data.map((e) => e.id);
const getLedger = (query: string, key = A.apiKey) => call<LedgerPage>('GET', `/v1/ledger${query}`, { key });
const getStatement = (query: string, key = A.apiKey) => call<Statement>('GET', `/v1/statement${query}`, { key });

async function expect400(res: CallResult, param: string, operationId: string): Promise<void> {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', param });
  expect((res.body as { message: string }).message).toContain(param);
  expectContract(res, operationId);
}

describe('GET /v1/ledger', () => {
  it('lists every entry newest first with signed rupee amounts and the live credit position', async () => {
    const res = await getLedger('');

    expect(res.status).toBe(200);
    expectContract(res, 'listLedger');
    expect(idsOf(res)).toEqual(entries(8, 7, 6, 5, 4, 3, 2, 1));
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.data.map((e) => [e.type, e.status, e.amount])).toEqual([
      ['ADJUSTMENT', 'POSTED', -500],
      ['CHARGE', 'POSTED', 7000],
      ['ADJUSTMENT', 'POSTED', 1234.56],
      ['PAYMENT', 'POSTED', -4000],
      ['REFUND', 'POSTED', -2000],
      ['CHARGE', 'RELEASED', 3000],
      ['CHARGE', 'AUTHORIZED', 5000.5],
      ['CHARGE', 'POSTED', 10000],
    ]);
    expect(res.body.data.at(-1)).toEqual({
      id: ids[0],
      type: 'CHARGE',
      status: 'POSTED',
      amount: 10000,
      currency: 'INR',
      bookingId: 'PS-1',
      externalBookingId: 'ext-1',
      description: 'Booking ext-1',
      occurredAt: T(1),
    });
    expect(res.body.data.at(-2)).toMatchObject({ status: 'AUTHORIZED', bookingId: null, externalBookingId: 'ext-2' });
    // exposure = authorized + posted − refunds − payments; the released authorization counts nowhere.
    expect(res.body).toMatchObject({ creditLimit: 50000, exposure: 16735.06, availableCredit: 33264.94 });
  });

  it('pages with a cursor across pages with no duplicates and no gaps, and size may change between pages', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes = [3, 2, 3, 5];
    for (let i = 0; i < sizes.length && (i === 0 || cursor); i++) {
      const res: CallResult<LedgerPage> = await getLedger(`?size=${sizes[i]}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expectContract(res, 'listLedger');
      seen.push(...idsOf(res));
      cursor = res.body.nextCursor;
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual(entries(8, 7, 6, 5, 4, 3, 2, 1));
  });

  it('answers Accept: text/csv with the page as CSV and the next cursor in X-Next-Cursor, paging to the same entries as JSON', async () => {
    const csvPage = (cursor?: string) =>
      call('GET', `/v1/ledger?status=POSTED&size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        key: A.apiKey,
        headers: { accept: 'text/csv' },
      });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await csvPage(cursor);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expectContract(res, 'listLedger');
      seen.push(
        ...res.text
          .trimEnd()
          .split('\r\n')
          .slice(1)
          .map((line) => line.split(',')[2]!),
      );
      cursor = res.headers.get('x-next-cursor') ?? undefined;
      if (!cursor) break;
    }

    expect(cursor).toBeUndefined();
    expect(seen).toEqual(entries(8, 7, 6, 5, 4, 1));
  });

  it('pages a filtered read, ending a page inside a round of matches and resuming right after it', async () => {
    const first = await getLedger('?status=POSTED&size=2');
    const second = await getLedger(`?status=POSTED&size=2&cursor=${encodeURIComponent(first.body.nextCursor!)}`);
    const third = await getLedger(`?status=POSTED&size=2&cursor=${encodeURIComponent(second.body.nextCursor!)}`);

    expect([...idsOf(first), ...idsOf(second), ...idsOf(third)]).toEqual(entries(8, 7, 6, 5, 4, 1));
    expect(third.body.nextCursor).toBeNull();
  });

  it.each([
    ['?type=REFUND,PAYMENT', [5, 4]],
    ['?type=REFUND&type=PAYMENT', [5, 4]],
    ['?type=ADJUSTMENT&status=POSTED', [8, 6]],
    ['?status=AUTHORIZED', [2]],
    ['?status=RELEASED,AUTHORIZED', [3, 2]],
    ['?bookingIds=PS-1', [6, 4, 1]],
    ['?bookingIds=PS-1,PS-7', [8, 7, 6, 4, 1]],
    ['?externalBookingIds=ext-2', [2]],
    ['?bookingIds=PS-7&externalBookingIds=ext-7', [7]],
    ['?bookingIds=PS-1&externalBookingIds=ext-7', []],
    ['?bookingIds=ext-2', []],
    [`?from=${T(2)}&to=${T(4)}`, [4, 3, 2]],
    [`?from=${T(7)}`, [8, 7]],
    [`?to=${T(1)}`, [1]],
    [`?from=${encodeURIComponent('2027-01-01T07:30:00+05:30')}&to=${T(3)}`, [3, 2]],
    [`?from=${T(9)}`, []],
    ['?from=2027-01-01&to=2027-01-01', [8, 7, 6, 5, 4, 3, 2, 1]],
    ['?from=2027-01-02', []],
    ['?to=2026-12-31', []],
  ])('filters %s', async (query, expected) => {
    const res = await getLedger(query);

    expect(res.status, res.text).toBe(200);
    expectContract(res, 'listLedger');
    expect(idsOf(res)).toEqual(entries(...expected));
  });

  it("never shows another group's entries, and each group sees its own position", async () => {
    const resB = await getLedger('', B.apiKey);
    const resAOnB = await getLedger('?externalBookingIds=ext-1', B.apiKey);

    expect(resB.status).toBe(200);
    expect(resB.body.data).toHaveLength(1);
    expect(ids).not.toContain(resB.body.data[0]!.id);
    expect(resB.body).toMatchObject({ creditLimit: 20000, exposure: 1000, availableCredit: 19000 });
    expect(resAOnB.body.data.map((e) => e.status)).toEqual(['AUTHORIZED']);
  });

  it.each([
    ['?type=CHARGE,BOGUS', 'type'],
    ['?type=', 'type'],
    ['?status=PENDING', 'status'],
    [`?from=${T(5)}&to=${T(4)}`, 'from'],
    ['?from=last-week', 'from'],
    ['?to=2027-01-32', 'to'],
    ['?size=101', 'size'],
    ['?size=0', 'size'],
    ['?size=ten', 'size'],
    [`?bookingIds=${Array.from({ length: 101 }, (_, i) => `PS-${i}`).join(',')}`, 'bookingIds'],
    [`?externalBookingIds=${Array.from({ length: 101 }, (_, i) => `x-${i}`).join(',')}`, 'externalBookingIds'],
    ['?cursor=not-a-cursor', 'cursor'],
    ['?page=2', 'page'],
  ])('refuses %s with a 400 naming %s', async (query, param) => {
    await expect400(await getLedger(query), param, 'listLedger');
  });

  it('refuses a tampered cursor, a cursor from another query and one from another group', async () => {
    const first = await getLedger('?size=2');
    const cursor = first.body.nextCursor!;
    const tampered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;

    await expect400(await getLedger(`?size=2&cursor=${encodeURIComponent(tampered)}`), 'cursor', 'listLedger');
    await expect400(await getLedger(`?size=2&status=POSTED&cursor=${encodeURIComponent(cursor)}`), 'cursor', 'listLedger');
    await expect400(await getLedger(`?size=2&from=${T(0)}&cursor=${encodeURIComponent(cursor)}`), 'cursor', 'listLedger');
    await expect400(await getLedger(`?size=2&cursor=${encodeURIComponent(cursor)}`, B.apiKey), 'cursor', 'listLedger');
  });

  it('keeps a cursor across spellings of the same query (list order, repeats, instant form)', async () => {
    const first = await getLedger(`?status=POSTED,AUTHORIZED&from=${T(0)}&size=2`);
    const res = await getLedger(
      `?status=AUTHORIZED&status=POSTED&from=${encodeURIComponent('2027-01-01T05:30:00+05:30')}&size=2&cursor=${encodeURIComponent(first.body.nextCursor!)}`,
    );

    expect(res.status, res.text).toBe(200);
    expect(idsOf(res)).toEqual(entries(6, 5));
  });

  it('is 401 without a key', async () => {
    const res = await call('GET', '/v1/ledger');

    expect(res.status).toBe(401);
    expectContract(res, 'listLedger');
  });
});

describe('GET /v1/statement', () => {
  /** The identity every statement must satisfy: closing = opening + POSTED amounts listed. */
  const expectIdentity = (s: Statement) =>
    expect(paise(s.closingBalance)).toBe(paise(s.openingBalance) + s.entries.filter((e) => e.status === 'POSTED').reduce((sum, e) => sum + paise(e.amount), 0));

  it('lists the period oldest first between an opening and a closing balance of POSTED amounts', async () => {
    const res = await getStatement(`?from=${T(4)}&to=${T(8)}`);

    expect(res.status, res.text).toBe(200);
    expectContract(res, 'getStatement');
    expect(res.body.entries.map((e) => e.id)).toEqual(entries(4, 5, 6, 7, 8));
    // Before 04:00 only e1 is POSTED: e2 is still AUTHORIZED, e3 was RELEASED.
    expect(res.body).toMatchObject({ from: T(4), to: T(8), openingBalance: 10000, closingBalance: 11734.56, creditLimit: 50000, availableCredit: 33264.94 });
    expectIdentity(res.body);
  });

  it('lists AUTHORIZED and RELEASED entries but counts them in neither balance', async () => {
    const res = await getStatement(`?from=${T(0)}&to=${T(3)}`);

    expect(res.body.entries.map((e) => [e.id, e.status])).toEqual([
      [ids[0], 'POSTED'],
      [ids[1], 'AUTHORIZED'],
      [ids[2], 'RELEASED'],
    ]);
    expect(res.body).toMatchObject({ openingBalance: 0, closingBalance: 10000 });
    expectIdentity(res.body);
  });

  it('chains: one period closes where the next opens, and the whole history closes at the net POSTED position', async () => {
    const [early, late, whole] = await Promise.all([
      getStatement(`?from=${T(0)}&to=${T(5)}`),
      getStatement(`?from=${T(6)}&to=${T(23)}`),
      getStatement(`?from=${T(0)}&to=${T(23)}`),
    ]);

    for (const s of [early, late, whole]) expectIdentity(s.body);
    expect(late.body.openingBalance).toBe(early.body.closingBalance);
    expect(whole.body.closingBalance).toBe(late.body.closingBalance);
    expect(whole.body.closingBalance).toBe(11734.56);
  });

  it('takes a window of exactly 365 days and shows another group nothing of ours', async () => {
    const res = await getStatement(`?from=2026-06-01T00:00:00Z&to=2027-06-01T00:00:00Z`, B.apiKey);

    expect(res.status, res.text).toBe(200);
    expectContract(res, 'getStatement');
    expect(res.body.entries).toHaveLength(1);
    expect(ids).not.toContain(res.body.entries[0]!.id);
    expect(res.body).toMatchObject({ openingBalance: 0, closingBalance: 0, creditLimit: 20000, availableCredit: 19000 });
  });

  it('takes India dates: from the first instant of the IST day to its last, named by those dates as a CSV', async () => {
    const [json, csv] = await Promise.all([
      getStatement('?from=2027-01-01&to=2027-01-01'),
      call('GET', '/v1/statement?from=2027-01-01&to=2027-01-01', { key: A.apiKey, headers: { accept: 'text/csv' } }),
    ]);

    expect(json.status, json.text).toBe(200);
    expectContract(json, 'getStatement');
    expect(json.body).toMatchObject({ from: '2026-12-31T18:30:00.000Z', to: '2027-01-01T18:29:59.999Z', openingBalance: 0, closingBalance: 11734.56 });
    expect(json.body.entries.map((e) => e.id)).toEqual(ids);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="statement-2027-01-01-to-2027-01-01.csv"');
  });

  it.each([
    ['?from=2027-02-31&to=2027-03-01', 'from'],
    [`?to=${T(4)}`, 'from'],
    [`?from=${T(4)}`, 'to'],
    ['', 'from'],
    [`?from=${T(5)}&to=${T(4)}`, 'from'],
    ['?from=2026-06-01T00:00:00Z&to=2027-06-01T00:00:00.001Z', 'to'],
    [`?from=soon&to=${T(4)}`, 'from'],
    [`?from=${T(4)}&to=${T(5)}&size=5`, 'size'],
  ])('refuses %s with a 400 naming %s', async (query, param) => {
    await expect400(await getStatement(query), param, 'getStatement');
  });

  it('answers Accept: text/csv with the same statement as a CSV file: opening row, entries with the running POSTED balance, closing row', async () => {
    const [json, csv] = await Promise.all([
      getStatement(`?from=${T(4)}&to=${T(8)}`),
      call('GET', `/v1/statement?from=${T(4)}&to=${T(8)}`, { key: A.apiKey, headers: { accept: 'text/csv' } }),
    ]);

    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="statement-2027-01-01-to-2027-01-01.csv"');
    expect(csv.headers.get('vary')).toMatch(/accept/i);
    expectContract(csv, 'getStatement');
    const rows = csv.text
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(rows[0]).toEqual([
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
    ]);
    const body = rows.slice(1);
    expect(body.map((r) => r[2])).toEqual(['', ...json.body.entries.map((e) => e.id), '']);
    expect(body[0]!.slice(3, 4).concat(body[0]![8]!)).toEqual(['OPENING_BALANCE', json.body.openingBalance.toFixed(2)]);
    expect([body.at(-1)![3], body.at(-1)![8]]).toEqual(['CLOSING_BALANCE', json.body.closingBalance.toFixed(2)]);
    expect(body.slice(1, -1).map((r) => Number(r[8]))).toEqual(json.body.entries.map((e) => e.amount));
    // The balance column ends where the JSON's closing balance is, and moves only with POSTED rows.
    expect(body.at(-2)![10]).toBe(json.body.closingBalance.toFixed(2));
    // India time: 04:00 UTC is 09:30 IST.
    expect(body[1]!.slice(0, 2)).toEqual(['2027-01-01', '09:30:00']);
  });

  it('answers Accept: application/pdf with the same statement as a PDF file: the period in India dates, every entry, the closing balance', async () => {
    const [json, pdf] = await Promise.all([
      getStatement(`?from=${T(4)}&to=${T(8)}`),
      fetch(`${stack().baseUrl}/v1/statement?from=${T(4)}&to=${T(8)}`, {
        headers: { authorization: `Basic ${Buffer.from(`${A.apiKey}:`).toString('base64')}`, accept: 'application/pdf' },
      }),
    ]);

    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe('attachment; filename="statement-2027-01-01-to-2027-01-01.pdf"');
    expect(pdf.headers.get('vary')).toMatch(/accept/i);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain('01-01-2027 to 01-01-2027');
    expect(text).toContain(`Closing balance ${formatIndianGrouping(Math.round(json.body.closingBalance * 100))}`);
    expect(text).toContain(`₹${formatIndianGrouping(Math.round(json.body.closingBalance * 100))}`);
    for (const e of json.body.entries) if (e.externalBookingId) expect(text).toContain(e.externalBookingId);
  });

  it('answers JSON when JSON is preferred, or nothing is said', async () => {
    const res = await call('GET', `/v1/statement?from=${T(4)}&to=${T(8)}`, { key: A.apiKey, headers: { accept: 'text/csv;q=0.5, application/json' } });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.closingBalance).toBe(11734.56);
  });

  it('is 401 without a key', async () => {
    const res = await call('GET', `/v1/statement?from=${T(0)}&to=${T(1)}`);

    expect(res.status).toBe(401);
    expectContract(res, 'getStatement');
  });
});

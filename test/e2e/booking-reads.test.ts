import { beforeAll, describe, expect, it } from 'vitest';
import type { Booking } from '../../domain/bookings/booking.ts';
import { seedBooking, seedNewBooking } from '../support/booking-seed.ts';
import { expectContract } from '../support/contract.ts';
import { call, newAgentGroup, uniqueId, type CallResult, type GroupFixture } from '../support/stack.ts';

interface Row {
  bookingId: string | null;
  externalBookingId: string;
  code: string;
  status: string;
  checkIn: string;
  checkOut: string;
  totalAmount: number;
  outstandingAmount: number;
  paidAmount: number;
  createdAt: string;
  updatedAt: string;
}
interface Page {
  data: Row[];
  nextCursor: string | null;
}

/** Feed instants of the seeded bookings: one minute apart, in the past so updatedSince reads are stable. */
const at = (minute: number): string => new Date(Date.UTC(2026, 9, 1, 10, minute)).toISOString();

let groupA: GroupFixture;
let groupB: GroupFixture;
let groupP: GroupFixture;
/** Group A's bookings in feed order: confirmed, processing, failed, cancelled, confirmed with the shared reference. */
let a: Booking[];
let sharedRef: string;
let foreign: Booking;
/** Group P's bookings, for paging, in feed order. */
let paged: Booking[];

beforeAll(async () => {
  [groupA, groupB, groupP] = await Promise.all([newAgentGroup(), newAgentGroup(), newAgentGroup()]);
  sharedRef = uniqueId('shared');
  a = await Promise.all([
    seedNewBooking(groupA, { updatedAt: at(1), createdAt: at(1), checkIn: '2027-03-01', checkOut: '2027-03-03', amount: 12_345_67 }),
    seedNewBooking(groupA, {
      updatedAt: at(2),
      createdAt: at(2),
      checkIn: '2027-03-10',
      checkOut: '2027-03-12',
      status: 'PROCESSING',
      bookingId: null,
      confirmedAt: null,
    }),
    seedNewBooking(groupA, {
      updatedAt: at(3),
      createdAt: at(3),
      checkIn: '2027-04-01',
      checkOut: '2027-04-03',
      status: 'FAILED',
      bookingId: null,
      confirmedAt: null,
      failure: { reasonCode: 'BOOKING_NOT_COMPLETED', reason: 'The property did not confirm in time.', failedAt: at(3) },
    }),
    seedNewBooking(groupA, {
      updatedAt: at(4),
      createdAt: at(0),
      checkIn: '2027-05-01',
      checkOut: '2027-05-03',
      status: 'CANCELLED',
      amount: 20_000_00,
      cancellation: { cancelledAt: at(4), reason: 'Guest changed plans', refundPercentage: 50, refundAmount: 10_000_00, refundEntryId: 'refund-entry' },
    }),
    seedNewBooking(groupA, { updatedAt: at(5), createdAt: at(5), checkIn: '2027-03-05', checkOut: '2027-03-07', externalBookingId: sharedRef }),
  ]);
  // Same externalBookingId in another group: never seen by group A.
  foreign = await seedNewBooking(groupB, { updatedAt: at(3), createdAt: at(3), externalBookingId: sharedRef, checkIn: '2027-03-05', checkOut: '2027-03-07' });
  const statuses = ['CONFIRMED', 'CANCELLED', 'CONFIRMED', 'PROCESSING'] as const;
  paged = await Promise.all(
    Array.from({ length: 23 }, (_, i) =>
      seedNewBooking(groupP, {
        // Two bookings share each instant, so the tie-break on bookingRef is exercised across page ends.
        updatedAt: at(Math.floor(i / 2)),
        status: statuses[i % statuses.length]!,
        bookingId: statuses[i % statuses.length] === 'PROCESSING' ? null : uniqueId('PS'),
      }),
    ),
  );
  paged.sort((x, y) => (x.updatedAt < y.updatedAt ? -1 : x.updatedAt > y.updatedAt ? 1 : x.bookingRef < y.bookingRef ? -1 : 1));
}, 120_000);

const list = (key: string, query = ''): Promise<CallResult<Page>> => call<Page>('GET', `/v1/bookings${query ? `?${query}` : ''}`, { key });
const exts = (res: CallResult<Page>): string[] => res.body.data.map((r) => r.externalBookingId);
const extsOf = (bs: readonly Booking[]): string[] => bs.map((b) => b.externalBookingId);

/** Follows nextCursor from `query` (from `start` when given) until it is null, returning every page. */
async function walk(key: string, query: string, start: string | null = null): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = start;
  do {
    const res: CallResult<Page> = await list(key, [query, cursor && `cursor=${encodeURIComponent(cursor)}`].filter(Boolean).join('&'));
    expect(res.status).toBe(200);
    expectContract(res, 'listBookings');
    pages.push(res.body);
    cursor = res.body.nextCursor;
  } while (cursor && pages.length < 30);
  return pages;
}

describe('GET /v1/bookings', () => {
  it("returns the group's bookings in updatedAt order with the row fields and amounts", async () => {
    const res = await list(groupA.apiKey);

    expect(res.status).toBe(200);
    expectContract(res, 'listBookings');
    expect(exts(res)).toEqual(extsOf(a));
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.data[0]).toEqual({
      bookingId: a[0]!.bookingId,
      externalBookingId: a[0]!.externalBookingId,
      code: a[0]!.code,
      status: 'CONFIRMED',
      checkIn: '2027-03-01',
      checkOut: '2027-03-03',
      totalAmount: 12345.67,
      outstandingAmount: 12345.67,
      paidAmount: 0,
      createdAt: at(1),
      updatedAt: at(1),
    });
    const [, processing, failed, cancelled] = res.body.data;
    expect(processing).toMatchObject({ status: 'PROCESSING', bookingId: null, totalAmount: 10500, outstandingAmount: 0, paidAmount: 0 });
    expect(failed).toMatchObject({ status: 'FAILED', bookingId: null, outstandingAmount: 0 });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', totalAmount: 20000, outstandingAmount: 10000, paidAmount: 0 });
  });

  it("never returns another group's booking, even under the same externalBookingId", async () => {
    const mine = await list(groupA.apiKey, `externalBookingIds=${sharedRef}`);
    const theirs = await list(groupB.apiKey, `externalBookingIds=${sharedRef}`);
    const byForeignId = await list(groupA.apiKey, `bookingIds=${foreign.bookingId}`);
    const theirFeed = await list(groupB.apiKey);

    expect(mine.body.data.map((r) => r.bookingId)).toEqual([a[4]!.bookingId]);
    expect(theirs.body.data.map((r) => r.bookingId)).toEqual([foreign.bookingId]);
    expect(byForeignId.body.data).toEqual([]);
    expect(theirFeed.body.data.map((r) => r.bookingId)).toEqual([foreign.bookingId]);
  });

  it('filters by bookingIds, leaving out unknown ids and bookings not yet landed', async () => {
    const res = await list(groupA.apiKey, `bookingIds=${a[3]!.bookingId},nope-${uniqueId('x')},${a[0]!.bookingId}`);

    expect(res.status).toBe(200);
    expectContract(res, 'listBookings');
    expect(exts(res)).toEqual(extsOf([a[0]!, a[3]!]));
  });

  it('filters by externalBookingIds, finding PROCESSING and FAILED bookings too (repeated form)', async () => {
    const res = await list(groupA.apiKey, `externalBookingIds=${a[2]!.externalBookingId}&externalBookingIds=${a[1]!.externalBookingId}`);

    expect(exts(res)).toEqual(extsOf([a[1]!, a[2]!]));
    expect(res.body.data.map((r) => r.status)).toEqual(['PROCESSING', 'FAILED']);
  });

  it('filters by status, comma-separated or repeated', async () => {
    const comma = await list(groupA.apiKey, 'status=CONFIRMED,CANCELLED');
    const repeated = await list(groupA.apiKey, 'status=FAILED&status=PROCESSING');

    expect(exts(comma)).toEqual(extsOf([a[0]!, a[3]!, a[4]!]));
    expect(exts(repeated)).toEqual(extsOf([a[1]!, a[2]!]));
  });

  it('filters by an inclusive check-in window, either end alone too', async () => {
    const both = await list(groupA.apiKey, 'checkInFrom=2027-03-01&checkInTo=2027-03-10');
    const from = await list(groupA.apiKey, 'checkInFrom=2027-04-01');
    const to = await list(groupA.apiKey, 'checkInTo=2027-03-05');

    expect(exts(both)).toEqual(extsOf([a[0]!, a[1]!, a[4]!]));
    expect(exts(from)).toEqual(extsOf([a[2]!, a[3]!]));
    expect(exts(to)).toEqual(extsOf([a[0]!, a[4]!]));
  });

  it('returns bookings updated at or after updatedSince, in any ISO 8601 form', async () => {
    const exact = await list(groupA.apiKey, `updatedSince=${at(3)}`);
    const offset = await list(groupA.apiKey, `updatedSince=${encodeURIComponent('2026-10-01T15:34:30+05:30')}`);
    const future = await list(groupA.apiKey, 'updatedSince=2030-01-01T00:00:00Z');

    expect(exts(exact)).toEqual(extsOf([a[2]!, a[3]!, a[4]!]));
    expect(exts(offset)).toEqual(extsOf([a[4]!]));
    expect(future.body).toEqual({ data: [], nextCursor: null });
  });

  it('combines every filter with AND, the two id lists too', async () => {
    const filters = await list(groupA.apiKey, `status=CONFIRMED&checkInTo=2027-03-04&updatedSince=${at(1)}`);
    const lists = await list(
      groupA.apiKey,
      `bookingIds=${a[0]!.bookingId},${a[3]!.bookingId}&externalBookingIds=${a[3]!.externalBookingId},${a[1]!.externalBookingId}`,
    );
    const idsAndStatus = await list(groupA.apiKey, `externalBookingIds=${extsOf(a).join(',')}&status=CANCELLED&checkInFrom=2027-05-01`);

    expect(exts(filters)).toEqual(extsOf([a[0]!]));
    expect(exts(lists)).toEqual(extsOf([a[3]!]));
    expect(exts(idsAndStatus)).toEqual(extsOf([a[3]!]));
  });

  it('pages the feed with size and nextCursor: every booking once, in order, no gaps', async () => {
    const pages = await walk(groupP.apiKey, 'size=5');

    expect(pages.map((p) => p.data.length)).toEqual([5, 5, 5, 5, 3]);
    expect(pages.flatMap((p) => p.data.map((r) => r.externalBookingId))).toEqual(extsOf(paged));
    expect(pages.at(-1)!.nextCursor).toBeNull();
  });

  it('pages a filtered feed and an id list the same way', async () => {
    const confirmed = paged.filter((b) => b.status === 'CONFIRMED');
    const some = paged.filter((_, i) => i % 3 === 0);

    const filtered = await walk(groupP.apiKey, 'status=CONFIRMED&size=4');
    const byIds = await walk(groupP.apiKey, `externalBookingIds=${extsOf(some).reverse().join(',')}&size=3`);

    expect(filtered.flatMap((p) => p.data.map((r) => r.externalBookingId))).toEqual(extsOf(confirmed));
    expect(byIds.flatMap((p) => p.data.map((r) => r.externalBookingId))).toEqual(extsOf(some));
    expect(byIds.map((p) => p.data.length)).toEqual([3, 3, 2]);
  });

  it('serves a booking changed while paging again on a later page, after its new updatedAt', async () => {
    // prepare
    const group = await newAgentGroup();
    const seeded = await Promise.all([1, 2, 3, 4].map((m) => seedNewBooking(group, { updatedAt: at(m) })));
    const first = await list(group.apiKey, 'size=2');

    // act: the first booking of page one is cancelled meanwhile
    const changed = await seedBooking({
      ...seeded[0]!,
      status: 'CANCELLED',
      updatedAt: at(9),
      cancellation: { cancelledAt: at(9), reason: null, refundPercentage: 0, refundAmount: 0, refundEntryId: 'r' },
    });
    const rest = await walk(group.apiKey, 'size=2', first.body.nextCursor);

    // assess
    expect(exts(first)).toEqual(extsOf(seeded.slice(0, 2)));
    expect(rest.flatMap((p) => p.data.map((r) => r.externalBookingId))).toEqual(extsOf([seeded[2]!, seeded[3]!, changed]));
    expect(rest.flatMap((p) => p.data).at(-1)).toMatchObject({ status: 'CANCELLED', updatedAt: at(9) });
  });

  it('lets size change between pages of one walk', async () => {
    const first = await list(groupP.apiKey, 'size=3');
    const second = await list(groupP.apiKey, `size=7&cursor=${encodeURIComponent(first.body.nextCursor!)}`);

    expect([...exts(first), ...exts(second)]).toEqual(extsOf(paged.slice(0, 10)));
  });

  const tooMany = (prefix: string) => Array.from({ length: 101 }, (_, i) => `${prefix}${i}`).join(',');
  it.each([
    ['101 bookingIds', () => `bookingIds=${tooMany('b')}`, 'bookingIds'],
    ['101 externalBookingIds', () => `externalBookingIds=${tooMany('e')}`, 'externalBookingIds'],
    ['size 101', () => 'size=101', 'size'],
    ['size 0', () => 'size=0', 'size'],
    ['size not a number', () => 'size=ten', 'size'],
    ['an unknown status', () => 'status=CONFIRMED,SHIPPED', 'status'],
    ['a reply-only status', () => 'status=ALREADY_EXISTS', 'status'],
    ['a malformed checkInFrom', () => 'checkInFrom=2027-02-30', 'checkInFrom'],
    ['a malformed checkInTo', () => 'checkInTo=01-03-2027', 'checkInTo'],
    ['a reversed check-in window', () => 'checkInFrom=2027-03-10&checkInTo=2027-03-01', 'checkInFrom'],
    ['a check-in window over 365 dates', () => 'checkInFrom=2027-01-01&checkInTo=2028-01-01', 'checkInTo'],
    ['a date as updatedSince', () => 'updatedSince=2027-03-01', 'updatedSince'],
    ['a malformed cursor', () => 'cursor=not-a-cursor', 'cursor'],
    ['an unknown parameter', () => 'page=2', 'page'],
  ])('refuses %s with 400 naming the parameter', async (_, query, param) => {
    const res = await list(groupA.apiKey, query());

    expect(res.status).toBe(400);
    expectContract(res, 'listBookings');
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', param });
    expect((res.body as unknown as { message: string }).message).toMatch(new RegExp(`^${param}\\b`));
  });

  it('refuses a tampered cursor, one from another query and one from another group with 400 naming cursor', async () => {
    // prepare
    const first = await list(groupP.apiKey, 'size=2');
    const cursor = first.body.nextCursor!;
    const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    const filteredCursor = (await list(groupP.apiKey, 'status=CONFIRMED&size=2')).body.nextCursor!;

    // act
    const responses = await Promise.all([
      list(groupP.apiKey, `size=2&cursor=${encodeURIComponent(flipped)}`),
      list(groupP.apiKey, `size=2&status=CANCELLED&cursor=${encodeURIComponent(cursor)}`),
      list(groupP.apiKey, `size=2&cursor=${encodeURIComponent(filteredCursor)}`),
      list(groupA.apiKey, `size=2&cursor=${encodeURIComponent(cursor)}`),
    ]);

    // assess
    expect(responses.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    for (const r of responses) expect(r.body).toMatchObject({ code: 'VALIDATION_FAILED', param: 'cursor' });
  });

  it('answers 401 without a valid key', async () => {
    const none = await call('GET', '/v1/bookings');
    const wrong = await call('GET', '/v1/bookings', { key: 'pk_live_not-a-real-key' });

    expect([none.status, wrong.status]).toEqual([401, 401]);
    expectContract(none, 'listBookings');
  });
});

describe('GET /v1/bookings/{bookingId}', () => {
  it('returns the row plus listing, order, items, guests, policy and outcome, without the callback URL', async () => {
    const res = await call('GET', `/v1/bookings/${a[0]!.bookingId}`, { key: groupA.apiKey });

    expect(res.status).toBe(200);
    expectContract(res, 'getBooking');
    const listRow = (await list(groupA.apiKey, `bookingIds=${a[0]!.bookingId}`)).body.data[0];
    expect(res.body).toMatchObject({
      ...listRow,
      listingId: 'villa-seeded',
      orderId: a[0]!.orderId,
      amendments: [],
      failure: null,
      cancellation: null,
      specialRequests: 'Late arrival',
    });
    expect(res.body.items).toEqual([
      expect.objectContaining({ listingId: 'villa-seeded', checkIn: '2027-03-01', nights: 2, itemSubtotal: 11757.78, cancellationPlanId: 'moderate' }),
    ]);
    expect(res.body.summary).toMatchObject({ grandTotal: 12345.67, gst: 587.89, bankOffer: null });
    expect(res.body.cancellationPolicy).toEqual(a[0]!.items[0]!.cancellationPolicy);
    expect(res.body.primaryGuest).toEqual({ firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com', phone: '+919800000001' });
    expect(res.body.additionalGuests).toEqual([{ firstName: 'Ravi' }]);
    expect(res.text).not.toContain('callbackUrl');
    expect(res.text).not.toContain('partner.example.com');
    expect(res.text).not.toContain('do-not-echo');
    expect(res.text).not.toContain(groupA.signingSecret);
    expect(res.text).not.toContain(a[0]!.bookingRef);
  });

  it('shows what a cancellation did, refund in rupees', async () => {
    const res = await call('GET', `/v1/bookings/${a[3]!.bookingId}`, { key: groupA.apiKey });

    expectContract(res, 'getBooking');
    expect(res.body).toMatchObject({
      status: 'CANCELLED',
      outstandingAmount: 10000,
      cancellation: { cancelledAt: at(4), reason: 'Guest changed plans', refundPercentage: 50, refundAmount: 10000 },
      failure: null,
    });
  });

  it("answers another group's booking and an unknown id with identical 404s", async () => {
    const theirs = await call('GET', `/v1/bookings/${foreign.bookingId}`, { key: groupA.apiKey });
    const unknown = await call('GET', `/v1/bookings/${uniqueId('PS')}`, { key: groupA.apiKey });

    expect([theirs.status, unknown.status]).toEqual([404, 404]);
    expectContract(theirs, 'getBooking');
    const comparable = (b: Record<string, unknown>) => ({ ...b, timestamp: undefined, path: undefined });
    expect(comparable(theirs.body)).toEqual(comparable(unknown.body));
    expect(theirs.body).toMatchObject({ code: 'NOT_FOUND', message: 'Booking not found.' });
  });

  it('refuses an over-long bookingId with 400 and a missing key with 401', async () => {
    const long = await call('GET', `/v1/bookings/${'x'.repeat(65)}`, { key: groupA.apiKey });
    const noKey = await call('GET', `/v1/bookings/${a[0]!.bookingId}`);

    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ param: 'bookingId' });
    expect(noKey.status).toBe(401);
    expectContract(noKey, 'getBooking');
  });
});

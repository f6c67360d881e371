import { beforeAll, describe, expect, it } from 'vitest';
import type { Booking } from '../../domain/bookings/booking.ts';
import type { BookingFeedPosition } from '../../domain/ports/booking-reads.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { DynamoBookingReads } from '../../infra/dynamo/dynamo-booking-reads.ts';
import { seedNewBooking } from '../support/booking-seed.ts';
import { newAgentGroup, testServices, uniqueId, type GroupFixture } from '../support/stack.ts';

const at = (minute: number): string => new Date(Date.UTC(2026, 9, 2, 8, minute)).toISOString();
const refs = (bs: readonly Booking[]): string[] => bs.map((b) => b.bookingRef);

let group: GroupFixture;
let other: GroupFixture;
/** Eight CONFIRMED bookings, then two CANCELLED, in feed order. */
let feed: Booking[];
let reads: DynamoBookingReads;

beforeAll(async () => {
  [group, other] = await Promise.all([newAgentGroup(), newAgentGroup()]);
  feed = await Promise.all(Array.from({ length: 10 }, (_, i) => seedNewBooking(group, { updatedAt: at(i), status: i < 8 ? 'CONFIRMED' : 'CANCELLED' })));
  const svc = testServices();
  reads = new DynamoBookingReads(createDocumentClient(svc.config), svc.config.tableName);
}, 60_000);

describe('Class: DynamoBookingReads', () => {
  it('stops a sparse filtered read at its budget and resumes from where it stopped reading', async () => {
    // prepare: three entries per Query, two Queries per page
    const svc = testServices();
    const budgeted = new DynamoBookingReads(createDocumentClient(svc.config), svc.config.tableName, { readBatch: 3, maxRounds: 2 });
    const filter = { statuses: ['CANCELLED' as const] };

    // act
    const first = await budgeted.feedPage(group.agentGroupId, { filter, limit: 2 });
    const second = await budgeted.feedPage(group.agentGroupId, { filter, after: first.resumeAfter!, limit: 2 });

    // assess
    expect(first.bookings).toEqual([]);
    expect(first.resumeAfter).toEqual<BookingFeedPosition>({ updatedAt: feed[5]!.updatedAt, bookingRef: feed[5]!.bookingRef });
    expect(refs(second.bookings)).toEqual(refs(feed.slice(8)));
    expect(second.resumeAfter).toBeNull();
  });

  it('reads exactly a page when unfiltered and says where the next one starts', async () => {
    const page = await reads.feedPage(group.agentGroupId, { filter: { updatedSince: at(2) }, limit: 3 });

    expect(refs(page.bookings)).toEqual(refs(feed.slice(2, 5)));
    expect(page.resumeAfter).toEqual({ updatedAt: feed[4]!.updatedAt, bookingRef: feed[4]!.bookingRef });
  });

  it('finds bookings only under the group asked for, by either id', async () => {
    const mine = feed[0]!;

    const byIdsElsewhere = await reads.byBookingIds(other.agentGroupId, [mine.bookingId!]);
    const byExtElsewhere = await reads.byExternalIds(other.agentGroupId, [mine.externalBookingId]);
    const oneElsewhere = await reads.byBookingId(other.agentGroupId, mine.bookingId!);
    const byIds = await reads.byBookingIds(group.agentGroupId, [mine.bookingId!, uniqueId('PS')]);
    const byExt = await reads.byExternalIds(group.agentGroupId, [mine.externalBookingId, mine.externalBookingId]);

    expect([byIdsElsewhere, byExtElsewhere, oneElsewhere]).toEqual([[], [], undefined]);
    expect(refs(byIds)).toEqual([mine.bookingRef]);
    expect(refs(byExt)).toEqual([mine.bookingRef]);
  });

  it('reads a booking straight after it was written', async () => {
    const fresh = await seedNewBooking(group, { updatedAt: at(30) });

    const found = await reads.byBookingId(group.agentGroupId, fresh.bookingId!);

    expect(found).toEqual(fresh);
  });
});

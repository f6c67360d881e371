import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Booking } from '../../domain/bookings/booking.ts';
import type { Minor } from '../../domain/money.ts';
import { creditedSpans, paidOfSpan, type BookingSpans } from '../../domain/receivables/allocation.ts';
import type { BookingFeedPage, BookingFeedPosition, BookingFeedQuery, BookingFilter, BookingReads } from '../../domain/ports/booking-reads.ts';
import { getAll } from './batch-get.ts';
import { bookingOf } from './entities/booking.ts';
import { invoiceEntity } from './entities/invoice.ts';
import { keys, type Key } from './keys.ts';
import { GSI1 } from './table.ts';

/*
 * Access patterns of booking reads (docs/data-model.md):
 * | pattern                          | key condition                                                  | index |
 * |----------------------------------|----------------------------------------------------------------|-------|
 * | bookings by property-system id   | PK = GROUP#<g>, SK = BOOKINGID#<bookingId> → bookingRef        | table |
 * | bookings by externalBookingId    | PK = GROUP#<g>, SK = IDEMPOTENCY#BOOKING#<externalId> → ref    | table |
 * | booking by ref                   | PK = GROUP#<g>, SK = BOOKING#<bookingRef>                      | table |
 * | group's bookings by last change  | GSI1PK = GROUP#<g>#BOOKINGS, GSI1SK > <position> / ≥ <since>   | GSI1  |
 * Every key starts with the group, so no read here can reach another group's bookings.
 */

/**
 * A filtered feed read evaluates `readBatch` index entries per Query, and makes at most
 * `maxRounds` Queries per page: a filter that matches little costs a bounded read per
 * request (the page then comes back short with a cursor), never a walk of the whole feed.
 */
export interface FeedReadBudget {
  readonly readBatch: number;
  readonly maxRounds: number;
}

export const FEED_READ_BUDGET: FeedReadBudget = { readBatch: 100, maxRounds: 10 };

/** The filter as a FilterExpression; updatedSince is not here, it is part of the key condition. */
function filterExpression(f: BookingFilter): { expression?: string; names: Record<string, string>; values: Record<string, string> } {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  if (f.statuses?.length) {
    names['#status'] = 'status';
    f.statuses.forEach((s, i) => (values[`:status${i}`] = s));
    parts.push(`#status IN (${f.statuses.map((_, i) => `:status${i}`).join(', ')})`);
  }
  if (f.checkInFrom !== undefined) {
    values[':checkInFrom'] = f.checkInFrom;
    parts.push('checkIn >= :checkInFrom');
  }
  if (f.checkInTo !== undefined) {
    values[':checkInTo'] = f.checkInTo;
    parts.push('checkIn <= :checkInTo');
  }
  return { expression: parts.length ? parts.join(' AND ') : undefined, names, values };
}

/** Where the feed Query starts: just after the cursor position, or at updatedSince, whichever is later. */
function feedStart(agentGroupId: string, q: BookingFeedQuery): { condition: string; value?: string } {
  const position = q.after && keys.bookingFeedIndex(agentGroupId, q.after.updatedAt, q.after.bookingRef).GSI1SK;
  const since = q.filter.updatedSince;
  if (position !== undefined && (since === undefined || position >= since)) return { condition: 'GSI1SK > :start', value: position };
  // `<since>` sorts before every `<since>#<ref>`, so ≥ keeps bookings updated exactly at since.
  if (since !== undefined) return { condition: 'GSI1SK >= :start', value: since };
  return { condition: '' };
}

const positionOf = (b: Booking): BookingFeedPosition => ({ updatedAt: b.updatedAt, bookingRef: b.bookingRef });

export class DynamoBookingReads implements BookingReads {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly budget: FeedReadBudget = FEED_READ_BUDGET,
  ) {}

  async byBookingIds(agentGroupId: string, bookingIds: readonly string[]): Promise<Booking[]> {
    return this.viaPointers(
      agentGroupId,
      [...new Set(bookingIds)].map((id) => keys.bookingAlias(agentGroupId, id)),
    );
  }

  async byExternalIds(agentGroupId: string, externalBookingIds: readonly string[]): Promise<Booking[]> {
    return this.viaPointers(
      agentGroupId,
      [...new Set(externalBookingIds)].map((id) => keys.bookingClaim(agentGroupId, id)),
    );
  }

  async byBookingId(agentGroupId: string, bookingId: string): Promise<Booking | undefined> {
    // Consistent: a partner reads a booking straight after its callback or its POST reply.
    const alias = await this.db.send(
      new GetCommand({ TableName: this.table, Key: keys.bookingAlias(agentGroupId, bookingId), ProjectionExpression: 'bookingRef', ConsistentRead: true }),
    );
    const ref = alias.Item?.bookingRef as string | undefined;
    if (!ref) return undefined;
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.booking(agentGroupId, ref), ConsistentRead: true }));
    return out.Item ? bookingOf(out.Item) : undefined;
  }

  async feedPage(agentGroupId: string, q: BookingFeedQuery): Promise<BookingFeedPage> {
    const filter = filterExpression(q.filter);
    const start = feedStart(agentGroupId, q);
    const found: Booking[] = [];
    let startKey: Record<string, unknown> | undefined;
    for (let round = 0; round < this.budget.maxRounds; round += 1) {
      const remaining = q.limit - found.length;
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: GSI1,
          KeyConditionExpression: `GSI1PK = :pk${start.value === undefined ? '' : ` AND ${start.condition}`}`,
          ...(filter.expression ? { FilterExpression: filter.expression } : {}),
          ...(Object.keys(filter.names).length ? { ExpressionAttributeNames: filter.names } : {}),
          ExpressionAttributeValues: {
            ':pk': keys.bookingFeed(agentGroupId).GSI1PK,
            ...(start.value === undefined ? {} : { ':start': start.value }),
            ...filter.values,
          },
          ScanIndexForward: true,
          // Unfiltered, every entry read is a row, so read no more than the page needs.
          Limit: filter.expression ? Math.max(remaining, this.budget.readBatch) : remaining,
          ExclusiveStartKey: startKey,
        }),
      );
      const items = (out.Items ?? []).map(bookingOf);
      found.push(...items.slice(0, remaining));
      startKey = out.LastEvaluatedKey;
      if (found.length === q.limit) {
        const more = items.length > remaining || startKey !== undefined;
        return { bookings: found, resumeAfter: more ? positionOf(found.at(-1)!) : null };
      }
      if (!startKey) return { bookings: found, resumeAfter: null };
    }
    // Read budget spent with the page still short: resume where reading stopped, not at the last row.
    return { bookings: found, resumeAfter: keys.bookingFeedPositionOf(startKey!.GSI1SK as string) };
  }

  /** Pointer items (aliases or claims) carry the bookingRef; the bookings are read in a second BatchGet. */
  private async viaPointers(agentGroupId: string, pointerKeys: readonly Key[]): Promise<Booking[]> {
    if (pointerKeys.length === 0) return [];
    // Consistent: a poller asks straight after its POST returned PROCESSING or a callback arrived.
    const pointers = await getAll(this.db, this.table, pointerKeys, { projection: 'bookingRef', consistent: true });
    const refs = [...new Set(pointers.map((p) => p.bookingRef).filter((r): r is string => typeof r === 'string'))];
    if (refs.length === 0) return [];
    const items = await getAll(
      this.db,
      this.table,
      refs.map((ref) => keys.booking(agentGroupId, ref)),
      { consistent: true },
    );
    return items.map(bookingOf);
  }

  async paidOfBookings(agentGroupId: string, bookings: readonly { bookingRef: string; invoicedIn?: readonly string[] }[]): Promise<Map<string, Minor>> {
    const ids = [...new Set(bookings.flatMap((b) => b.invoicedIn ?? []))];
    const paid = new Map<string, Minor>();
    if (ids.length === 0) return paid;
    const items = await getAll(
      this.db,
      this.table,
      ids.map((id) => invoiceEntity.key(agentGroupId, id)),
    );
    const byId = new Map(items.map((i) => [i.id as string, i]));
    for (const b of bookings) {
      for (const id of b.invoicedIn ?? []) {
        const invoice = byId.get(id);
        const spans = invoice?.bookingSpans as BookingSpans | undefined;
        const span = spans && creditedSpans(spans, invoice!.creditedByBooking as Record<string, Minor> | undefined)[b.bookingRef];
        if (!invoice || !span) continue;
        paid.set(b.bookingRef, (paid.get(b.bookingRef) ?? 0) + paidOfSpan((invoice.amountPaid as Minor | undefined) ?? 0, span));
      }
    }
    return paid;
  }
}

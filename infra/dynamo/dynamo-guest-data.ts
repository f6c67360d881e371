import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import type { BookingAddress, GuestDataStore } from '../../domain/ports/guest-data.ts';
import { getAll } from './batch-get.ts';
import { bookingEntity, bookingOf, bookingPutAtVersion, secondIndexOf } from './entities/booking.ts';
import { isConditionFailure } from './client.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { keys } from './keys.ts';
import { oldestAcrossShards } from './query.ts';

/*
 * Access patterns of guest data (docs/personal-data.md, docs/data-model.md):
 * | pattern                                   | key condition                                                      | index |
 * |-------------------------------------------|--------------------------------------------------------------------|-------|
 * | bookings whose retention ran out          | GSI2PK = GUESTS#ERASABLE#<0..31> (each), GSI2SK < <endedOn>#~      | GSI2  |
 * | a booking by id, group unknown (operator) | BatchGet GROUP#<g>/BOOKINGID#<id> and GROUP#<g>/BOOKING#<id>, each group | table |
 * | backfill: index an old settled booking    | Update GROUP#<g>/BOOKING#<ref> if version = read and no GSI2PK     | table |
 * | the erasure's final write (and its event)  | Put GROUP#<g>/BOOKING#<ref> if version = read, with the audit items | table |
 */

export class DynamoGuestDataStore implements GuestDataStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit: DynamoAuditTrail,
  ) {}

  async listErasable(endedOnOrBefore: string, limit: number, agentGroupId?: string): Promise<BookingAddress[]> {
    // `#~` sorts after every `<date>#<group>#<ref>` of that date: the bound is inclusive of the date.
    const due = await oldestAcrossShards(this.db, {
      TableName: this.table,
      shards: keys.guestErasureShards(),
      below: `${endedOnOrBefore}#~`,
      limit,
      group: agentGroupId,
    });
    return due.map((item) => keys.guestErasurePositionOf(String(item.GSI2SK)));
  }

  async locate(bookingIdOrRef: string, agentGroupIds: readonly string[]): Promise<Booking | undefined> {
    const pointers = await getAll(
      this.db,
      this.table,
      agentGroupIds.flatMap((g) => [keys.bookingAlias(g, bookingIdOrRef), keys.booking(g, bookingIdOrRef)]),
      // An operator's look-up over every group: a few BatchGets at a time, never the whole set at once.
      { consistent: true, projection: 'PK, SK, bookingRef, agentGroupId', inFlight: 4 },
    );
    const hit = pointers[0] ?? (await this.byCode(bookingIdOrRef, agentGroupIds));
    if (!hit) return undefined;
    const agentGroupId = String(hit.PK).slice('GROUP#'.length);
    const found = await getAll(this.db, this.table, [keys.booking(agentGroupId, String(hit.bookingRef))], { consistent: true });
    return found[0] ? bookingOf(found[0]) : undefined;
  }

  /**
   * A booking code is `PB-` and the first 12 hex digits of the bookingRef (bookingCode), so the
   * booking is the group's one whose key begins with them: one Query per group, an operator's
   * look-up only.
   */
  private async byCode(code: string, agentGroupIds: readonly string[]): Promise<Record<string, unknown> | undefined> {
    const hex = /^PB-([0-9A-F]{12})$/i.exec(code.trim())?.[1]?.toLowerCase();
    if (!hex) return undefined;
    for (const g of agentGroupIds) {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.booking(g, '').PK, ':prefix': keys.booking(g, `${hex.slice(0, 8)}-${hex.slice(8)}`).SK },
          ProjectionExpression: 'PK, SK, bookingRef',
          ConsistentRead: true,
        }),
      );
      if (out.Items?.[0]) return out.Items[0];
    }
    return undefined;
  }

  /** The booking's write and the erasure's event in one transaction; false when the booking moved on (the caller re-reads). */
  async eraseBooking(previous: Booking, next: Booking, audit: AuditDraft): Promise<boolean> {
    try {
      await this.audit.transact([bookingPutAtVersion(this.table, previous, next)], audit);
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async indexErasable(b: Booking): Promise<boolean> {
    const index = secondIndexOf(b);
    if (!('GSI2PK' in index)) return false;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: bookingEntity.key(b.agentGroupId, b.bookingRef),
          UpdateExpression: 'SET GSI2PK = :pk, GSI2SK = :sk',
          ConditionExpression: `${bookingEntity.conditions.atVersion} AND ${bookingEntity.conditions.notOnSecondIndex}`,
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':pk': index.GSI2PK, ':sk': index.GSI2SK, ':version': b.version },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}

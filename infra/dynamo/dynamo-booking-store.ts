import { GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import type { LedgerEntry } from '../../domain/ledger/ledger.ts';
import type { BookingClaim, BookingEffect, BookingStore } from '../../domain/ports/booking-store.ts';
import type { Authorization, IdempotencyClaim } from '../../domain/ports/credit-ledger.ts';
import { bookingAliasEntity, bookingEntity, bookingItem, bookingOf, bookingPutAtVersion } from './entities/booking.ts';
import { cancellationReasons, isConditionFailure, isRefused } from './client.ts';
import { postingTransaction, recordPostedItems, releaseTransaction, type DynamoCreditLedger, type EntryRef } from './dynamo-credit-ledger.ts';
import { keys } from './keys.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { stayMoves } from '../../domain/bookings/amendment.ts';
import { unitMoveItems } from './unit-moves.ts';
import { oldestAcrossShards } from './query.ts';

/*
 * Access patterns of bookings (docs/data-model.md):
 * | pattern                         | key condition                                              | index |
 * |---------------------------------|------------------------------------------------------------|-------|
 * | booking by bookingRef           | PK = GROUP#<g>, SK = BOOKING#<ref>                         | table |
 * | booking by property-system id   | PK = GROUP#<g>, SK = BOOKINGID#<id> → bookingRef           | table |
 * | booking by externalBookingId    | PK = GROUP#<g>, SK = IDEMPOTENCY#BOOKING#<ext> → bookingRef | table |
 * | open workflow work, oldest due  | GSI2PK = BOOKINGS#OPEN#<0..31> (each), GSI2SK < <due>~     | GSI2  |
 */

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * The booking's charge as its status implies, without reading it: the gate writes a
 * PROCESSING booking with an AUTHORIZED charge, and every outcome moves both in one
 * transaction, so a PROCESSING booking's charge is AUTHORIZED and a FAILED one's RELEASED.
 * The entry's status condition in the transaction still checks it.
 */
const chargeOf = (b: Booking): EntryRef => ({
  agentGroupId: b.agentGroupId,
  id: b.ledgerEntryId,
  amount: b.amount,
  status: b.status === 'FAILED' ? 'RELEASED' : 'AUTHORIZED',
});

/** Effects re-read what they change; a racing change to those items (not to the booking) is retried this often. */
const MAX_ATTEMPTS = 10;

export class DynamoBookingStore implements BookingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly ledger: DynamoCreditLedger,
    private readonly audit: DynamoAuditTrail,
  ) {}

  /**
   * A new booking starts its own audit chain, so opening it reads nothing more than the gate did;
   * its landing in the same process (the synchronous wait) extends that chain without reading it either.
   */
  open(booking: Booking, entry: LedgerEntry, claim: IdempotencyClaim, audit: AuditDraft): Promise<Authorization> {
    return this.ledger.authorizeWith(entry, claim, [
      { Put: { TableName: this.table, Item: bookingItem(booking), ConditionExpression: bookingEntity.conditions.isNew } },
      ...this.audit.firstItems(audit),
    ]);
  }

  async get(agentGroupId: string, bookingRef: string): Promise<Booking | undefined> {
    const item = await this.getItem(keys.booking(agentGroupId, bookingRef));
    return item ? bookingOf(item) : undefined;
  }

  async findClaim(agentGroupId: string, externalBookingId: string): Promise<BookingClaim | undefined> {
    const item = await this.getItem(keys.bookingClaim(agentGroupId, externalBookingId));
    return item ? { contentHash: item.contentHash as string, bookingRef: item.bookingRef as string } : undefined;
  }

  async update(previous: Booking, next: Booking, effect?: BookingEffect, audit?: AuditDraft): Promise<boolean> {
    const bookingPut = bookingPutAtVersion(this.table, previous, next);
    if (!effect && !audit) {
      // The booking alone: a conditional Put, at half a transaction's write cost.
      try {
        await this.db.send(new PutCommand(bookingPut.Put));
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    }
    for (let attempt = 0; ; attempt++) {
      const items = [...(effect ? await this.effectItems(previous, effect, next.updatedAt) : []), ...(audit ? await this.audit.itemsAfterKnown(audit) : [])];
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: [bookingPut, ...items] }));
        return true;
      } catch (err) {
        if (!isRefused(err)) throw err;
        const reasons = cancellationReasons(err);
        // The booking itself moved on: the caller re-reads and decides again.
        if (reasons[0]?.Code === 'ConditionalCheckFailed' || (err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
        // Something the effect touches moved (a day's units under a racing sync), or the audit chain's head: re-read it and try again.
        if (attempt + 1 >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  async listDue(dueBefore: string, limit: number, agentGroupId?: string): Promise<Booking[]> {
    const due = await oldestAcrossShards(this.db, {
      TableName: this.table,
      shards: keys.openBookingShards(),
      below: `${dueBefore}~`,
      limit,
      group: agentGroupId,
    });
    return due.map(bookingOf);
  }

  /** The ledger or catalogue half of a step, built from the current state of what it changes. */
  private async effectItems(b: Booking, effect: BookingEffect, at: string): Promise<TransactItems> {
    switch (effect.kind) {
      case 'land': {
        const alias = {
          Put: {
            TableName: this.table,
            Item: { ...keys.bookingAlias(b.agentGroupId, effect.bookingId), entity: 'BookingAlias', bookingRef: b.bookingRef, bookingId: effect.bookingId },
            ConditionExpression: bookingAliasEntity.conditions.free,
            ExpressionAttributeValues: { ':ref': b.bookingRef },
          },
        };
        return [alias, ...postingTransaction(this.table, chargeOf(b), effect.bookingId, at).TransactItems!];
      }
      case 'release':
        return releaseTransaction(this.table, chargeOf(b), at).TransactItems!;
      case 'refund':
        return recordPostedItems(this.table, effect.entry, at);
      case 'inventory':
        return this.inventoryItems(b, effect.direction, at);
    }
  }

  /**
   * The booked units leave (or return to) the daily inventory through the one unit writer.
   * Taking never goes below zero: the property system confirmed the booking, so the units
   * are gone whatever our copy said.
   */
  private async inventoryItems(b: Booking, direction: 'take' | 'return', at: string): Promise<TransactItems> {
    const moved = await unitMoveItems(this.db, this.table, stayMoves(b, direction === 'take' ? -1 : 1), at, 'clamp');
    if (!moved.ok) throw new RangeError('a clamped unit move never oversells');
    return moved.items;
  }

  private async getItem(key: { PK: string; SK: string }): Promise<Record<string, unknown> | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    return out.Item;
  }
}

import { GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { isSettledStatus, type Amendment } from '../../domain/bookings/amendment.ts';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import type { LedgerEntry } from '../../domain/ledger/ledger.ts';
import type { AdjustOutcome, AmendmentLock, AmendmentStore, RowsOutcome, UnitMove } from '../../domain/ports/amendment-store.ts';
import { amendmentEntity, amendmentLockEntity } from './entities/amendment.ts';
import { bookingEntity, bookingPutAtVersion } from './entities/booking.ts';
import { cancellationReasons, isRefused } from './client.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import type { DynamoCreditLedger } from './dynamo-credit-ledger.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { oldestAcrossShards } from './query.ts';
import { unitMoveItems } from './unit-moves.ts';

/*
 * Access patterns of amendments (docs/data-model.md):
 * | pattern                          | key condition                                                  | index |
 * |----------------------------------|----------------------------------------------------------------|-------|
 * | amendment by id                  | PK = GROUP#<g>, SK = AMENDMENT#<bookingRef>#<amendmentId>      | table |
 * | a booking's amendments           | PK = GROUP#<g>, begins_with(SK, AMENDMENT#<bookingRef>#)       | table |
 * | the amendment in flight (lock)   | PK = GROUP#<g>, SK = AMENDING#<bookingRef>                     | table |
 * | open amendment work, oldest due  | GSI2PK = AMENDMENTS#OPEN#<0..31> (each), GSI2SK < <due>~       | GSI2  |
 */

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** Attempts of a rows write whose units moved under it (a sync, another booking); each re-reads them. */
const MAX_ATTEMPTS = 10;

export class DynamoAmendmentStore implements AmendmentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly ledger: DynamoCreditLedger,
    private readonly audit: DynamoAuditTrail,
  ) {}

  async begin(a: Amendment, bookingVersion: number, audit: AuditDraft): Promise<'created' | 'locked' | 'moved'> {
    // The request's audit event joins the transaction; a head moved by another change to the booking reads as 'moved' (re-quote).
    const auditItems = await this.audit.itemsFor(audit);
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: this.table, Item: amendmentEntity.toItem(a), ConditionExpression: amendmentEntity.conditions.isNew } },
            {
              Put: {
                TableName: this.table,
                Item: amendmentLockEntity.toItem(a),
                ConditionExpression: amendmentLockEntity.conditions.isNew,
              },
            },
            {
              ConditionCheck: {
                TableName: this.table,
                Key: bookingEntity.key(a.agentGroupId, a.bookingRef),
                ConditionExpression: bookingEntity.conditions.atVersion,
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':version': bookingVersion },
              },
            },
            ...auditItems,
          ],
        }),
      );
      return 'created';
    } catch (err) {
      if (!isRefused(err)) throw err;
      const reasons = cancellationReasons(err);
      return reasons[1]?.Code === 'ConditionalCheckFailed' ? 'locked' : 'moved';
    }
  }

  async get(agentGroupId: string, bookingRef: string, amendmentId: string): Promise<Amendment | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: amendmentEntity.key(agentGroupId, bookingRef, amendmentId), ConsistentRead: true }),
    );
    return out.Item ? amendmentEntity.fromItem(out.Item) : undefined;
  }

  async lockOf(agentGroupId: string, bookingRef: string): Promise<AmendmentLock | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: amendmentLockEntity.key(agentGroupId, bookingRef), ConsistentRead: true }));
    return out.Item ? amendmentLockEntity.fromItem(out.Item) : undefined;
  }

  async list(agentGroupId: string, bookingRef: string): Promise<Amendment[]> {
    const prefix = keys.amendmentsOf(agentGroupId, bookingRef);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': prefix.PK, ':prefix': prefix.SKPrefix },
      ConsistentRead: true,
    });
    return items.map(amendmentEntity.fromItem).sort((x, y) => (x.createdAt < y.createdAt ? -1 : x.createdAt > y.createdAt ? 1 : 0));
  }

  async save(previous: Amendment, next: Amendment): Promise<boolean> {
    const items = this.amendmentItems(previous, next);
    try {
      if (items.length === 1) await this.db.send(new PutCommand(items[0]!.Put!));
      else await this.db.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (err) {
      if (isRefused(err)) return false;
      throw err;
    }
  }

  async rewrite(
    previous: Amendment,
    next: Amendment,
    booking: Booking,
    nextBooking: Booking,
    moves: readonly UnitMove[],
    refuseOverdraft: boolean,
  ): Promise<RowsOutcome> {
    const own = [...this.amendmentItems(previous, next), this.bookingPut(booking, nextBooking)];
    for (let attempt = 0; ; attempt++) {
      const units = await unitMoveItems(this.db, this.table, moves, next.updatedAt, refuseOverdraft ? 'refuse' : 'clamp');
      if (!units.ok) return 'oversold';
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: [...own, ...units.items] }));
        return 'done';
      } catch (err) {
        if (!isRefused(err)) throw err;
        const reasons = cancellationReasons(err);
        if (reasons.slice(0, own.length).some((r) => r.Code === 'ConditionalCheckFailed')) return 'moved';
        // A night's units moved under us: read them again.
        if (attempt + 1 >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  async adjust(previous: Amendment, next: Amendment, booking: Booking, nextBooking: Booking, entry: LedgerEntry | null): Promise<AdjustOutcome> {
    const own = [...this.amendmentItems(previous, next), this.bookingPut(booking, nextBooking)];
    if (entry) return this.ledger.postWith(entry, own).then((r) => (r.kind === 'refused' ? r : { kind: r.kind === 'posted' ? 'done' : 'moved' }));
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: own }));
      return { kind: 'done' };
    } catch (err) {
      if (isRefused(err)) return { kind: 'moved' };
      throw err;
    }
  }

  async listDue(dueBefore: string, limit: number, agentGroupId?: string): Promise<Amendment[]> {
    const due = await oldestAcrossShards(this.db, {
      TableName: this.table,
      shards: keys.openAmendmentShards(),
      below: `${dueBefore}~`,
      limit,
      group: agentGroupId,
    });
    return due.map(amendmentEntity.fromItem);
  }

  /** The amendment's conditional Put, and when it settles, the release of the booking's lock it holds. */
  private amendmentItems(previous: Amendment, next: Amendment): TransactItems {
    if (next.version !== previous.version + 1)
      throw new RangeError(`amendment ${previous.amendmentId}: version ${previous.version} can only become ${previous.version + 1}`);
    const put = {
      Put: {
        TableName: this.table,
        Item: amendmentEntity.toItem(next),
        ConditionExpression: amendmentEntity.conditions.atVersion,
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': previous.version },
      },
    };
    if (isSettledStatus(previous.status) || !isSettledStatus(next.status)) return [put];
    return [
      put,
      {
        Delete: {
          TableName: this.table,
          Key: amendmentLockEntity.key(next.agentGroupId, next.bookingRef),
          ConditionExpression: amendmentLockEntity.conditions.heldBy,
          ExpressionAttributeValues: { ':id': next.amendmentId },
        },
      },
    ];
  }

  private bookingPut(previous: Booking, next: Booking) {
    return bookingPutAtVersion(this.table, previous, next);
  }
}

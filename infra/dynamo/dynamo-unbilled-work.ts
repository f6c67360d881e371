import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { LedgerEntry } from '../../domain/ledger/ledger.ts';
import type { PendingBooking, UnbilledWork } from '../../domain/ports/unbilled-work.ts';
import { getAll } from './batch-get.ts';
import { limiter } from './in-parallel.ts';
import { unbilledEntity } from './entities/unbilled.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { transactEach } from './transact-each.ts';

/*
 * Access patterns of the unbilled index (docs/data-model.md):
 * | pattern                                | key condition                                          | index |
 * |----------------------------------------|--------------------------------------------------------|-------|
 * | a group's bookings with unbilled work  | PK = GROUP#<g>, begins_with(SK, UNBILLED#)             | table |
 * | the POSTED entries of a booking        | PK = GROUP#<g>, SK = BOOKENTRIES#<bookingId>, then the entries | table |
 * | is the group's index complete          | PK = GROUP#<g>, SK = UNBILLED_INDEX                    | table |
 */

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** The entry types whose POSTED amounts a booking owes (billing-engine.ts netCharged). */
const BILLED_TYPES = new Set(['CHARGE', 'ADJUSTMENT', 'REFUND']);

/** A posting of one entry of one booking, as the index records it. */
export interface Posting {
  readonly bookingId: string;
  readonly entryId: string;
}

/** The postings of these entries: those a run bills from (POSTED charge, adjustment or refund of a booking). */
export const postingsOf = (entries: readonly Pick<LedgerEntry, 'id' | 'type' | 'bookingId'>[]): Posting[] =>
  entries.flatMap((e) => (e.bookingId && BILLED_TYPES.has(e.type) ? [{ bookingId: e.bookingId, entryId: e.id }] : []));

/**
 * The writes that enter postings in the index, for the posting's own transaction: per booking
 * (a transaction touches an item once), its entry ids added and its pending item put with the
 * version moved on, so a run that read it before cannot take it out.
 */
export function unbilledItems(table: string, agentGroupId: string, postings: readonly Posting[], at: string): TransactItems {
  const byBooking = new Map<string, string[]>();
  for (const p of postings) byBooking.set(p.bookingId, [...(byBooking.get(p.bookingId) ?? []), p.entryId]);
  return [...byBooking].flatMap(
    ([bookingId, entryIds]): TransactItems => [
      {
        Update: {
          TableName: table,
          Key: keys.bookingEntries(agentGroupId, bookingId),
          UpdateExpression: 'ADD entryIds :ids SET entity = :entity, bookingId = :b',
          ExpressionAttributeValues: { ':ids': new Set(entryIds), ':entity': 'BookingEntries', ':b': bookingId },
        },
      },
      pendingItem(table, agentGroupId, bookingId, at),
    ],
  );
}

const pendingItem = (table: string, agentGroupId: string, bookingId: string, at: string) => ({
  Update: {
    TableName: table,
    Key: keys.unbilled(agentGroupId, bookingId),
    UpdateExpression: 'ADD #version :one SET entity = :entity, bookingId = :b, updatedAt = :at',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: { ':one': 1, ':entity': 'Unbilled', ':b': bookingId, ':at': at },
  },
});

/** Re-enters bookings whose invoiced lines were given back (an abandoned DRAFT), beside the lines' own deletion. */
export const unbilledAgainItems = (table: string, agentGroupId: string, bookingIds: readonly string[], at: string): TransactItems =>
  [...new Set(bookingIds)].map((b) => pendingItem(table, agentGroupId, b, at));

/** Writes of a backfill in flight at once: its own pace, so a migration never crowds out the service's traffic. */
const BACKFILL_WRITES = 8;
/** Transactions of a run's settled bookings in flight at once (each on its own index items, so they never conflict). */
const SETTLE_TRANSACTIONS_IN_FLIGHT = 8;

export class DynamoUnbilledWork implements UnbilledWork {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly entries: (agentGroupId: string, entryIds: readonly string[]) => Promise<LedgerEntry[]>,
  ) {}

  async pending(agentGroupId: string, bookingIds?: readonly string[]): Promise<{ readonly complete: boolean; readonly bookings: readonly PendingBooking[] }> {
    const [complete, bookings] = await Promise.all([this.isComplete(agentGroupId), this.pendingBookings(agentGroupId, bookingIds)]);
    return { complete, bookings };
  }

  private async pendingBookings(agentGroupId: string, bookingIds?: readonly string[]): Promise<PendingBooking[]> {
    if (bookingIds) {
      const items = await getAll(
        this.db,
        this.table,
        [...new Set(bookingIds)].map((b) => keys.unbilled(agentGroupId, b)),
        { consistent: true },
      );
      return items.map(pendingOf);
    }
    const k = keys.unbilledOfGroup(agentGroupId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': k.PK, ':prefix': k.SKPrefix },
      ProjectionExpression: 'bookingId, #version',
      ExpressionAttributeNames: { '#version': 'version' },
      ConsistentRead: true,
    });
    return items.map(pendingOf);
  }

  async entriesOf(agentGroupId: string, bookingIds: readonly string[]): Promise<LedgerEntry[]> {
    const lists = await getAll(
      this.db,
      this.table,
      [...new Set(bookingIds)].map((b) => keys.bookingEntries(agentGroupId, b)),
      { consistent: true, projection: 'entryIds' },
    );
    const ids = lists.flatMap((l) => [...((l.entryIds as Set<string> | undefined) ?? [])]);
    const entries = await this.entries(agentGroupId, ids);
    return entries
      .filter((e) => e.status === 'POSTED' && e.bookingId !== null && BILLED_TYPES.has(e.type))
      .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.id.localeCompare(b.id));
  }

  async settle(agentGroupId: string, done: readonly PendingBooking[]): Promise<void> {
    const deletes = done.map((p) => ({
      Delete: {
        TableName: this.table,
        Key: keys.unbilled(agentGroupId, p.bookingId),
        ConditionExpression: unbilledEntity.conditions.versionAt,
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':v': p.version },
      },
    }));
    // 100 to a transaction, each delete refused or applied by its own condition alone.
    await transactEach(this.db, deletes, SETTLE_TRANSACTIONS_IN_FLIGHT);
  }

  async backfill(agentGroupId: string, entries: readonly LedgerEntry[], pending: readonly string[]): Promise<void> {
    const at = new Date().toISOString();
    const postings = postingsOf(entries.filter((e) => e.status === 'POSTED'));
    const byBooking = new Map<string, Posting[]>();
    for (const p of postings) byBooking.set(p.bookingId, [...(byBooking.get(p.bookingId) ?? []), p]);
    const gate = limiter(BACKFILL_WRITES);
    // Entry ids are a set: adding them again changes nothing, so a backfill that died is run again from the start.
    await Promise.all(
      [...byBooking.values()].map((list) => gate(() => this.db.send(new UpdateCommand(unbilledItems(this.table, agentGroupId, list, at)[0]!.Update!)))),
    );
    await Promise.all(pending.map((b) => gate(() => this.db.send(new UpdateCommand(pendingItem(this.table, agentGroupId, b, at).Update)))));
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...keys.unbilledIndex(agentGroupId), entity: 'UnbilledIndex', complete: true, completedAt: at } }),
    );
  }

  async isComplete(agentGroupId: string): Promise<boolean> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.unbilledIndex(agentGroupId), ConsistentRead: true }));
    return out.Item?.complete === true;
  }
}

const pendingOf = (i: Record<string, unknown>): PendingBooking => ({ bookingId: i.bookingId as string, version: (i.version as number | undefined) ?? 0 });

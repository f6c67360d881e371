import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { openFiguresOf, type OpenFigures } from '../../domain/invoicing/invoice.ts';
import type { Minor } from '../../domain/money.ts';
import type { ReceivableFigures } from '../../domain/ports/owing-figures.ts';
import { isRefused, writeIf } from './client.ts';
import { duesEntity } from './entities/dues.ts';
import { invoiceEntity } from './entities/invoice.ts';
import { keys } from './keys.ts';

/*
 * What a group owes across its invoices, kept so that GET /v1/invoices reads it in two calls
 * whatever the number of invoices (docs/data-model.md, "Dues"):
 * - the DUES item: `outstanding` (Σ amountDue) and `openCount` of the invoices still owing,
 *   moved by ADD in the same transaction as every write that moves an invoice's amountDue
 *   (issue, payment allocation, credit note);
 * - a DUE#<dueDate>#<id> marker per invoice still owing, put and deleted in those same
 *   transactions: the first by key is the oldest due date.
 * An invoice counts once it is `dueTracked` (set when it is issued, or by the backfill for
 * invoices issued before the figures existed). Writers move the figures only for a tracked
 * invoice and make the invoice's own condition say which it was, so a backfill tracking it
 * meanwhile cancels them and they re-read. `complete` on the DUES item says every invoice
 * still owing is tracked; until then the read falls back to reading every invoice.
 */

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** One invoice's amountDue moving from `before` to `after` (each ≥ 0). */
export interface DueMove {
  readonly invoiceId: string;
  readonly dueDate: string;
  readonly before: Minor;
  readonly after: Minor;
}

/** The invoice's condition fragment that pins whether it is tracked as it was read. */
export const trackedAs = (tracked: boolean): string => (tracked ? invoiceEntity.conditions.dueTracked : invoiceEntity.conditions.dueUntracked);

/**
 * The writes that move the group's figures for some invoices' moves: one ADD to the DUES item
 * (a transaction may touch an item once, so the moves are summed) and a marker put or deleted
 * for each invoice that starts or stops owing. None when nothing moves.
 */
export function dueItems(table: string, agentGroupId: string, moves: readonly DueMove[], at: string): TransactItems {
  const owing = (m: Minor) => (m > 0 ? 1 : 0);
  const outstanding = moves.reduce((s, m) => s + Math.max(0, m.after) - Math.max(0, m.before), 0);
  const count = moves.reduce((s, m) => s + owing(m.after) - owing(m.before), 0);
  if (outstanding === 0 && count === 0) return [];
  const markers: TransactItems = moves.flatMap((m): TransactItems => {
    const key = keys.dueMarker(agentGroupId, m.dueDate, m.invoiceId);
    if (owing(m.before) === owing(m.after)) return [];
    return m.after > 0
      ? [{ Put: { TableName: table, Item: { ...key, entity: 'DueMarker', agentGroupId, invoiceId: m.invoiceId, dueDate: m.dueDate } } }]
      : [{ Delete: { TableName: table, Key: key } }];
  });
  return [
    {
      Update: {
        TableName: table,
        Key: keys.dues(agentGroupId),
        UpdateExpression: 'ADD outstanding :o, openCount :n SET entity = :entity, updatedAt = :at',
        ExpressionAttributeValues: { ':o': outstanding, ':n': count, ':entity': 'Dues', ':at': at },
      },
    },
    ...markers,
  ];
}

/**
 * The group's open figures: from the DUES item and the first marker when the figures are
 * complete, otherwise from every listed invoice (`all`, today's read) — and when that read
 * finds every invoice still owing tracked, the figures are marked complete so the next read
 * is two calls. Safe to mark: invoices are issued tracked, and nothing untracks one.
 */
/** The kept figures, or undefined while they are not complete. */
export async function keptOpenFigures(db: DynamoDBDocumentClient, table: string, agentGroupId: string): Promise<OpenFigures | undefined> {
  const m = keys.dueMarkers(agentGroupId);
  const [dues, first] = await Promise.all([
    db.send(new GetCommand({ TableName: table, Key: keys.dues(agentGroupId), ConsistentRead: true })),
    db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': m.PK, ':prefix': m.SKPrefix },
        ConsistentRead: true,
        Limit: 1,
      }),
    ),
  ]);
  if (dues.Item?.complete !== true) return undefined;
  const openCount = (dues.Item.openCount as number | undefined) ?? 0;
  return {
    outstanding: (dues.Item.outstanding as Minor | undefined) ?? 0,
    openCount,
    oldestDueDate: openCount > 0 ? ((first.Items?.[0]?.dueDate as string | undefined) ?? null) : null,
  };
}

export async function readOpenFigures(
  db: DynamoDBDocumentClient,
  table: string,
  agentGroupId: string,
  all: () => Promise<TrackedFigures[]>,
): Promise<OpenFigures> {
  const kept = await keptOpenFigures(db, table, agentGroupId);
  if (kept) return kept;
  const figures = await all();
  if (!figures.some(owingUntracked)) await markComplete(db, table, agentGroupId);
  return openFiguresOf(figures);
}

/** A listed invoice's figures and whether the kept figures count it. */
export type TrackedFigures = ReceivableFigures & { readonly tracked: boolean };

const owingUntracked = (f: TrackedFigures): boolean => !f.tracked && !f.creditNoteFor && f.total - f.amountPaid - f.creditedAmount > 0;

/**
 * The backfill of the kept figures: each invoice still owing that they do not count yet is
 * counted, in one transaction with the invoice pinned at the figures read (a payment or credit
 * racing it cancels it, and it is read again); then the figures are marked complete.
 * Idempotent: a counted invoice is never counted again.
 */
export async function trackOwing(db: DynamoDBDocumentClient, table: string, agentGroupId: string, all: () => Promise<TrackedFigures[]>): Promise<number> {
  let tracked = 0;
  for (let attempt = 0; attempt < 10; attempt++) {
    const untracked = (await all()).filter(owingUntracked);
    if (untracked.length === 0) {
      await markComplete(db, table, agentGroupId);
      return tracked;
    }
    for (const f of untracked) {
      const at = new Date().toISOString();
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: table,
                  Key: invoiceEntity.key(agentGroupId, f.id),
                  UpdateExpression: 'SET dueTracked = :true',
                  ConditionExpression: invoiceEntity.conditions.untrackedAsCounted,
                  ExpressionAttributeNames: { '#total': 'total' },
                  ExpressionAttributeValues: { ':true': true, ':total': f.total, ':paid': f.amountPaid, ':credited': f.creditedAmount, ':zero': 0 },
                },
              },
              ...dueItems(table, agentGroupId, [{ invoiceId: f.id, dueDate: f.dueDate, before: 0, after: f.total - f.amountPaid - f.creditedAmount }], at),
            ],
          }),
        );
        tracked += 1;
      } catch (err) {
        if (!isRefused(err)) throw err;
      }
    }
  }
  throw new Error(`the open invoices of ${agentGroupId} kept moving while they were being counted; run the backfill again`);
}

async function markComplete(db: DynamoDBDocumentClient, table: string, agentGroupId: string): Promise<void> {
  const exists = (await db.send(new GetCommand({ TableName: table, Key: keys.dues(agentGroupId), ConsistentRead: true }))).Item !== undefined;
  // Absent: nothing tracked has ever owed, so the figures are zero. A write racing this one
  // creates the item first and this put is refused; the next read marks it.
  await writeIf(
    db,
    exists
      ? new UpdateCommand({
          TableName: table,
          Key: keys.dues(agentGroupId),
          UpdateExpression: 'SET complete = :true',
          ConditionExpression: duesEntity.conditions.exists,
          ExpressionAttributeValues: { ':true': true },
        })
      : new PutCommand({
          TableName: table,
          Item: { ...keys.dues(agentGroupId), entity: 'Dues', outstanding: 0, openCount: 0, complete: true, updatedAt: new Date().toISOString() },
          ConditionExpression: duesEntity.conditions.isNew,
        }),
  );
}

/**
 * The transaction item that moves a group's unallocated credit by `amount` (signed paise).
 * The version moves too, so a settlement that read the account before this commit re-reads it.
 */
export function unallocatedItem(table: string, agentGroupId: string, amount: Minor, at: string): TransactItems[number] {
  return {
    Update: {
      TableName: table,
      Key: keys.receivablesAccount(agentGroupId),
      UpdateExpression: 'ADD unallocated :amount, #version :one SET entity = :entity, updatedAt = :at',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':amount': amount, ':one': 1, ':entity': 'ReceivablesAccount', ':at': at },
    },
  };
}

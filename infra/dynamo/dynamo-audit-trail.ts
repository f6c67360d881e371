import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { chainEvent, type AuditDraft, type AuditEvent, type ChainHead } from '../../domain/audit/audit-event.ts';
import type { HeadRow } from '../../domain/audit/digest.ts';
import type { Sha256Hex } from '../../domain/ledger/request-hash.ts';
import type { AuditPage, AuditPosition, AuditRecorder, AuditTrail } from '../../domain/ports/audit-trail.ts';
import { isConditionFailure, isTransactionContention, refusedItems } from './client.ts';
import { auditChainEntity, auditEventEntity } from './entities/audit.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI1, GSI2 } from './table.ts';

/*
 * Access patterns of the audit trail (docs/audit.md, docs/data-model.md):
 * | pattern                          | key condition                                               | index |
 * |----------------------------------|-------------------------------------------------------------|-------|
 * | a target's chain, in order       | PK = AUDIT#<target>, begins_with(SK, EVENT#)                | table |
 * | a chain's head                   | PK = AUDIT#<target>, SK = HEAD                              | table |
 * | an account's events, oldest first| GSI1PK = AUDIT#ACCOUNT#<account>, GSI1SK = <at>#<id>        | GSI1  |
 * | a day's events (list, export)    | GSI2PK = AUDIT#DAY#<yyyy-mm-dd>#<0..7> (each), GSI2SK <at>#<id> | GSI2 |
 * | every chain (verify)             | GSI2PK = AUDIT#CHAINS#<0..31> (each)                        | GSI2  |
 */

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** Attempts when only the chain head moved under us (another change to the same target). */
const MAX_ATTEMPTS = 20;

/** Chains this process started and has not extended since: bounded, oldest forgotten first. */
const MAX_KNOWN_HEADS = 10_000;

export const auditEventItem = (e: AuditEvent) => ({
  ...keys.auditEvent(e.target, e.seq),
  ...(e.account ? keys.auditAccountIndex(e.account, e.at, e.id) : {}),
  ...keys.auditDayIndex(e.at, e.id),
  entity: 'AuditEvent',
  ...e,
});

export const auditEventOf = (item: Record<string, unknown>): AuditEvent => ({
  id: item.id as string,
  at: item.at as string,
  actor: item.actor as string,
  actorKind: item.actorKind as AuditEvent['actorKind'],
  action: item.action as string,
  target: item.target as string,
  account: (item.account as string | null | undefined) ?? null,
  before: (item.before as AuditEvent['before']) ?? null,
  after: (item.after as AuditEvent['after']) ?? null,
  requestId: item.requestId as string,
  stage: item.stage as string,
  seq: item.seq as number,
  prevHash: item.prevHash as string,
  hash: item.hash as string,
});

/**
 * The event's two writes: the event itself and its chain's head, moved only from the position
 * before it. Stores that read cancellation reasons by position put these last.
 */
export function auditItems(table: string, event: AuditEvent): TransactItems {
  return [
    { Put: { TableName: table, Item: auditEventItem(event), ConditionExpression: auditEventEntity.conditions.isNew } },
    {
      Put: {
        TableName: table,
        Item: {
          ...keys.auditHead(event.target),
          ...keys.auditChainIndex(event.target),
          entity: 'AuditChain',
          target: event.target,
          seq: event.seq,
          hash: event.hash,
          at: event.at,
        },
        ...(event.seq === 1
          ? { ConditionExpression: auditChainEntity.conditions.isNew }
          : {
              ConditionExpression: auditChainEntity.conditions.headIs,
              ExpressionAttributeNames: { '#hash': 'hash' },
              ExpressionAttributeValues: { ':seq': event.seq - 1, ':hash': event.prevHash },
            }),
      },
    },
  ];
}

/**
 * The trail's writer and reader. Writers never send an event alone: `itemsFor` gives the
 * items another store adds to the transaction of the change, and `transact` sends a change
 * with its event, retrying only when the chain's head moved under it.
 */
export class DynamoAuditTrail implements AuditTrail, AuditRecorder {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly stage: string,
    private readonly sha256: Sha256Hex,
  ) {}

  /**
   * The head each chain this process started would have once its first event commits: a new
   * booking's landing follows its creation in the same process within the synchronous wait, and
   * writes its event after this head without reading it. A guess, used once: the head's
   * condition (position and hash) refuses it when the first event did not commit or another
   * change came between, and the writer's retry reads the head.
   */
  private readonly knownHeads = new Map<string, ChainHead>();

  /** The first event of a new target's chain (a booking just created): no read needed. */
  firstItems(draft: AuditDraft): TransactItems {
    const event = chainEvent(draft, this.stage, null, this.sha256);
    if (this.knownHeads.size >= MAX_KNOWN_HEADS) this.knownHeads.delete(this.knownHeads.keys().next().value!);
    this.knownHeads.set(draft.target, { seq: event.seq, hash: event.hash });
    return auditItems(this.table, event);
  }

  /** The event placed after the chain's current head. */
  async itemsFor(draft: AuditDraft): Promise<TransactItems> {
    return auditItems(this.table, chainEvent(draft, this.stage, await this.head(draft.target), this.sha256));
  }

  /**
   * As `itemsFor`, after the head this process's first event of the chain left, without reading
   * it (once; later calls read). Only for writers that retry when the head's condition refuses
   * their transaction (the booking store's steps): a wrong guess costs that writer one attempt.
   */
  async itemsAfterKnown(draft: AuditDraft): Promise<TransactItems> {
    const known = this.knownHeads.get(draft.target);
    if (!known) return this.itemsFor(draft);
    this.knownHeads.delete(draft.target);
    return auditItems(this.table, chainEvent(draft, this.stage, known, this.sha256));
  }

  /**
   * Sends `change` with the draft's event as one transaction. A refusal of the change
   * itself is thrown untouched (the caller's conditions are theirs to read); a head that
   * moved is re-read and the transaction sent again.
   */
  async transact(change: TransactItems, draft: AuditDraft): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const items = [...change, ...(await this.itemsFor(draft))];
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return;
      } catch (err) {
        if (!(isHeadMoved(err, change.length) || isTransactionContention(err)) || attempt + 1 >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  async record(draft: AuditDraft): Promise<void> {
    await this.transact([], draft);
  }

  async head(target: string): Promise<ChainHead | null> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.auditHead(target), ConsistentRead: true }));
    return out.Item ? { seq: out.Item.seq as number, hash: out.Item.hash as string } : null;
  }

  async listAccount(account: string, page: { limit: number; after?: AuditPosition; from?: string; to?: string }): Promise<AuditPage> {
    // A key condition cannot compare with an empty string; every instant sorts after '0'.
    const lower = page.after ? `${page.after.at}#${page.after.id}` : (page.from ?? '0');
    // Without `to`, '~' sorts after every instant, so no lower bound can pass it (a fixed
    // year once did: from=9999-12-31T… sorted after '9999#~' and the query was refused).
    const upper = page.to === undefined ? '~' : `${page.to}#~`;
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI1,
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :lower AND :upper',
        ExpressionAttributeValues: { ':pk': keys.auditAccount(account).GSI1PK, ':lower': lower, ':upper': upper },
        Limit: page.limit + 1,
      }),
    );
    // BETWEEN is inclusive: the position a page ended on is not repeated on the next.
    const items = (out.Items ?? []).filter((i) => !page.after || i.GSI1SK !== `${page.after.at}#${page.after.id}`).map(auditEventOf);
    const events = items.slice(0, page.limit);
    const more = items.length > page.limit || (out.LastEvaluatedKey !== undefined && events.length === page.limit);
    const last = events.at(-1);
    return { events, next: more && last ? { at: last.at, id: last.id } : null };
  }

  async listTarget(target: string): Promise<AuditEvent[]> {
    return (await this.readChain(target)).events;
  }

  async listWindow(from: string, to: string): Promise<AuditEvent[]> {
    const events: AuditEvent[] = [];
    for (const day of daysBetween(from, to)) {
      const perShard = await Promise.all(
        keys.auditDayShards(day).map((shard) =>
          queryAll(this.db, {
            TableName: this.table,
            IndexName: GSI2,
            KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK BETWEEN :from AND :to',
            ExpressionAttributeValues: { ':pk': shard, ':from': from, ':to': `${to}#~` },
          }),
        ),
      );
      events.push(...perShard.flat().map(auditEventOf));
    }
    return events.sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? -1 : 1));
  }

  async chainTargets(): Promise<string[]> {
    return (await this.headIndex('#target', { '#target': 'target' })).map((i) => i.target as string).sort();
  }

  /** Every chain's head (the digest job): position, hash and the instant of its last event. */
  async chainHeads(): Promise<HeadRow[]> {
    const items = await this.headIndex('#target, seq, #hash, #at', { '#target': 'target', '#hash': 'hash', '#at': 'at' });
    return items.map((i) => ({ target: i.target as string, seq: i.seq as number, hash: i.hash as string, at: i.at as string }));
  }

  private async headIndex(projection: string, names: Record<string, string>): Promise<Record<string, unknown>[]> {
    const perShard = await Promise.all(
      keys.auditChainShards().map((shard) =>
        queryAll(this.db, {
          TableName: this.table,
          IndexName: GSI2,
          KeyConditionExpression: 'GSI2PK = :pk',
          ExpressionAttributeValues: { ':pk': shard },
          ProjectionExpression: projection,
          ExpressionAttributeNames: names,
        }),
      ),
    );
    return perShard.flat();
  }

  async readChain(target: string): Promise<{ events: AuditEvent[]; head: ChainHead | null }> {
    const { PK, SKPrefix } = keys.auditEventsOf(target);
    // The head first, then the events: an event appended between the two reads is past the
    // head read; when a second look at the head covers it, it is left for the next verify
    // rather than mistaken for a break. Events past a head that did not move stay in.
    const head = await this.head(target);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      ConsistentRead: true,
    });
    const events = items.map(auditEventOf);
    const last = events.at(-1);
    if (head && last && last.seq > head.seq) {
      const again = await this.head(target);
      if (again && again.seq >= last.seq) return { events: events.filter((e) => e.seq <= head.seq), head };
    }
    return { events, head };
  }
}

/** The head's condition failed (it is the last item of the transaction): another change to the target came first. */
export function isHeadMoved(err: unknown, changeItems: number): boolean {
  if (!isConditionFailure(err)) return false;
  // Only the trail's own items refused: the head, and the event's position when a racing writer took it first.
  const refused = refusedItems(err);
  return refused.length > 0 && refused.every((i) => i >= changeItems);
}

/** Every UTC day touched by [from, to], as yyyy-mm-dd. */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(from.slice(0, 10)); t <= Date.parse(to.slice(0, 10)); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

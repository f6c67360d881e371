import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { IdempotencyConflictError, CreditDeniedError, LedgerTransitionError } from '../../domain/ledger/credit-errors.ts';
import {
  assertRecordable,
  creditPosition,
  creditTermsOf,
  decideCredit,
  type CreditDecision,
  type CreditPosition,
  type CreditTerms,
  type LedgerEntry,
} from '../../domain/ledger/ledger.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Minor } from '../../domain/money.ts';
import type { Authorization, CreditLedger, IdempotencyClaim, LedgerAudit, LedgerPage, LedgerPosition, LedgerQuery } from '../../domain/ports/credit-ledger.ts';
import { contentionBackoff, isRefused, isTransactionContention, refusedItems } from './client.ts';
import { itemOf, putNew, type TransactItems } from './items.ts';
import { getAll } from './batch-get.ts';
import { creditCounterEntity, creditTermsConditions, ledgerEntryConditions } from './entities/credit.ts';
import { agentGroupEntity } from './entities/tenants.ts';
import { keys, type Key } from './keys.ts';
import { queryAll } from './query.ts';
import { postingsOf, unbilledItems } from './dynamo-unbilled-work.ts';
import { GSI1 } from './table.ts';

/*
 * Access patterns of the ledger (docs/data-model.md):
 * | pattern                         | key condition                                            | index |
 * |---------------------------------|----------------------------------------------------------|-------|
 * | entry by id (post, release)     | PK = GROUP#<g>, SK = LEDGER#<entryId>                    | table |
 * | group's ledger, newest first    | GSI1PK = GROUP#<g>#LEDGER, GSI1SK = <occurredAt>#<id>    | GSI1  |
 * | occurred-at window (+ filters)  | GSI1PK = GROUP#<g>#LEDGER, GSI1SK BETWEEN <from> AND <to>#~ | GSI1  |
 * | every entry (audit)             | PK = GROUP#<g>, begins_with(SK, LEDGER#)                 | table |
 * | exposure counter                | PK = GROUP#<g>, SK = CREDIT                              | table |
 * | idempotency claim               | PK = GROUP#<g>, SK = IDEMPOTENCY#BOOKING#<externalId>    | table |
 * Every posting of a booking's entry also enters it in the unbilled index (dynamo-unbilled-work.ts) in the same transaction.
 */

/**
 * Evaluated items per round of a filtered ledger page: a filter discards what it does not
 * match after the read, so a round sized to the page alone could take many round trips to
 * fill a page of sparse matches.
 */
const FILTERED_ROUND = 100;

/** Attempts before a gate gives up under contention; each retry re-reads, so it never admits on stale figures. */
const MAX_ATTEMPTS = 40;

/** A ledger entry as a table item (the bench seeds POSTED charges with it). */
export const entryItem = (e: LedgerEntry) =>
  itemOf('LedgerEntry', { ...keys.ledgerEntry(e.agentGroupId, e.id), ...keys.ledgerTimelineIndex(e.agentGroupId, e.occurredAt, e.id) }, e);

/** A new entry's write. Entry ids are random UUIDs; its guard only turns an impossible collision into a refusal instead of an overwrite. */
const newEntry = (table: string, e: LedgerEntry, postedAt?: string) => putNew(table, postedAt === undefined ? entryItem(e) : { ...entryItem(e), postedAt });

export const entryOf = (item: Record<string, unknown>): LedgerEntry => ({
  id: item.id as string,
  agentGroupId: item.agentGroupId as string,
  type: item.type as LedgerEntry['type'],
  status: item.status as LedgerEntry['status'],
  amount: item.amount as Minor,
  currency: 'INR',
  bookingId: (item.bookingId as string | null | undefined) ?? null,
  externalBookingId: (item.externalBookingId as string | null | undefined) ?? null,
  description: item.description as string,
  occurredAt: item.occurredAt as string,
});

interface ClaimRecord {
  readonly contentHash: string;
  readonly entryId: string;
  readonly bookingRef: string;
}

const backoff = (attempt: number) => contentionBackoff(attempt, 200);

/** The gate's one transaction: entry, claim, exposure and a check of the terms decided on. */
export function authorizeTransaction(table: string, entry: LedgerEntry, claim: IdempotencyClaim, terms: CreditTerms, at: string): TransactWriteCommandInput {
  return {
    TransactItems: [
      newEntry(table, entry),
      // First writer of an externalBookingId wins. Two identical requests racing both pass the
      // read that found no claim; only one transaction can create it, the other is cancelled
      // here and, on its re-read, finds the claim and answers as a replay.
      putNew(
        table,
        itemOf('BookingClaim', keys.bookingClaim(entry.agentGroupId, claim.externalBookingId), {
          externalBookingId: claim.externalBookingId,
          contentHash: claim.contentHash,
          entryId: entry.id,
          bookingRef: claim.bookingRef,
          createdAt: at,
        }),
      ),
      ...withinLimitItems(table, entry, terms, at),
    ],
  };
}

/**
 * The gate's hold on the counter: exposure grows by the entry's amount only while it stays
 * within the limit decided on, and only while the terms are the ones decided on. Shared by
 * a booking's authorization and an amendment's increase, so both pass one gate.
 */
function withinLimitItems(table: string, entry: Pick<LedgerEntry, 'agentGroupId' | 'amount'>, terms: CreditTerms, at: string): TransactItems {
  return [
    {
      Update: {
        TableName: table,
        Key: creditCounterEntity.key(entry.agentGroupId),
        UpdateExpression: creditCounterEntity.addExposure,
        ConditionExpression: creditCounterEntity.conditions.withinLimit,
        ExpressionAttributeValues: { ':headroom': terms.creditLimit - entry.amount, ':zero': 0, ':amount': entry.amount, ':at': at, ':false': false },
      },
    },
    {
      ConditionCheck: {
        TableName: table,
        Key: keys.agentGroup(entry.agentGroupId),
        ConditionExpression: creditTermsConditions.termsUnchanged,
        ExpressionAttributeValues: { ':limit': terms.creditLimit, ':false': false },
      },
    },
  ];
}

/** The terms the gate decides on, from the group's item (limit, operator's hold) and the counter (credit control's hold). */
const termsOf = (group: Record<string, unknown>, counter: Record<string, unknown> | undefined): CreditTerms =>
  creditTermsOf(group.creditLimit as Minor, group.onHold === true, counter?.creditHold === true);

/** What a status move of an entry needs to know of it. */
export type EntryRef = Pick<LedgerEntry, 'agentGroupId' | 'id' | 'amount' | 'status'>;

/** The entry's own half of a posting: `from` → POSTED with the property-system booking id, only from the state the caller saw. */
const postEntry = (table: string, entry: EntryRef, from: 'AUTHORIZED' | 'RELEASED', bookingId: string, at: string) => ({
  Update: {
    TableName: table,
    Key: keys.ledgerEntry(entry.agentGroupId, entry.id),
    UpdateExpression: 'SET #status = :to, bookingId = :booking, postedAt = :at',
    ConditionExpression: ledgerEntryConditions.statusIs,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':from': from, ':to': 'POSTED', ':booking': bookingId, ':at': at },
  },
});

/** Post: AUTHORIZED → POSTED; exposure already counts the amount. */
export function postTransaction(table: string, entry: EntryRef, bookingId: string, at: string): TransactWriteCommandInput {
  return { TransactItems: [postEntry(table, entry, 'AUTHORIZED', bookingId, at), ...chargePosted(table, entry, bookingId, at)] };
}

/** Only charges are authorized first: a posting from AUTHORIZED or RELEASED enters its booking in the unbilled index. */
const chargePosted = (table: string, entry: EntryRef, bookingId: string, at: string): TransactItems =>
  unbilledItems(table, entry.agentGroupId, [{ bookingId, entryId: entry.id }], at);

/** Release: the entry leaves AUTHORIZED and its amount leaves exposure, together or not at all. */
export function releaseTransaction(table: string, entry: EntryRef, at: string): TransactWriteCommandInput {
  return {
    TransactItems: [
      {
        Update: {
          TableName: table,
          Key: keys.ledgerEntry(entry.agentGroupId, entry.id),
          UpdateExpression: 'SET #status = :to, releasedAt = :at',
          ConditionExpression: ledgerEntryConditions.statusIs,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':from': 'AUTHORIZED', ':to': 'RELEASED', ':at': at },
        },
      },
      {
        Update: {
          TableName: table,
          Key: creditCounterEntity.key(entry.agentGroupId),
          UpdateExpression: 'SET exposure = exposure - :amount, updatedAt = :at',
          ConditionExpression: creditCounterEntity.conditions.hasExposure,
          ExpressionAttributeValues: { ':amount': entry.amount, ':at': at },
        },
      },
    ],
  };
}

/**
 * A booking that lands after its authorization was released is still posted (the booking
 * exists, so the ledger must say so): the amount returns to exposure without a limit check.
 */
export function latePostTransaction(table: string, entry: EntryRef, bookingId: string, at: string): TransactWriteCommandInput {
  return {
    TransactItems: [
      postEntry(table, entry, 'RELEASED', bookingId, at),
      ...chargePosted(table, entry, bookingId, at),
      {
        Update: {
          TableName: table,
          Key: creditCounterEntity.key(entry.agentGroupId),
          UpdateExpression: creditCounterEntity.addExposure,
          ExpressionAttributeValues: { ':zero': 0, ':amount': entry.amount, ':at': at },
        },
      },
    ],
  };
}

/** The write that posts `entry` from whichever of AUTHORIZED or RELEASED it is in. */
export function postingTransaction(table: string, entry: EntryRef, bookingId: string, at: string): TransactWriteCommandInput {
  return entry.status === 'RELEASED' ? latePostTransaction(table, entry, bookingId, at) : postTransaction(table, entry, bookingId, at);
}

/**
 * The writes of an entry recorded as POSTED outside the gate: the entry (new, so its id makes
 * the write idempotent), the counter moved by its signed amount without a limit check
 * (refunds and payments lower exposure; an operator's adjustment may raise it past the
 * limit on purpose), and a check that the group exists. Exported so another adapter can
 * commit them in its own transaction beside its own items (a cancellation's booking update).
 */
export function recordPostedItems(table: string, entry: LedgerEntry, at: string): TransactItems {
  return recordPostedEntriesItems(table, [entry], at);
}

/**
 * recordPostedItems for several entries of one group (an operator's credit note over lines
 * of several bookings: one entry per booking): each entry, and the counter moved once by
 * their sum, since one transaction may touch an item only once.
 */
export function recordPostedEntriesItems(table: string, entries: readonly LedgerEntry[], at: string): TransactItems {
  if (entries.length === 0) return [];
  const g = entries[0]!.agentGroupId;
  for (const e of entries) {
    assertRecordable(e);
    if (e.agentGroupId !== g) throw new RangeError('entries recorded together must be of one agent group');
  }
  return [
    ...entries.map((e) => newEntry(table, e, at)),
    {
      Update: {
        TableName: table,
        Key: creditCounterEntity.key(g),
        UpdateExpression: creditCounterEntity.addExposure,
        ExpressionAttributeValues: { ':zero': 0, ':amount': entries.reduce((s, e) => s + e.amount, 0), ':at': at },
      },
    },
    // Entries recorded outside the gate belong to a group that exists; the profile is only checked, never written.
    { ConditionCheck: { TableName: table, Key: agentGroupEntity.key(g), ConditionExpression: agentGroupEntity.conditions.exists } },
    ...unbilledItems(table, g, postingsOf(entries), at),
  ];
}

/** Position of an entry on the timeline as an ExclusiveStartKey of the GSI1 query (index key plus table key). */
const timelineStartKey = (agentGroupId: string, p: LedgerPosition) => ({
  ...keys.ledgerEntry(agentGroupId, p.id),
  ...keys.ledgerTimelineIndex(agentGroupId, p.occurredAt, p.id),
});

/**
 * The GSI1 query of a ledger read, without paging: the occurred-at window as the key
 * condition (so a window costs what it holds), every other filter as a FilterExpression.
 * Lists become IN (…) of at most 100 values, DynamoDB's own limit and the API's. bookingId
 * IN never matches an entry without one, so AUTHORIZED entries drop out as docs/ledger.md says.
 */
export function ledgerQueryInput(table: string, agentGroupId: string, q: LedgerQuery): QueryCommandInput {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': keys.ledgerTimeline(agentGroupId).GSI1PK };
  const { lower, upper } = keys.ledgerTimelineRange(q);
  if (lower !== undefined) values[':lower'] = lower;
  if (upper !== undefined) values[':upper'] = upper;
  const range =
    lower !== undefined && upper !== undefined
      ? ' AND GSI1SK BETWEEN :lower AND :upper'
      : lower !== undefined
        ? ' AND GSI1SK >= :lower'
        : upper !== undefined
          ? ' AND GSI1SK <= :upper'
          : '';

  const filters: string[] = [];
  const anyOf = (attribute: string, tag: string, list: readonly string[] | undefined) => {
    if (list === undefined) return;
    names[`#${tag}`] = attribute;
    const placeholders = list.map((value, i) => {
      values[`:${tag}${i}`] = value;
      return `:${tag}${i}`;
    });
    filters.push(`#${tag} IN (${placeholders.join(', ')})`);
  };
  anyOf('type', 'type', q.types);
  anyOf('status', 'status', q.statuses);
  anyOf('bookingId', 'booking', q.bookingIds);
  anyOf('externalBookingId', 'ext', q.externalBookingIds);

  return {
    TableName: table,
    IndexName: GSI1,
    KeyConditionExpression: `GSI1PK = :pk${range}`,
    ...(filters.length ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
    ScanIndexForward: q.order === 'oldest-first',
  };
}

export class DynamoCreditLedger implements CreditLedger {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async authorize(entry: LedgerEntry, claim: IdempotencyClaim): Promise<Authorization> {
    return this.authorizeWith(entry, claim, []);
  }

  /**
   * The gate with more items in its transaction: what the authorization pays for (the
   * booking) is written with it or not at all. Infra-only; the port offers `authorize`.
   */
  async authorizeWith(entry: LedgerEntry, claim: IdempotencyClaim, alongside: TransactItems): Promise<Authorization> {
    if (entry.status !== 'AUTHORIZED' || entry.externalBookingId !== claim.externalBookingId) {
      throw new RangeError('the gate authorizes a new AUTHORIZED entry carrying the claim’s externalBookingId');
    }
    const g = entry.agentGroupId;
    for (let attempt = 0; ; attempt++) {
      // Read before writing: a replay must be answered from its claim even when the group is
      // now full or on hold, and the limit must be known to build the counter's condition.
      const [claimItem, group, counter] = await this.consistentGet([keys.bookingClaim(g, claim.externalBookingId), keys.agentGroup(g), keys.creditCounter(g)]);
      if (claimItem) return this.replay(g, claimItem as unknown as ClaimRecord, claim);
      if (!group) throw new NotFoundError('Agent group');
      // On hold by an operator (the group's terms) or by credit control (an overdue invoice, kept on the counter).
      const terms = termsOf(group, counter);
      const decision = decideCredit(terms, exposureOf(counter), entry.amount);
      if (!decision.approved) throw new CreditDeniedError(decision);
      try {
        const gate = authorizeTransaction(this.table, entry, claim, terms, entry.occurredAt);
        await this.db.send(new TransactWriteCommand({ TransactItems: [...gate.TransactItems!, ...alongside] }));
        return { entry, bookingRef: claim.bookingRef, replay: false, availableCreditAfter: decision.availableCreditAfter };
      } catch (err) {
        // Whichever condition failed, the re-read above tells the cases apart: a claim now
        // exists (replay or conflict), the counter has filled (refusal with the figures read
        // then), the terms changed (decide again), or contention (try again).
        if (!isRefused(err) || attempt + 1 >= MAX_ATTEMPTS) throw err;
        if (isTransactionContention(err)) await backoff(attempt);
      }
    }
  }

  async post(agentGroupId: string, entryId: string, bookingId: string, at: string): Promise<LedgerEntry> {
    for (let attempt = 0; ; attempt++) {
      const entry = await this.getEntry(agentGroupId, entryId);
      if (!entry) throw new NotFoundError('Ledger entry');
      if (entry.status === 'POSTED') {
        if (entry.bookingId === bookingId) return entry;
        throw new LedgerTransitionError('CONFLICT', `Ledger entry ${entryId} is already posted to another booking.`);
      }
      try {
        await this.db.send(new TransactWriteCommand(postingTransaction(this.table, entry, bookingId, at)));
        return { ...entry, status: 'POSTED', bookingId };
      } catch (err) {
        // A racing post or release moved the entry first; the re-read decides what this call means now.
        if (!isRefused(err) || attempt + 1 >= MAX_ATTEMPTS) throw err;
        if (isTransactionContention(err)) await backoff(attempt);
      }
    }
  }

  async release(agentGroupId: string, entryId: string, at: string): Promise<LedgerEntry> {
    for (let attempt = 0; ; attempt++) {
      const entry = await this.getEntry(agentGroupId, entryId);
      if (!entry) throw new NotFoundError('Ledger entry');
      if (entry.status === 'RELEASED') return entry;
      if (entry.status === 'POSTED')
        throw new LedgerTransitionError('CONFLICT', `Ledger entry ${entryId} is posted; a posted charge is refunded, not released.`);
      try {
        await this.db.send(new TransactWriteCommand(releaseTransaction(this.table, entry, at)));
        return { ...entry, status: 'RELEASED' };
      } catch (err) {
        // Racing releases: exactly one transaction passes the status condition, so exposure moves once.
        if (!isRefused(err) || attempt + 1 >= MAX_ATTEMPTS) throw err;
        if (isTransactionContention(err)) await backoff(attempt);
      }
    }
  }

  async recordPosted(entry: LedgerEntry): Promise<LedgerEntry> {
    const items = recordPostedItems(this.table, entry, entry.occurredAt);
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return entry;
      } catch (err) {
        if (!isRefused(err)) throw err;
        // Racing identical calls: one transaction creates the entry and moves exposure; the
        // others are cancelled by the entry's guard (or by contention) and answer with what is stored.
        const stored = await this.getEntry(entry.agentGroupId, entry.id);
        if (stored) return stored;
        if (!isTransactionContention(err)) throw new NotFoundError('Agent group');
        if (attempt + 1 >= MAX_ATTEMPTS) throw err;
        await backoff(attempt);
      }
    }
  }

  /** What the gate would decide now for `amount` more exposure; reads only (an amendment's check before anything is written). */
  async decide(agentGroupId: string, amount: Minor): Promise<CreditDecision> {
    const [group, counter] = await this.consistentGet([keys.agentGroup(agentGroupId), keys.creditCounter(agentGroupId)]);
    if (!group) throw new NotFoundError('Agent group');
    return decideCredit(termsOf(group, counter), exposureOf(counter), amount);
  }

  /**
   * A POSTED entry with items of the caller's in one transaction. A positive amount passes
   * the gate (read, decide, and the counter's within-limit and unchanged-terms conditions
   * at commit); a negative one lowers exposure unchecked. A refusal is answered, not
   * thrown; a failed condition among the caller's items ends the attempt with `moved` (the
   * caller re-reads its records: the entry is written with them, so a rerun after success
   * finds them moved too); contention and a counter that moved are retried here.
   * Infra-only: the amendment store commits its rows with the adjustment.
   */
  async postWith(
    entry: LedgerEntry,
    alongside: TransactItems,
  ): Promise<{ readonly kind: 'posted' | 'moved' } | { readonly kind: 'refused'; readonly decision: Extract<CreditDecision, { approved: false }> }> {
    assertRecordable(entry);
    for (let attempt = 0; ; attempt++) {
      let own: TransactItems;
      if (entry.amount > 0) {
        const [group, counter] = await this.consistentGet([keys.agentGroup(entry.agentGroupId), keys.creditCounter(entry.agentGroupId)]);
        if (!group) throw new NotFoundError('Agent group');
        const terms = termsOf(group, counter);
        const decision = decideCredit(terms, exposureOf(counter), entry.amount);
        if (!decision.approved) return { kind: 'refused', decision };
        own = [
          newEntry(this.table, entry, entry.occurredAt),
          ...withinLimitItems(this.table, entry, terms, entry.occurredAt),
          ...unbilledItems(this.table, entry.agentGroupId, postingsOf([entry]), entry.occurredAt),
        ];
      } else {
        own = recordPostedItems(this.table, entry, entry.occurredAt);
      }
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: [...own, ...alongside] }));
        return { kind: 'posted' };
      } catch (err) {
        if (!isRefused(err) || attempt + 1 >= MAX_ATTEMPTS) throw err;
        if (refusedItems(err).some((i) => i === 0 || i >= own.length)) return { kind: 'moved' };
        if (isTransactionContention(err)) await backoff(attempt);
      }
    }
  }

  async getEntry(agentGroupId: string, entryId: string): Promise<LedgerEntry | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.ledgerEntry(agentGroupId, entryId), ConsistentRead: true }));
    return out.Item ? entryOf(out.Item) : undefined;
  }

  async listEntries(agentGroupId: string, page: { limit: number; after?: LedgerPosition }): Promise<LedgerPage> {
    return this.queryEntries(agentGroupId, { order: 'newest-first', ...page });
  }

  async queryEntries(agentGroupId: string, q: LedgerQuery): Promise<LedgerPage> {
    const input = ledgerQueryInput(this.table, agentGroupId, q);
    const filtered = input.FilterExpression !== undefined;
    const entries: LedgerEntry[] = [];
    let startKey: Record<string, unknown> | undefined = q.after ? timelineStartKey(agentGroupId, q.after) : undefined;
    // Until the page is full or the window is exhausted. Unfiltered, each round asks for exactly
    // what the page still lacks, so a page costs one Query of `limit` items.
    do {
      const lacking = q.limit === undefined ? undefined : q.limit - entries.length;
      const roundLimit = lacking === undefined ? undefined : filtered ? Math.max(lacking, FILTERED_ROUND) : lacking;
      const out = await this.db.send(new QueryCommand({ ...input, Limit: roundLimit, ExclusiveStartKey: startKey }));
      entries.push(...(out.Items ?? []).map(entryOf));
      startKey = out.LastEvaluatedKey;
    } while (startKey && (q.limit === undefined || entries.length < q.limit));

    if (q.limit === undefined) return { entries, next: null };
    const page = entries.slice(0, q.limit);
    const last = page.at(-1);
    // A filtered round may match past the page; the page then ends at its own last entry, not
    // at DynamoDB's LastEvaluatedKey, and the next page starts right after that entry.
    const more = entries.length > q.limit || (startKey !== undefined && page.length === q.limit);
    return { entries: page, next: more && last ? { occurredAt: last.occurredAt, id: last.id } : null };
  }

  /** Entries by id (consistent), in no order; ids with no entry are absent. */
  async entriesById(agentGroupId: string, entryIds: readonly string[]): Promise<LedgerEntry[]> {
    const items = await getAll(
      this.db,
      this.table,
      [...new Set(entryIds)].map((id) => keys.ledgerEntry(agentGroupId, id)),
      { consistent: true },
    );
    return items.map(entryOf);
  }

  async creditPosition(agentGroupId: string): Promise<CreditPosition | undefined> {
    const [group, counter] = await this.consistentGet([keys.agentGroup(agentGroupId), keys.creditCounter(agentGroupId)]);
    if (!group) return undefined;
    return creditPosition(group.creditLimit as Minor, exposureOf(counter));
  }

  async audit(agentGroupId: string): Promise<LedgerAudit> {
    const partition = keys.ledgerEntriesOfGroup(agentGroupId);
    const [items, [counter]] = await Promise.all([
      queryAll(this.db, {
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': partition.PK, ':prefix': partition.SKPrefix },
        ConsistentRead: true,
      }),
      this.consistentGet([keys.creditCounter(agentGroupId)]),
    ]);
    return { exposureCounter: exposureOf(counter), entries: items.map(entryOf) };
  }

  /** Same key and hash: the earlier authorization, unchanged. Same key, other hash: a conflict. */
  private async replay(agentGroupId: string, stored: ClaimRecord, claim: IdempotencyClaim): Promise<Authorization> {
    if (stored.contentHash !== claim.contentHash) throw new IdempotencyConflictError(claim.externalBookingId);
    const [entry, position] = await Promise.all([this.getEntry(agentGroupId, stored.entryId), this.creditPosition(agentGroupId)]);
    if (!entry) throw new Error(`claim ${claim.externalBookingId} names ledger entry ${stored.entryId}, which is missing`);
    return { entry, bookingRef: stored.bookingRef, replay: true, availableCreditAfter: position?.availableCredit ?? 0 };
  }

  /** Consistent reads of a few items in one round trip, in the order asked (undefined where absent). */
  private async consistentGet(wanted: Key[]): Promise<(Record<string, unknown> | undefined)[]> {
    const items = await getAll(this.db, this.table, wanted, { consistent: true });
    const found = new Map(items.map((item) => [`${item.PK as string}\u0000${item.SK as string}`, item]));
    return wanted.map((k) => found.get(`${k.PK}\u0000${k.SK}`));
  }
}

/** The counter's exposure in paise; a group that never had an authorization has none. */
function exposureOf(counter: Record<string, unknown> | undefined): Minor {
  return (counter?.exposure as Minor | undefined) ?? 0;
}

import type { CreditDecision, CreditPosition, LedgerEntry, LedgerEntryStatus, LedgerEntryType } from '../ledger/ledger.ts';
import type { Minor } from '../money.ts';

/** What makes an authorization a replay: the caller's key, the request's content hash and the booking it created. */
export interface IdempotencyClaim {
  readonly externalBookingId: string;
  readonly contentHash: string;
  /** The service's own id of the booking this authorization pays for. */
  readonly bookingRef: string;
}

export interface Authorization {
  readonly entry: LedgerEntry;
  readonly bookingRef: string;
  /** True when the key and hash were already authorized: nothing new was written. */
  readonly replay: boolean;
  /**
   * Available credit just after this authorization as the gate read it; gates admitted
   * concurrently may have lowered the live figure further.
   */
  readonly availableCreditAfter: Minor;
}

/** Where a page of the ledger ended; the next page starts strictly after it. */
export interface LedgerPosition {
  readonly occurredAt: string;
  readonly id: string;
}

export interface LedgerPage {
  readonly entries: LedgerEntry[];
  readonly next: LedgerPosition | null;
}

/**
 * Which of a group's entries to read. Bounds are canonical instants (`toISOString`), compared
 * with occurredAt; every filter given must hold (AND), and a list matches any of its values.
 */
export interface LedgerQuery {
  /** occurredAt ≥ from. */
  readonly from?: string;
  /** occurredAt ≤ to. */
  readonly to?: string;
  /** occurredAt < before (an opening balance is everything before a statement's from). */
  readonly before?: string;
  readonly types?: readonly LedgerEntryType[];
  readonly statuses?: readonly LedgerEntryStatus[];
  /** Matches the property-system bookingId, which only POSTED charges carry. */
  readonly bookingIds?: readonly string[];
  readonly externalBookingIds?: readonly string[];
  readonly order: 'newest-first' | 'oldest-first';
  /** Start strictly after this position, in the query's order. */
  readonly after?: LedgerPosition;
  /** At most this many entries; without it the whole window is read (statements, never unbounded lists). */
  readonly limit?: number;
}

/** The group's counter beside the entries it should equal; for invariant checks and operators. */
export interface LedgerAudit {
  readonly exposureCounter: Minor;
  readonly entries: LedgerEntry[];
}

/**
 * An agent group's ledger and the credit gate over it. Every method is scoped by the group.
 */
export interface CreditLedger {
  /**
   * Authorizes `entry` (AUTHORIZED, positive amount) in one atomic step with its idempotency
   * claim and the group's exposure. Resolves to a replay when the claim's key was already
   * authorized with the same hash. Throws CreditDeniedError (on hold, limit exceeded),
   * IdempotencyConflictError (key reused with another hash), NotFoundError (no such group);
   * a refusal writes nothing.
   */
  authorize(entry: LedgerEntry, claim: IdempotencyClaim): Promise<Authorization>;
  /** AUTHORIZED (or a RELEASED one landing late) → POSTED with the property-system booking id; idempotent. */
  post(agentGroupId: string, entryId: string, bookingId: string, at: string): Promise<LedgerEntry>;
  /** AUTHORIZED → RELEASED, giving its amount back to the group's exposure exactly once; idempotent. */
  release(agentGroupId: string, entryId: string, at: string): Promise<LedgerEntry>;
  /**
   * Writes an entry that is already POSTED and does not pass the gate (refund, payment,
   * adjustment) together with `exposure + amount`, with no limit check. Idempotent on the
   * entry id: a second call writes nothing and resolves to the stored entry. Throws
   * NotFoundError for an unknown group, RangeError for an entry assertRecordable refuses.
   */
  recordPosted(entry: LedgerEntry): Promise<LedgerEntry>;
  getEntry(agentGroupId: string, entryId: string): Promise<LedgerEntry | undefined>;
  /** The group's entries newest first, `limit` at a time. */
  listEntries(agentGroupId: string, page: { limit: number; after?: LedgerPosition }): Promise<LedgerPage>;
  /**
   * The group's entries matching `query`, in its order. `next` is set when `limit` entries
   * came back and more may follow (the next page may still be empty).
   */
  queryEntries(agentGroupId: string, query: LedgerQuery): Promise<LedgerPage>;
  /** Live limit, exposure and available credit; undefined for an unknown group. */
  creditPosition(agentGroupId: string): Promise<CreditPosition | undefined>;
  /** What the credit gate would decide now for `amount` paise more exposure; writes nothing. */
  decide(agentGroupId: string, amount: Minor): Promise<CreditDecision>;
  /** Every entry of the group and the exposure counter, read consistently. Operator-sized, never on a request path. */
  audit(agentGroupId: string): Promise<LedgerAudit>;
}

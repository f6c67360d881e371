import { NotFoundError } from '../../../domain/errors.ts';
import { CreditDeniedError, IdempotencyConflictError, LedgerTransitionError } from '../../../domain/ledger/credit-errors.ts';
import {
  assertRecordable,
  creditPosition,
  decideCredit,
  type CreditDecision,
  type CreditPosition,
  type CreditTerms,
  type LedgerEntry,
} from '../../../domain/ledger/ledger.ts';
import type { Minor } from '../../../domain/money.ts';
import type {
  Authorization,
  CreditLedger,
  IdempotencyClaim,
  LedgerAudit,
  LedgerPage,
  LedgerPosition,
  LedgerQuery,
} from '../../../domain/ports/credit-ledger.ts';

interface Account {
  exposure: Minor;
  readonly entries: Map<string, LedgerEntry>;
  readonly claims: Map<string, IdempotencyClaim & { readonly entryId: string }>;
}

/** Newest first is the timeline's reverse: later occurredAt first, and for one instant the larger id first. */
const compareTimeline = (a: LedgerPosition, b: LedgerPosition): number =>
  a.occurredAt === b.occurredAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.occurredAt < b.occurredAt ? -1 : 1;

/**
 * The credit ledger in memory, for rule tests in the unit tier. It keeps the port's contract
 * (test/support/contracts/credit-ledger-contract.ts runs against it and against
 * DynamoCreditLedger): one gate per call, a claim answered before the terms, exposure moved
 * exactly once per authorization, post, release and recorded entry. JavaScript runs each
 * call's synchronous part alone, which is what the transaction gives the DynamoDB adapter.
 * Storage behaviour (conditions under real races, paging by LastEvaluatedKey) stays tested
 * on DynamoDB Local.
 */
export class InMemoryCreditLedger implements CreditLedger {
  private readonly accounts = new Map<string, Account>();

  /** `terms`: the group's limit and hold, undefined for a group that does not exist (the tenant directory's part). */
  constructor(private readonly terms: (agentGroupId: string) => CreditTerms | undefined) {}

  async authorize(entry: LedgerEntry, claim: IdempotencyClaim): Promise<Authorization> {
    if (entry.status !== 'AUTHORIZED' || entry.externalBookingId !== claim.externalBookingId) {
      throw new RangeError('the gate authorizes a new AUTHORIZED entry carrying the claim’s externalBookingId');
    }
    const g = entry.agentGroupId;
    const stored = this.accounts.get(g)?.claims.get(claim.externalBookingId);
    if (stored) {
      if (stored.contentHash !== claim.contentHash) throw new IdempotencyConflictError(claim.externalBookingId);
      return {
        entry: this.account(g).entries.get(stored.entryId)!,
        bookingRef: stored.bookingRef,
        replay: true,
        availableCreditAfter: (await this.creditPosition(g))?.availableCredit ?? 0,
      };
    }
    const terms = this.termsOf(g);
    const account = this.account(g);
    const decision = decideCredit(terms, account.exposure, entry.amount);
    if (!decision.approved) throw new CreditDeniedError(decision);
    account.entries.set(entry.id, entry);
    account.claims.set(claim.externalBookingId, { ...claim, entryId: entry.id });
    account.exposure += entry.amount;
    return { entry, bookingRef: claim.bookingRef, replay: false, availableCreditAfter: decision.availableCreditAfter };
  }

  async post(agentGroupId: string, entryId: string, bookingId: string, _at: string): Promise<LedgerEntry> {
    const account = this.accounts.get(agentGroupId);
    const entry = account?.entries.get(entryId);
    if (!account || !entry) throw new NotFoundError('Ledger entry');
    if (entry.status === 'POSTED') {
      if (entry.bookingId === bookingId) return entry;
      throw new LedgerTransitionError('CONFLICT', `Ledger entry ${entryId} is already posted to another booking.`);
    }
    const posted: LedgerEntry = { ...entry, status: 'POSTED', bookingId };
    account.entries.set(entryId, posted);
    // A released authorization landing late counts toward exposure again.
    if (entry.status === 'RELEASED') account.exposure += entry.amount;
    return posted;
  }

  async release(agentGroupId: string, entryId: string, _at: string): Promise<LedgerEntry> {
    const account = this.accounts.get(agentGroupId);
    const entry = account?.entries.get(entryId);
    if (!account || !entry) throw new NotFoundError('Ledger entry');
    if (entry.status === 'RELEASED') return entry;
    if (entry.status === 'POSTED') throw new LedgerTransitionError('CONFLICT', `Ledger entry ${entryId} is posted; a posted charge is refunded, not released.`);
    const released: LedgerEntry = { ...entry, status: 'RELEASED' };
    account.entries.set(entryId, released);
    account.exposure -= entry.amount;
    return released;
  }

  async recordPosted(entry: LedgerEntry): Promise<LedgerEntry> {
    assertRecordable(entry);
    const stored = this.accounts.get(entry.agentGroupId)?.entries.get(entry.id);
    if (stored) return stored;
    this.termsOf(entry.agentGroupId);
    const account = this.account(entry.agentGroupId);
    account.entries.set(entry.id, entry);
    account.exposure += entry.amount;
    return entry;
  }

  /** The idempotency claim the gate stored for an externalBookingId (what BookingStore.findClaim reads). */
  claimOf(agentGroupId: string, externalBookingId: string): { contentHash: string; bookingRef: string } | undefined {
    const stored = this.accounts.get(agentGroupId)?.claims.get(externalBookingId);
    return stored && { contentHash: stored.contentHash, bookingRef: stored.bookingRef };
  }

  async getEntry(agentGroupId: string, entryId: string): Promise<LedgerEntry | undefined> {
    return this.accounts.get(agentGroupId)?.entries.get(entryId);
  }

  listEntries(agentGroupId: string, page: { limit: number; after?: LedgerPosition }): Promise<LedgerPage> {
    return this.queryEntries(agentGroupId, { order: 'newest-first', ...page });
  }

  async queryEntries(agentGroupId: string, q: LedgerQuery): Promise<LedgerPage> {
    const sign = q.order === 'oldest-first' ? 1 : -1;
    const matching = [...(this.accounts.get(agentGroupId)?.entries.values() ?? [])]
      .filter(
        (e) =>
          (q.from === undefined || e.occurredAt >= q.from) &&
          (q.to === undefined || e.occurredAt <= q.to) &&
          (q.before === undefined || e.occurredAt < q.before) &&
          (q.types === undefined || q.types.includes(e.type)) &&
          (q.statuses === undefined || q.statuses.includes(e.status)) &&
          (q.bookingIds === undefined || (e.bookingId !== null && q.bookingIds.includes(e.bookingId))) &&
          (q.externalBookingIds === undefined || (e.externalBookingId !== null && q.externalBookingIds.includes(e.externalBookingId))) &&
          (q.after === undefined || sign * compareTimeline(e, q.after) > 0),
      )
      .sort((a, b) => sign * compareTimeline(a, b));
    if (q.limit === undefined) return { entries: matching, next: null };
    const page = matching.slice(0, q.limit);
    const last = page.at(-1);
    return { entries: page, next: matching.length > q.limit && last ? { occurredAt: last.occurredAt, id: last.id } : null };
  }

  async creditPosition(agentGroupId: string): Promise<CreditPosition | undefined> {
    const terms = this.terms(agentGroupId);
    return terms ? creditPosition(terms.creditLimit, this.accounts.get(agentGroupId)?.exposure ?? 0) : undefined;
  }

  async decide(agentGroupId: string, amount: Minor): Promise<CreditDecision> {
    return decideCredit(this.termsOf(agentGroupId), this.accounts.get(agentGroupId)?.exposure ?? 0, amount);
  }

  async audit(agentGroupId: string): Promise<LedgerAudit> {
    const account = this.accounts.get(agentGroupId);
    return { exposureCounter: account?.exposure ?? 0, entries: [...(account?.entries.values() ?? [])] };
  }

  private termsOf(agentGroupId: string): CreditTerms {
    const terms = this.terms(agentGroupId);
    if (!terms) throw new NotFoundError('Agent group');
    return terms;
  }

  private account(agentGroupId: string): Account {
    let account = this.accounts.get(agentGroupId);
    if (!account) this.accounts.set(agentGroupId, (account = { exposure: 0, entries: new Map(), claims: new Map() }));
    return account;
  }
}

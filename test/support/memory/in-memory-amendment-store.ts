import type { AuditDraft } from '../../../domain/audit/audit-event.ts';
import { isSettledStatus, type Amendment } from '../../../domain/bookings/amendment.ts';
import type { Booking } from '../../../domain/bookings/booking.ts';
import type { LedgerEntry } from '../../../domain/ledger/ledger.ts';
import type { AdjustOutcome, AmendmentLock, AmendmentStore, RowsOutcome, UnitMove } from '../../../domain/ports/amendment-store.ts';
import type { InMemoryBookingStore } from './in-memory-booking-store.ts';
import type { InMemoryCatalogue } from './in-memory-catalogue.ts';
import type { InMemoryCreditLedger } from './in-memory-credit-ledger.ts';

const key = (agentGroupId: string, bookingRef: string): string => `${agentGroupId}#${bookingRef}`;
const byCreated = (a: Amendment, b: Amendment): number => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);

/**
 * Amendments in memory, for rule tests in the unit tier, over the in-memory bookings, ledger
 * and catalogue: what DynamoAmendmentStore writes in one transaction (the amendment, its lock,
 * the booking, the units, the ADJUSTMENT) is one call here, and its writes are taken one at a
 * time, so an amendment's version is read and replaced with nothing in between. A write whose
 * booking moved writes nothing (InMemoryBookingStore.replaceWith runs the other rows only
 * once the booking's version is found). It keeps the port's contract
 * (test/support/contracts/amendment-store-contract.ts runs against it and DynamoAmendmentStore);
 * the races the transactions settle stay in the DynamoDB tests. The audit drafts are kept for
 * the test to read.
 */
export class InMemoryAmendmentStore implements AmendmentStore {
  private readonly amendments = new Map<string, Map<string, Amendment>>();
  private readonly locks = new Map<string, AmendmentLock>();
  private writing: Promise<unknown> = Promise.resolve();
  readonly audit: AuditDraft[] = [];

  constructor(
    private readonly bookings: InMemoryBookingStore,
    private readonly ledger: InMemoryCreditLedger,
    private readonly catalogue: InMemoryCatalogue,
  ) {}

  begin(a: Amendment, bookingVersion: number, audit: AuditDraft): Promise<'created' | 'locked' | 'moved'> {
    return this.inTurn(async () => {
      const k = key(a.agentGroupId, a.bookingRef);
      // As the transaction's cancellation reasons are read: the lock's condition first, then the rest.
      if (this.locks.has(k)) return 'locked';
      if (this.amendments.get(k)?.has(a.amendmentId) || (await this.bookings.get(a.agentGroupId, a.bookingRef))?.version !== bookingVersion) return 'moved';
      this.put(a);
      this.locks.set(k, { amendmentId: a.amendmentId, contentHash: a.contentHash });
      this.audit.push(audit);
      return 'created';
    });
  }

  async get(agentGroupId: string, bookingRef: string, amendmentId: string): Promise<Amendment | undefined> {
    return this.amendments.get(key(agentGroupId, bookingRef))?.get(amendmentId);
  }

  async lockOf(agentGroupId: string, bookingRef: string): Promise<AmendmentLock | undefined> {
    return this.locks.get(key(agentGroupId, bookingRef));
  }

  async list(agentGroupId: string, bookingRef: string): Promise<Amendment[]> {
    return [...(this.amendments.get(key(agentGroupId, bookingRef))?.values() ?? [])].sort(byCreated);
  }

  save(previous: Amendment, next: Amendment): Promise<boolean> {
    return this.inTurn(async () => {
      if (!this.stillAt(previous, next)) return false;
      this.settle(next);
      return true;
    });
  }

  rewrite(
    previous: Amendment,
    next: Amendment,
    booking: Booking,
    nextBooking: Booking,
    moves: readonly UnitMove[],
    refuseOverdraft: boolean,
  ): Promise<RowsOutcome> {
    return this.inTurn(async () => {
      // The units are read before the transaction: a night short of them refuses it whatever else moved.
      if (refuseOverdraft && this.catalogue.oversold(moves).length) return 'oversold';
      if (!this.stillAt(previous, next)) return 'moved';
      return this.bookings.replaceWith(booking, nextBooking, async () => {
        // Read again where they are written: another booking's units may have moved meanwhile (DynamoDB retries on fresh figures).
        if (refuseOverdraft && this.catalogue.oversold(moves).length) return { write: false, answer: 'oversold' as const };
        this.catalogue.moveUnits(moves, next.updatedAt);
        this.settle(next);
        return { write: true, answer: 'done' as const };
      });
    });
  }

  adjust(previous: Amendment, next: Amendment, booking: Booking, nextBooking: Booking, entry: LedgerEntry | null): Promise<AdjustOutcome> {
    return this.inTurn(async (): Promise<AdjustOutcome> => {
      // A charge goes through the credit gate first (DynamoCreditLedger.postWith decides before it writes).
      if (entry && entry.amount > 0) {
        const decision = await this.ledger.decide(entry.agentGroupId, entry.amount);
        if (!decision.approved) return { kind: 'refused', decision };
      }
      if (!this.stillAt(previous, next)) return { kind: 'moved' };
      const outcome = await this.bookings.replaceWith(booking, nextBooking, async () => {
        // The entry is written only where none is stored under its id: a rerun finds it and moves nothing.
        if (entry && (await this.ledger.getEntry(entry.agentGroupId, entry.id))) return { write: false, answer: 'moved' as const };
        if (entry) await this.ledger.recordPosted(entry);
        this.settle(next);
        return { write: true, answer: 'done' as const };
      });
      return { kind: outcome };
    });
  }

  async listDue(dueBefore: string, limit: number, agentGroupId?: string): Promise<Amendment[]> {
    return [...this.amendments.values()]
      .flatMap((m) => [...m.values()])
      .filter((a) => a.nextCheckAt !== null && a.nextCheckAt <= dueBefore && (agentGroupId === undefined || a.agentGroupId === agentGroupId))
      .sort((a, b) => (a.nextCheckAt! < b.nextCheckAt! ? -1 : a.nextCheckAt! > b.nextCheckAt! ? 1 : 0))
      .slice(0, limit);
  }

  /** Whether the stored amendment is still at previous.version (next must be the one after it, as the DynamoDB adapter insists). */
  private stillAt(previous: Amendment, next: Amendment): boolean {
    if (next.version !== previous.version + 1)
      throw new RangeError(`amendment ${previous.amendmentId}: version ${previous.version} can only become ${previous.version + 1}`);
    const k = key(previous.agentGroupId, previous.bookingRef);
    // Settling deletes the booking's lock on the condition that this amendment holds it.
    if (!isSettledStatus(previous.status) && isSettledStatus(next.status) && this.locks.get(k)?.amendmentId !== next.amendmentId) return false;
    return this.amendments.get(k)?.get(previous.amendmentId)?.version === previous.version;
  }

  /** Stores `next`; an amendment settling here frees its booking for the next one. */
  private settle(next: Amendment): void {
    const previous = this.amendments.get(key(next.agentGroupId, next.bookingRef))!.get(next.amendmentId)!;
    this.put(next);
    const k = key(next.agentGroupId, next.bookingRef);
    if (!isSettledStatus(previous.status) && isSettledStatus(next.status)) this.locks.delete(k);
  }

  private put(a: Amendment): void {
    const k = key(a.agentGroupId, a.bookingRef);
    const of = this.amendments.get(k) ?? new Map<string, Amendment>();
    of.set(a.amendmentId, a);
    this.amendments.set(k, of);
  }

  private inTurn<T>(write: () => Promise<T>): Promise<T> {
    const turn = this.writing.catch(() => undefined).then(write);
    this.writing = turn;
    return turn;
  }
}

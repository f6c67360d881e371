import type { AuditDraft } from '../../../domain/audit/audit-event.ts';
import { stayMoves } from '../../../domain/bookings/amendment.ts';
import type { Booking } from '../../../domain/bookings/booking.ts';
import type { LedgerEntry } from '../../../domain/ledger/ledger.ts';
import type { UnitMove } from '../../../domain/ports/amendment-store.ts';
import type { BookingClaim, BookingEffect, BookingStore } from '../../../domain/ports/booking-store.ts';
import type { Authorization, IdempotencyClaim } from '../../../domain/ports/credit-ledger.ts';
import type { InMemoryCatalogue } from './in-memory-catalogue.ts';
import type { InMemoryCreditLedger } from './in-memory-credit-ledger.ts';

const key = (agentGroupId: string, id: string): string => `${agentGroupId}#${id}`;

/**
 * Bookings in memory, for rule tests in the unit tier, over an InMemoryCreditLedger: what
 * DynamoBookingStore writes in one transaction (the gate with the booking, a step with its
 * ledger half) is one call here. It keeps the port's contract
 * (test/support/contracts/booking-store-contract.ts runs against it and DynamoBookingStore).
 * A booking's writes are taken one at a time, as its version condition makes them on
 * DynamoDB; the effect is applied before the booking is replaced, so an effect the ledger
 * refuses leaves the booking as it was. The audit drafts and the unit moves are kept for the
 * test to read (DynamoDB keeps them in the audit trail and the daily inventory).
 */
export class InMemoryBookingStore implements BookingStore {
  private readonly bookings = new Map<string, Booking>();
  private readonly aliases = new Map<string, string>();
  private readonly writing = new Map<string, Promise<unknown>>();
  readonly audit: AuditDraft[] = [];
  readonly unitMoves: UnitMove[] = [];

  /** With `catalogue`, the inventory effect moves its units too (clamped at zero: the property system already holds them). */
  constructor(
    private readonly ledger: InMemoryCreditLedger,
    private readonly catalogue?: InMemoryCatalogue,
  ) {}

  async open(booking: Booking, entry: LedgerEntry, claim: IdempotencyClaim, audit: AuditDraft): Promise<Authorization> {
    if (this.bookings.has(key(booking.agentGroupId, booking.bookingRef))) throw new RangeError(`booking ${booking.bookingRef} exists`);
    const auth = await this.ledger.authorize(entry, claim);
    if (!auth.replay) {
      this.bookings.set(key(booking.agentGroupId, booking.bookingRef), booking);
      this.audit.push(audit);
    }
    return auth;
  }

  async get(agentGroupId: string, bookingRef: string): Promise<Booking | undefined> {
    return this.bookings.get(key(agentGroupId, bookingRef));
  }

  async findClaim(agentGroupId: string, externalBookingId: string): Promise<BookingClaim | undefined> {
    return this.ledger.claimOf(agentGroupId, externalBookingId);
  }

  /** The booking's ref by its property-system id (the alias its landing wrote). */
  async refOf(agentGroupId: string, bookingId: string): Promise<string | undefined> {
    return this.aliases.get(key(agentGroupId, bookingId));
  }

  async update(previous: Booking, next: Booking, effect?: BookingEffect, audit?: AuditDraft): Promise<boolean> {
    const written = await this.replaceWith(previous, next, async () => {
      if (effect) await this.apply(previous, effect, next.updatedAt);
      if (audit) this.audit.push(audit);
      return { write: true, answer: true };
    });
    return written !== 'moved';
  }

  /**
   * Replaces `previous` by `next` in the booking's write order, with the other rows of the
   * same transaction (`alongside`, run once the version is found still stored): the booking is
   * replaced only when they say `write`, and their answer is returned; 'moved' when the
   * stored booking is no longer at previous.version. What the amendment store writes with a booking.
   */
  replaceWith<T>(previous: Booking, next: Booking, alongside: () => Promise<{ readonly write: boolean; readonly answer: T }>): Promise<T | 'moved'> {
    if (next.version !== previous.version + 1)
      throw new RangeError(`booking ${previous.bookingRef}: version ${previous.version} can only become ${previous.version + 1}`);
    const k = key(previous.agentGroupId, previous.bookingRef);
    const write = (this.writing.get(k) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        if (this.bookings.get(k)?.version !== previous.version) return 'moved' as const;
        const { write, answer } = await alongside();
        if (write) this.bookings.set(k, next);
        return answer;
      });
    this.writing.set(k, write);
    return write;
  }

  async listDue(dueBefore: string, limit: number, agentGroupId?: string): Promise<Booking[]> {
    return [...this.bookings.values()]
      .filter((b) => b.nextCheckAt !== null && b.nextCheckAt <= dueBefore && (agentGroupId === undefined || b.agentGroupId === agentGroupId))
      .sort((a, b) => (a.nextCheckAt! < b.nextCheckAt! ? -1 : a.nextCheckAt! > b.nextCheckAt! ? 1 : 0))
      .slice(0, limit);
  }

  private async apply(b: Booking, effect: BookingEffect, at: string): Promise<void> {
    switch (effect.kind) {
      case 'land': {
        const aliased = this.aliases.get(key(b.agentGroupId, effect.bookingId));
        if (aliased !== undefined && aliased !== b.bookingRef) throw new RangeError(`property-system id ${effect.bookingId} names another booking`);
        await this.ledger.post(b.agentGroupId, b.ledgerEntryId, effect.bookingId, at);
        this.aliases.set(key(b.agentGroupId, effect.bookingId), b.bookingRef);
        return;
      }
      case 'release':
        await this.ledger.release(b.agentGroupId, b.ledgerEntryId, at);
        return;
      case 'refund':
        await this.ledger.recordPosted(effect.entry);
        return;
      case 'inventory': {
        const moves = stayMoves(b, effect.direction === 'take' ? -1 : 1);
        this.unitMoves.push(...moves);
        this.catalogue?.moveUnits(moves, at);
        return;
      }
    }
  }
}

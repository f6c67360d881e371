import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bookingAudit } from '../../../domain/bookings/booking-audit.ts';
import type { Booking } from '../../../domain/bookings/booking.ts';
import { CreditDeniedError } from '../../../domain/ledger/credit-errors.ts';
import { authorizedEntry, exposureOf, postedEntry, type CreditTerms } from '../../../domain/ledger/ledger.ts';
import type { BookingStore } from '../../../domain/ports/booking-store.ts';
import type { CreditLedger, IdempotencyClaim } from '../../../domain/ports/credit-ledger.ts';
import { testOrigin } from '../audit-origin.ts';
import { bookingFixture, type BookingOwner } from '../booking-seed.ts';

export interface BookingStoreSubject {
  readonly store: BookingStore;
  /** The ledger the store's gate and effects write to. */
  readonly ledger: CreditLedger;
  /** A new agent group with these terms. */
  newGroup(terms: CreditTerms): Promise<BookingOwner>;
}

const T0 = Date.parse('2027-01-10T09:00:00.000Z');
const at = (second: number): string => new Date(T0 + second * 1000).toISOString();

/** A PROCESSING booking as the gate opens it, with its AUTHORIZED charge and claim. */
function opening(owner: BookingOwner, overrides: Partial<Booking> = {}) {
  const booking = bookingFixture(owner, {
    status: 'PROCESSING',
    bookingId: null,
    confirmedAt: null,
    nextCheckAt: at(0),
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  });
  const entry = authorizedEntry(
    { agentGroupId: owner.agentGroupId, type: 'CHARGE', amount: booking.amount, externalBookingId: booking.externalBookingId, description: 'Booking' },
    booking.ledgerEntryId,
    new Date(at(0)),
  );
  const claim: IdempotencyClaim = {
    externalBookingId: booking.externalBookingId,
    contentHash: `hash-${booking.externalBookingId}`,
    bookingRef: booking.bookingRef,
  };
  return { booking, entry, claim, audit: bookingAudit(testOrigin(), randomUUID(), at(0), 'booking.created', null, booking) };
}

export async function opened(store: BookingStore, owner: BookingOwner, overrides: Partial<Booking> = {}): Promise<Booking> {
  const o = opening(owner, overrides);
  await store.open(o.booking, o.entry, o.claim, o.audit);
  return o.booking;
}

const next = (b: Booking, changes: Partial<Booking>, second: number): Booking => ({ ...b, ...changes, updatedAt: at(second), version: b.version + 1 });

/**
 * The BookingStore port's contract, run against every adapter (as creditLedgerContract): the
 * in-memory one in the unit tier, DynamoBookingStore on DynamoDB Local. What the booking
 * workflow relies on: the gate opens the booking with its charge or not at all, a write
 * lands only from the version stored, and a step's ledger half moves with it exactly once.
 * The daily inventory's half and races between processes stay in the DynamoDB tests.
 */
export function bookingStoreContract(adapter: string, subject: () => Promise<BookingStoreSubject>): void {
  describe(`BookingStore contract: ${adapter}`, () => {
    it('opens a PROCESSING booking with its authorization and claim; a replay of the key writes nothing and names the first', async () => {
      const { store, ledger, newGroup } = await subject();
      const owner = await newGroup({ creditLimit: 100_000_00, onHold: false });
      const first = opening(owner);

      const auth = await store.open(first.booking, first.entry, first.claim, first.audit);
      const replayBooking = { ...first.booking, bookingRef: randomUUID(), ledgerEntryId: randomUUID() };
      const replay = await store.open(
        replayBooking,
        { ...first.entry, id: replayBooking.ledgerEntryId },
        { ...first.claim, bookingRef: replayBooking.bookingRef },
        first.audit,
      );

      expect(auth).toMatchObject({ replay: false, bookingRef: first.booking.bookingRef, entry: first.entry });
      expect(replay).toMatchObject({ replay: true, bookingRef: first.booking.bookingRef });
      expect(await store.get(owner.agentGroupId, first.booking.bookingRef)).toEqual(first.booking);
      expect(await store.get(owner.agentGroupId, replayBooking.bookingRef)).toBeUndefined();
      expect(await store.findClaim(owner.agentGroupId, first.booking.externalBookingId)).toEqual({
        contentHash: first.claim.contentHash,
        bookingRef: first.booking.bookingRef,
      });
      expect(await ledger.getEntry(owner.agentGroupId, first.entry.id)).toEqual(first.entry);
      expect((await ledger.creditPosition(owner.agentGroupId))?.exposure).toBe(first.booking.amount);
    });

    it('refuses a booking past the credit limit, storing neither the booking nor its claim nor a charge', async () => {
      const { store, ledger, newGroup } = await subject();
      const owner = await newGroup({ creditLimit: 1_000_00, onHold: false });
      const over = opening(owner, { amount: 10_500_00 });

      await expect(store.open(over.booking, over.entry, over.claim, over.audit)).rejects.toBeInstanceOf(CreditDeniedError);

      expect(await store.get(owner.agentGroupId, over.booking.bookingRef)).toBeUndefined();
      expect(await store.findClaim(owner.agentGroupId, over.booking.externalBookingId)).toBeUndefined();
      expect(await ledger.getEntry(owner.agentGroupId, over.entry.id)).toBeUndefined();
      expect((await ledger.creditPosition(owner.agentGroupId))?.exposure).toBe(0);
    });

    it('replaces a booking only from the version stored: a stale writer is told so and changes nothing', async () => {
      const { store, newGroup } = await subject();
      const owner = await newGroup({ creditLimit: 100_000_00, onHold: false });
      const b = await opened(store, owner);
      const rescheduled = next(b, { nextCheckAt: at(30) }, 1);

      const won = await store.update(b, rescheduled);
      const stale = await store.update(b, next(b, { status: 'FAILED' }, 2));

      expect([won, stale]).toEqual([true, false]);
      expect(await store.get(owner.agentGroupId, b.bookingRef)).toEqual(rescheduled);
    });

    it('lands a booking with its charge posted to the property-system id, and fails another with its authorization released, exposure moved once', async () => {
      const { store, ledger, newGroup } = await subject();
      const owner = await newGroup({ creditLimit: 100_000_00, onHold: false });
      const kept = await opened(store, owner, { amount: 10_500_00 });
      const dropped = await opened(store, owner, { amount: 21_000_00 });
      const bookingId = `PS-${randomUUID().slice(0, 8)}`;

      const landed = await store.update(kept, next(kept, { status: 'CONFIRMED', bookingId, confirmedAt: at(5), nextCheckAt: null }, 5), {
        kind: 'land',
        bookingId,
      });
      const failed = await store.update(dropped, next(dropped, { status: 'FAILED', nextCheckAt: null }, 6), { kind: 'release' });

      expect([landed, failed]).toEqual([true, true]);
      expect(await ledger.getEntry(owner.agentGroupId, kept.ledgerEntryId)).toMatchObject({ status: 'POSTED', bookingId });
      expect(await ledger.getEntry(owner.agentGroupId, dropped.ledgerEntryId)).toMatchObject({ status: 'RELEASED' });
      expect((await store.get(owner.agentGroupId, kept.bookingRef))?.status).toBe('CONFIRMED');
      const audit = await ledger.audit(owner.agentGroupId);
      expect([audit.exposureCounter, exposureOf(audit.entries)]).toEqual([10_500_00, 10_500_00]);
    });

    it("records a cancellation's refund with the booking, once", async () => {
      const { store, ledger, newGroup } = await subject();
      const owner = await newGroup({ creditLimit: 100_000_00, onHold: false });
      const b = await opened(store, owner, { amount: 10_500_00 });
      const bookingId = `PS-${randomUUID().slice(0, 8)}`;
      const confirmed = next(b, { status: 'CONFIRMED', bookingId, confirmedAt: at(5), nextCheckAt: null }, 5);
      await store.update(b, confirmed, { kind: 'land', bookingId });
      const refund = postedEntry(
        {
          agentGroupId: owner.agentGroupId,
          type: 'REFUND',
          amount: -5_250_00,
          bookingId,
          externalBookingId: b.externalBookingId,
          description: 'Cancellation refund (50 %)',
        },
        randomUUID(),
        new Date(at(9)),
      );

      const cancelled = await store.update(confirmed, next(confirmed, { status: 'CANCELLED' }, 9), { kind: 'refund', entry: refund });
      const again = await store.update(confirmed, next(confirmed, { status: 'CANCELLED' }, 10), { kind: 'refund', entry: refund });

      expect([cancelled, again]).toEqual([true, false]);
      expect(await ledger.getEntry(owner.agentGroupId, refund.id)).toEqual(refund);
      const audit = await ledger.audit(owner.agentGroupId);
      expect([audit.exposureCounter, exposureOf(audit.entries)]).toEqual([5_250_00, 5_250_00]);
    });

    it("lists a group's due bookings oldest first, up to the limit, leaving out those not due or with nothing to do", async () => {
      const { store, newGroup } = await subject();
      const owner = await newGroup({ creditLimit: 100_000_00, onHold: false });
      const later = await opened(store, owner, { nextCheckAt: at(3), amount: 1_050_00 });
      const soonest = await opened(store, owner, { nextCheckAt: at(1), amount: 1_050_00 });
      const second = await opened(store, owner, { nextCheckAt: at(2), amount: 1_050_00 });
      const idle = await opened(store, owner, { amount: 1_050_00 });
      await store.update(idle, next(idle, { nextCheckAt: null }, 1));

      const due = await store.listDue(at(2), 10, owner.agentGroupId);
      const all = await store.listDue(at(3), 10, owner.agentGroupId);
      const first = await store.listDue(at(5), 1, owner.agentGroupId);

      expect(due.map((b) => b.bookingRef)).toEqual([soonest.bookingRef, second.bookingRef]);
      expect(first.map((b) => b.bookingRef)).toEqual([soonest.bookingRef]);
      expect(all.map((b) => b.bookingRef)).toEqual([soonest.bookingRef, second.bookingRef, later.bookingRef]);
    });
  });
}

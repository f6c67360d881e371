import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { amendmentAudit } from '../../../domain/bookings/booking-audit.ts';
import { NO_AMENDMENT_STEPS, stayMoves, type Amendment, type StaySnapshot } from '../../../domain/bookings/amendment.ts';
import type { Booking } from '../../../domain/bookings/booking.ts';
import { emptyStoredCatalogue, type StoredCatalogue } from '../../../domain/catalogue/catalogue-diff.ts';
import type { PropertyMonth } from '../../../domain/catalogue/day.ts';
import { postedEntry, type CreditTerms } from '../../../domain/ledger/ledger.ts';
import type { AmendmentStore, UnitMove } from '../../../domain/ports/amendment-store.ts';
import type { BookingStore } from '../../../domain/ports/booking-store.ts';
import type { CreditLedger } from '../../../domain/ports/credit-ledger.ts';
import { testOrigin } from '../audit-origin.ts';
import type { BookingOwner } from '../booking-seed.ts';
import { opened } from './booking-store-contract.ts';

export interface AmendmentStoreSubject {
  readonly store: AmendmentStore;
  /** The bookings the amendments belong to, and the ledger their adjustments post to. */
  readonly bookings: BookingStore;
  readonly ledger: CreditLedger;
  /** A new agent group with these terms. */
  newGroup(terms: CreditTerms): Promise<BookingOwner>;
  /** Catalogue records as CatalogueStore.save writes them (the nights' units), and the months as stored. */
  saveCatalogue(writes: StoredCatalogue): Promise<void>;
  months(refs: readonly { propertyId: string; month: string }[]): Promise<PropertyMonth[]>;
}

const T0 = Date.parse('2027-01-10T09:00:00.000Z');
const at = (second: number): string => new Date(T0 + second * 1000).toISOString();
const TERMS: CreditTerms = { creditLimit: 100_000_00, onHold: false };

const stayOf = (b: Booking, checkOut = b.checkOut): StaySnapshot => ({
  checkIn: b.checkIn,
  checkOut,
  request: { listingId: b.listingId, checkIn: b.checkIn, checkOut, adults: 2, selectedProperties: b.selectedProperties },
  selectedProperties: b.selectedProperties,
  items: b.items,
  summary: b.summary,
  additionalGuests: b.additionalGuests,
});

/** A PENDING amendment of the booking moving its checkOut one night later (2027-03-03 → 03-04), due at `due`. */
function amendmentOf(b: Booking, overrides: Partial<Amendment> = {}): Amendment {
  return {
    amendmentId: randomUUID(),
    agentGroupId: b.agentGroupId,
    partnerId: b.partnerId,
    bookingRef: b.bookingRef,
    bookingId: b.bookingId ?? `PS-${b.bookingRef.slice(0, 8)}`,
    externalBookingId: b.externalBookingId,
    listingId: b.listingId,
    contentHash: `hash-${randomUUID()}`,
    status: 'PENDING',
    before: stayOf(b),
    after: stayOf(b, '2027-03-04'),
    money: { previousTotal: b.chargedTotal, amendmentDelta: 5_250_00, rateDriftAbsorbed: 0, newTotal: b.chargedTotal + 5_250_00, delta: 5_250_00 },
    warnings: [],
    callbackUrl: null,
    adjustmentEntryId: randomUUID(),
    steps: NO_AMENDMENT_STEPS,
    failure: null,
    createdAt: at(1),
    appliedAt: null,
    nextCheckAt: at(60),
    updatedAt: at(1),
    version: 1,
    ...overrides,
  };
}

const step = (a: Amendment, changes: Partial<Amendment>, second: number): Amendment => ({ ...a, ...changes, updatedAt: at(second), version: a.version + 1 });
const bookingStep = (b: Booking, changes: Partial<Booking>, second: number): Booking => ({ ...b, ...changes, updatedAt: at(second), version: b.version + 1 });

/** A night's units as stored, one property month of March 2027 (days "01"… → quantity). */
function march(propertyId: string, units: Record<string, number>): PropertyMonth {
  const day = (quantity: number) => ({
    inventory: { quantity, minimumStay: 1, maximumStay: 14, stopSell: false },
    rates: {},
    createdAt: at(0),
    updatedAt: at(0),
  });
  return { propertyId, month: '2027-03', days: Object.fromEntries(Object.entries(units).map(([dd, q]) => [dd, day(q)])) };
}

/**
 * The AmendmentStore port's contract, run against every adapter (as creditLedgerContract):
 * InMemoryAmendmentStore in the unit tier, DynamoAmendmentStore on DynamoDB Local. What the
 * amendment workflow relies on: one amendment in flight per booking, every write only from the
 * version stored (and, with the booking, only from the booking's), the units and the money
 * moving with the rows or not at all, and settling frees the booking. The races the
 * transactions settle stay in the DynamoDB tests.
 */
export function amendmentStoreContract(adapter: string, subject: () => Promise<AmendmentStoreSubject>): void {
  describe(`AmendmentStore contract: ${adapter}`, () => {
    /** A booking on a listing of its own (so its units are its own), stored at version 1. */
    async function booked(s: AmendmentStoreSubject, owner: BookingOwner, overrides: Partial<Booking> = {}): Promise<Booking> {
      const listingId = `villa-${randomUUID().slice(0, 8)}`;
      return opened(s.bookings, owner, { listingId, selectedProperties: [{ propertyId: `${listingId}-suite`, quantity: 1 }], ...overrides });
    }
    const begun = async (s: AmendmentStoreSubject, a: Amendment, bookingVersion = 1) =>
      s.store.begin(a, bookingVersion, amendmentAudit(testOrigin(), randomUUID(), a));

    it('begins one amendment per booking, holding its lock, and only while the booking is at the version read', async () => {
      const s = await subject();
      const owner = await s.newGroup(TERMS);
      const b = await booked(s, owner);
      const first = amendmentOf(b);
      const second = amendmentOf(b, { createdAt: at(2), updatedAt: at(2) });
      const other = await booked(s, owner);

      const results = [await begun(s, first), await begun(s, second), await begun(s, amendmentOf(other), 2)];

      expect(results).toEqual(['created', 'locked', 'moved']);
      expect(await s.store.get(b.agentGroupId, b.bookingRef, first.amendmentId)).toEqual(first);
      expect(await s.store.get(b.agentGroupId, b.bookingRef, second.amendmentId)).toBeUndefined();
      expect(await s.store.lockOf(b.agentGroupId, b.bookingRef)).toEqual({ amendmentId: first.amendmentId, contentHash: first.contentHash });
      expect(await s.store.list(b.agentGroupId, b.bookingRef)).toEqual([first]);
      expect(await s.store.lockOf(other.agentGroupId, other.bookingRef)).toBeUndefined();
      expect(await s.store.list(other.agentGroupId, other.bookingRef)).toEqual([]);
    });

    it('saves only from the version stored; settling frees the booking for the next amendment, listed oldest first', async () => {
      const s = await subject();
      const b = await booked(s, await s.newGroup(TERMS));
      const first = amendmentOf(b);
      await begun(s, first);
      const refused = step(first, { status: 'REFUSED', nextCheckAt: null }, 5);

      const results = [await s.store.save(first, step(first, { nextCheckAt: at(90) }, 4)), await s.store.save(first, refused)];
      const stored = (await s.store.get(b.agentGroupId, b.bookingRef, first.amendmentId))!;
      const stillLocked = await s.store.lockOf(b.agentGroupId, b.bookingRef);
      const settled = await s.store.save(stored, { ...refused, version: stored.version + 1 });
      const next = amendmentOf(b, { createdAt: at(10), updatedAt: at(10) });

      expect(results).toEqual([true, false]);
      expect(stored).toMatchObject({ status: 'PENDING', nextCheckAt: at(90), version: 2 });
      expect(stillLocked?.amendmentId).toBe(first.amendmentId);
      expect(settled).toBe(true);
      expect(await s.store.lockOf(b.agentGroupId, b.bookingRef)).toBeUndefined();
      expect(await begun(s, next)).toBe('created');
      expect((await s.store.list(b.agentGroupId, b.bookingRef)).map((a) => [a.amendmentId, a.status, a.version])).toEqual([
        [first.amendmentId, 'REFUSED', 3],
        [next.amendmentId, 'PENDING', 1],
      ]);
    });

    it('rewrites the amendment, the booking and the units together; a moved booking or amendment writes none of them', async () => {
      const s = await subject();
      const b = await booked(s, await s.newGroup(TERMS));
      const propertyId = b.selectedProperties[0]!.propertyId;
      await s.saveCatalogue({ ...emptyStoredCatalogue(), months: [march(propertyId, { '01': 3, '02': 3, '03': 2 })] });
      const a = amendmentOf(b);
      await begun(s, a);
      // The stay keeps 1–2 March and takes the 3rd: only the new night moves.
      const moves: UnitMove[] = [...stayMoves(b, 1), ...stayMoves({ ...b, checkOut: '2027-03-04' }, -1)];
      const rewritten = step(a, { steps: { ...a.steps, rowsRewritten: true } }, 6);
      const nextBooking = bookingStep(b, { checkOut: '2027-03-04', amendingId: a.amendmentId }, 6);

      const staleBooking = await s.store.rewrite(a, rewritten, { ...b, version: 7 }, { ...nextBooking, version: 8 }, moves, true);
      const unitsAfterRefusal = await s.months([{ propertyId, month: '2027-03' }]);
      const done = await s.store.rewrite(a, rewritten, b, nextBooking, moves, true);
      const again = await s.store.rewrite(a, rewritten, b, nextBooking, moves, true);

      expect([staleBooking, done, again]).toEqual(['moved', 'done', 'moved']);
      expect(['01', '02', '03'].map((dd) => unitsAfterRefusal[0]!.days[dd]!.inventory!.quantity)).toEqual([3, 3, 2]);
      expect(await s.store.get(a.agentGroupId, a.bookingRef, a.amendmentId)).toEqual(rewritten);
      expect(await s.bookings.get(b.agentGroupId, b.bookingRef)).toEqual(nextBooking);
      const [month] = await s.months([{ propertyId, month: '2027-03' }]);
      expect(['01', '02', '03'].map((dd) => month!.days[dd]!.inventory!.quantity)).toEqual([3, 3, 1]);
      expect(month!.days['03']!.updatedAt).toBe(rewritten.updatedAt);
    });

    it('refuses a rewrite that would oversell a night, writing nothing; without the refusal a short night goes to zero and a night without inventory is left alone', async () => {
      const s = await subject();
      const owner = await s.newGroup(TERMS);
      const b = await booked(s, owner);
      const c = await booked(s, owner);
      const [pb, pc] = [b.selectedProperties[0]!.propertyId, c.selectedProperties[0]!.propertyId];
      await s.saveCatalogue({ ...emptyStoredCatalogue(), months: [march(pb, { '03': 0 }), march(pc, { '03': 0 })] });
      const [ab, ac] = [amendmentOf(b), amendmentOf(c)];
      await begun(s, ab);
      await begun(s, ac);
      const take = (x: Booking): UnitMove[] => [...stayMoves(x, 1), ...stayMoves({ ...x, checkOut: '2027-03-04' }, -1)];

      const refused = await s.store.rewrite(ab, step(ab, {}, 6), b, bookingStep(b, {}, 6), take(b), true);
      const clamped = await s.store.rewrite(ac, step(ac, {}, 6), c, bookingStep(c, {}, 6), take(c), false);

      expect([refused, clamped]).toEqual(['oversold', 'done']);
      expect(await s.store.get(b.agentGroupId, b.bookingRef, ab.amendmentId)).toEqual(ab);
      expect(await s.bookings.get(b.agentGroupId, b.bookingRef)).toEqual(b);
      const months = await s.months([
        { propertyId: pb, month: '2027-03' },
        { propertyId: pc, month: '2027-03' },
      ]);
      expect(months.map((m) => [m.propertyId, Object.keys(m.days), m.days['03']!.inventory!.quantity]).sort()).toEqual(
        [
          [pb, ['03'], 0],
          [pc, ['03'], 0],
        ].sort(),
      );
    });

    it('adjusts with the ADJUSTMENT through the credit gate: posted with the rows, refused past the limit with the figures, once only', async () => {
      const s = await subject();
      // Three bookings (31,500 authorized) and room for the charge and its rerun, not for 1,00,000.
      const owner = await s.newGroup({ creditLimit: 50_000_00, onHold: false });
      const [b, c, d] = [await booked(s, owner), await booked(s, owner), await booked(s, owner)];
      const exposure = async () => (await s.ledger.creditPosition(owner.agentGroupId))!.exposure;
      const before = await exposure();
      const adjustment = (a: Amendment, amount: number) =>
        postedEntry(
          {
            agentGroupId: a.agentGroupId,
            type: 'ADJUSTMENT',
            amount,
            bookingId: a.bookingId,
            externalBookingId: a.externalBookingId,
            description: 'Amendment',
          },
          a.adjustmentEntryId,
          new Date(at(7)),
        );
      const [ab, ac, ad] = [amendmentOf(b), amendmentOf(c), amendmentOf(d)];
      for (const a of [ab, ac, ad]) await begun(s, a);
      const applied = (a: Amendment) => step(a, { status: 'APPLIED', appliedAt: at(7), nextCheckAt: null }, 7);

      const charged = await s.store.adjust(ab, applied(ab), b, bookingStep(b, { chargedTotal: b.chargedTotal + 5_250_00 }, 7), adjustment(ab, 5_250_00));
      const rerun = await s.store.adjust(
        applied(ab),
        step(applied(ab), {}, 8),
        bookingStep(b, {}, 7),
        bookingStep(bookingStep(b, {}, 7), {}, 8),
        adjustment(ab, 5_250_00),
      );
      const overLimit = await s.store.adjust(ac, applied(ac), c, bookingStep(c, {}, 7), adjustment(ac, 100_000_00));
      const credited = await s.store.adjust(ad, applied(ad), d, bookingStep(d, { chargedTotal: d.chargedTotal - 1_000_00 }, 7), adjustment(ad, -1_000_00));

      expect(charged).toEqual({ kind: 'done' });
      expect(rerun).toEqual({ kind: 'moved' });
      expect(overLimit).toMatchObject({ kind: 'refused', decision: { approved: false, reasonCode: 'CREDIT_LIMIT_EXCEEDED' } });
      expect(credited).toEqual({ kind: 'done' });
      expect(await exposure()).toBe(before + 5_250_00 - 1_000_00);
      expect(await s.ledger.getEntry(owner.agentGroupId, ab.adjustmentEntryId)).toEqual(adjustment(ab, 5_250_00));
      expect(await s.ledger.getEntry(owner.agentGroupId, ac.adjustmentEntryId)).toBeUndefined();
      expect(await s.store.get(c.agentGroupId, c.bookingRef, ac.amendmentId)).toEqual(ac);
      expect(await s.bookings.get(c.agentGroupId, c.bookingRef)).toEqual(c);
      expect(await s.store.get(b.agentGroupId, b.bookingRef, ab.amendmentId)).toEqual(applied(ab));
      expect((await s.bookings.get(b.agentGroupId, b.bookingRef))?.chargedTotal).toBe(b.chargedTotal + 5_250_00);
      expect(await s.store.lockOf(b.agentGroupId, b.bookingRef)).toBeUndefined();
      expect(await s.store.lockOf(c.agentGroupId, c.bookingRef)).toEqual({ amendmentId: ac.amendmentId, contentHash: ac.contentHash });
    });

    it('adjusts with no entry when the money does not move, still only from the versions stored', async () => {
      const s = await subject();
      const b = await booked(s, await s.newGroup(TERMS));
      const a = amendmentOf(b, { money: { previousTotal: b.chargedTotal, amendmentDelta: 0, rateDriftAbsorbed: 0, newTotal: b.chargedTotal, delta: 0 } });
      await begun(s, a);
      const next = step(a, { status: 'APPLIED', appliedAt: at(7), nextCheckAt: null }, 7);

      const results = [
        await s.store.adjust(a, next, { ...b, version: 4 }, bookingStep({ ...b, version: 4 }, {}, 7), null),
        await s.store.adjust(a, next, b, bookingStep(b, {}, 7), null),
      ];

      expect(results).toEqual([{ kind: 'moved' }, { kind: 'done' }]);
      expect(await s.store.get(a.agentGroupId, a.bookingRef, a.amendmentId)).toEqual(next);
      expect((await s.bookings.get(b.agentGroupId, b.bookingRef))?.version).toBe(2);
    });

    it('lists the amendments due, oldest first, within a group when asked, and none that settled', async () => {
      const s = await subject();
      const owner = await s.newGroup(TERMS);
      const other = await s.newGroup(TERMS);
      const [b1, b2, b3, o] = [await booked(s, owner), await booked(s, owner), await booked(s, owner), await booked(s, other)];
      const late = amendmentOf(b1, { nextCheckAt: at(300) });
      const early = amendmentOf(b2, { nextCheckAt: at(100) });
      const settling = amendmentOf(b3, { nextCheckAt: at(50) });
      const others = amendmentOf(o, { nextCheckAt: at(200) });
      for (const a of [late, early, settling, others]) await begun(s, a);
      await s.store.save(settling, step(settling, { status: 'REFUSED', nextCheckAt: null }, 9));

      const due = await s.store.listDue(at(300), 10, owner.agentGroupId);
      const dueBefore = await s.store.listDue(at(299), 10, owner.agentGroupId);
      const first = await s.store.listDue(at(300), 1, owner.agentGroupId);
      const othersDue = await s.store.listDue(at(300), 10, other.agentGroupId);

      expect(due.map((a) => a.amendmentId)).toEqual([early.amendmentId, late.amendmentId]);
      expect(dueBefore.map((a) => a.amendmentId)).toEqual([early.amendmentId]);
      expect(first.map((a) => a.amendmentId)).toEqual([early.amendmentId]);
      expect(othersDue).toEqual([others]);
    });
  });
}

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emptyStoredCatalogue, type StoredCatalogue } from '../../../domain/catalogue/catalogue-diff.ts';
import type { SimulatorBehaviour } from '../../../domain/catalogue/simulator.ts';
import type { ModificationRequest, PropertySystem, ReservationRequest } from '../../../domain/ports/property-system.ts';
import type { BookingScenario, SandboxScenarioBook } from '../../../domain/sandbox/workflow-scenarios.ts';
import type { SimulatorTimings } from '../../../infra/property-system/simulated-property-system.ts';
import type { ManualClock } from '../memory/in-memory-test-clock-store.ts';

/** The timings both adapters are built with: CONFIRM_AFTER seconds run ten times faster, a 60 s booking window. */
export const CONTRACT_TIMINGS: SimulatorTimings = { timeScale: 10, windowSeconds: 60, syncWaitMs: 1_000 };

export interface PropertySystemSubject {
  /** Built with CONTRACT_TIMINGS on `clock`; the simulator is also where a sandbox request records its scenario. */
  readonly system: PropertySystem & SandboxScenarioBook;
  readonly clock: ManualClock;
  /** Catalogue records as CatalogueStore.save writes them (the listings' simulator behaviours). */
  saveCatalogue(writes: StoredCatalogue): Promise<void>;
}

const NOW = '2027-01-10T09:00:00.000Z';
const plus = (ms: number): string => new Date(Date.parse(NOW) + ms).toISOString();

/** A listing of its own with this behaviour; its id. */
async function listing(s: PropertySystemSubject, behaviour: Partial<Omit<SimulatorBehaviour, 'listingId'>> = {}): Promise<string> {
  const listingId = `villa-${randomUUID().slice(0, 8)}`;
  const simulator = { listingId, mode: 'CONFIRM_IMMEDIATELY', confirmAfterSeconds: 0, refusesChanges: false, cannotModify: false, ...behaviour } as const;
  await s.saveCatalogue({ ...emptyStoredCatalogue(), simulators: [{ ...simulator, createdAt: NOW, updatedAt: NOW }] });
  return listingId;
}

/** A new booking's reservation request; with a scenario, forced first as a sandbox request's booking store does. */
async function reservation(s: PropertySystemSubject, listingId: string, scenario?: BookingScenario): Promise<ReservationRequest> {
  const bookingRef = randomUUID();
  if (scenario) await s.system.force(bookingRef, scenario);
  return {
    bookingRef,
    listingId,
    checkIn: '2027-03-01',
    checkOut: '2027-03-03',
    selectedProperties: [{ propertyId: `${listingId}-suite`, quantity: 1 }],
    primaryGuest: { firstName: 'Asha', lastName: 'Rao' },
    requestedAt: s.clock.now().toISOString(),
  };
}

const change = (r: ReservationRequest, key: string, overrides: Partial<ModificationRequest> = {}): ModificationRequest => ({
  bookingRef: r.bookingRef,
  listingId: r.listingId,
  key,
  kind: 'amend',
  checkIn: r.checkIn,
  checkOut: '2027-03-04',
  selectedProperties: r.selectedProperties,
  ...overrides,
});

/**
 * The PropertySystem port's contract for the project's simulator, run against every adapter
 * (as creditLedgerContract): InMemoryPropertySystem in the unit tier, SimulatedPropertySystem
 * on DynamoDB Local. What the booking and amendment workflows rely on: a reservation placed
 * once per booking, its state from the listing's behaviour or the sandbox scenario forced for
 * that booking, on the clock given, and a modification answered once per key (a scenario forced
 * for that key refusing it).
 */
export function propertySystemContract(adapter: string, subject: () => Promise<PropertySystemSubject>): void {
  describe(`PropertySystem contract: ${adapter}`, () => {
    it('reserves once per booking: the same booking id however often it is asked, and PENDING with no hint for a booking never placed', async () => {
      const s = await subject();
      s.clock.set(NOW);
      const r = await reservation(s, await listing(s));

      const first = await s.system.reserve(r);
      const again = await s.system.reserve({ ...r, listingId: await listing(s, { mode: 'NEVER_CONFIRM' }) });

      expect(first).toEqual({ state: 'CONFIRMED', bookingId: expect.stringMatching(/^SIM-[0-9A-F]{12}$/) });
      expect(again).toEqual(first);
      expect(await s.system.status(r.bookingRef)).toEqual(first);
      expect(await s.system.status(randomUUID())).toEqual({ state: 'PENDING', checkAgainAt: null });
    });

    it("lands as the listing's behaviour says, on the clock given: after the scaled wait, or never; a scenario overrides the behaviour", async () => {
      const s = await subject();
      s.clock.set(NOW);
      const after = await reservation(s, await listing(s, { mode: 'CONFIRM_AFTER', confirmAfterSeconds: 30 }));
      const never = await reservation(s, await listing(s, { mode: 'NEVER_CONFIRM' }));
      const failed = await reservation(s, await listing(s), 'booking-failed');
      const processing = await reservation(s, await listing(s), 'booking-processing');

      const placed = [await s.system.reserve(after), await s.system.reserve(never), await s.system.reserve(failed), await s.system.reserve(processing)];
      s.clock.advance(2_999);
      const early = await s.system.status(after.bookingRef);
      s.clock.advance(1);
      const landed = [await s.system.status(after.bookingRef), await s.system.status(processing.bookingRef)];
      s.clock.advance(3_600_000);
      const later = [await s.system.status(never.bookingRef), await s.system.status(failed.bookingRef)];

      expect(placed).toEqual([
        { state: 'PENDING', checkAgainAt: plus(3_000) },
        { state: 'PENDING', checkAgainAt: null },
        { state: 'PENDING', checkAgainAt: null },
        { state: 'PENDING', checkAgainAt: plus(2_500) },
      ]);
      expect(early).toEqual({ state: 'PENDING', checkAgainAt: plus(3_000) });
      expect(landed.map((l) => l.state)).toEqual(['CONFIRMED', 'CONFIRMED']);
      expect(later).toEqual([
        { state: 'PENDING', checkAgainAt: null },
        { state: 'PENDING', checkAgainAt: null },
      ]);
    });

    it('booking-late: pending with no hint through the window; the first look past it fixes the landing half a window later', async () => {
      const s = await subject();
      s.clock.set(NOW);
      const r = await reservation(s, await listing(s), 'booking-late');
      await s.system.reserve(r);

      s.clock.advance(59_000);
      const inWindow = await s.system.status(r.bookingRef);
      s.clock.advance(2_000);
      const firstLook = await s.system.status(r.bookingRef);
      s.clock.advance(10_000);
      const secondLook = await s.system.status(r.bookingRef);
      s.clock.advance(20_000);
      const landed = await s.system.status(r.bookingRef);

      expect(inWindow).toEqual({ state: 'PENDING', checkAgainAt: null });
      expect(firstLook).toEqual({ state: 'PENDING', checkAgainAt: plus(91_000) });
      expect(secondLook).toEqual(firstLook);
      expect(landed).toMatchObject({ state: 'CONFIRMED' });
    });

    it('answers a modification once per key, refusing as the listing or the scenario says; a restore is never refused', async () => {
      const s = await subject();
      s.clock.set(NOW);
      const open = await reservation(s, await listing(s));
      const refusing = await reservation(s, await listing(s, { refusesChanges: true }));
      const fixed = await reservation(s, await listing(s, { cannotModify: true }));
      const sandbox = await reservation(s, await listing(s));
      for (const r of [open, refusing, fixed, sandbox]) await s.system.reserve(r);

      const accepted = await s.system.modify(change(open, 'a1'));
      // The listing starts refusing: the key already answered keeps its answer, a new key gets the new one.
      await s.saveCatalogue({
        ...emptyStoredCatalogue(),
        simulators: [
          {
            listingId: open.listingId,
            mode: 'CONFIRM_IMMEDIATELY',
            confirmAfterSeconds: 0,
            refusesChanges: true,
            cannotModify: false,
            createdAt: NOW,
            updatedAt: NOW,
          },
        ],
      });
      const replayed = await s.system.modify(change(open, 'a1', { checkOut: '2027-03-09' }));
      const nowRefused = await s.system.modify(change(open, 'a2'));
      const refusedKey = randomUUID();
      await s.system.force(refusedKey, 'amendment-refused');
      const scenario = await s.system.modify(change(sandbox, refusedKey));
      const otherKey = await s.system.modify(change(sandbox, 'd2', { checkOut: '2027-03-05' }));
      const refused = await s.system.modify(change(refusing, 'b1'));
      const restored = await s.system.modify(change(refusing, 'b2', { kind: 'restore' }));
      const cannot = await s.system.modify(change(fixed, 'c1'));

      expect(accepted).toEqual({ accepted: true });
      expect(replayed).toEqual({ accepted: true });
      expect(nowRefused).toMatchObject({ accepted: false, reasonCode: 'CHANNEL_REFUSED' });
      expect(scenario).toMatchObject({ accepted: false, reasonCode: 'CHANNEL_REFUSED' });
      // The scenario was forced for one amendment (its key): another change of the same reservation is accepted.
      expect(otherKey).toEqual({ accepted: true });
      expect(refused).toMatchObject({ accepted: false, reasonCode: 'CHANNEL_REFUSED' });
      expect(restored).toEqual({ accepted: true });
      expect(cannot).toMatchObject({ accepted: false, reasonCode: 'CHANNEL_CANNOT_MODIFY', reason: expect.any(String) });
      expect([await s.system.canModify(open.listingId), await s.system.canModify(fixed.listingId)]).toEqual([true, false]);
    });

    it('reads back the scenario recorded under a key, none under another; the channel accepts an amendment-fails modification (it fails after the channel)', async () => {
      const s = await subject();
      s.clock.set(NOW);
      const r = await reservation(s, await listing(s));
      await s.system.reserve(r);
      const failsKey = randomUUID();

      await s.system.force(failsKey, 'amendment-fails');
      const answer = await s.system.modify(change(r, failsKey));

      expect(await s.system.forced(failsKey)).toBe('amendment-fails');
      expect(await s.system.forced(randomUUID())).toBeUndefined();
      expect(answer).toEqual({ accepted: true });
    });

    it('cancels a reservation, and a second cancellation does nothing; forgetting a guest keeps nothing to forget', async () => {
      const s = await subject();
      s.clock.set(NOW);
      const r = await reservation(s, await listing(s));
      const placed = await s.system.reserve(r);

      await s.system.cancel(r.bookingRef, plus(1_000));
      await s.system.cancel(r.bookingRef, plus(2_000));
      await s.system.forgetGuest(r.bookingRef, { firstName: 'Erased' });

      expect(await s.system.reserve(r)).toEqual(placed);
    });
  });
}

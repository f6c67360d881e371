import type { AdjustOutcome, AmendmentStore } from '../ports/amendment-store.ts';
import type { BookingStore } from '../ports/booking-store.ts';

/**
 * Sandbox scenarios of the booking and amendment workflows (docs/sandbox.md). They act long
 * after the request (a worker may look at a booking minutes later, the sweeper may finish an
 * amendment), so the request records them with the simulated property system, keyed by the
 * booking or the amendment, and whoever acts answers by that record: the simulator for the
 * channel's answers, the amendment store's `adjust` for `amendment-fails`. The booking and
 * amendment records and use cases carry none (docs/decisions/sandbox.md).
 */
export const BOOKING_SCENARIOS = ['booking-processing', 'booking-failed', 'booking-late'] as const;
export type BookingScenario = (typeof BOOKING_SCENARIOS)[number];

export const AMENDMENT_SCENARIOS = ['amendment-refused', 'amendment-fails'] as const;
export type AmendmentScenario = (typeof AMENDMENT_SCENARIOS)[number];

/** The scenarios a request records for a booking or an amendment. */
export type ForcedScenario = BookingScenario | AmendmentScenario;

/**
 * Where a request records the scenario to follow for one booking (its bookingRef) or one
 * amendment (its amendmentId, the modification's key). Only sandbox stages build one; the
 * record expires on its own.
 */
export interface SandboxScenarioBook {
  force(key: string, scenario: ForcedScenario): Promise<void>;
  /** The scenario recorded under `key`, if any (read consistently: it was written by an earlier request). */
  forced(key: string): Promise<ForcedScenario | undefined>;
}

/** `store` whose `method` first records `scenario` under the key its first argument names (the new record's id), then runs. */
function forcingFirst<S extends object, A extends [unknown, ...unknown[]], R>(
  store: S,
  method: (...args: A) => Promise<R>,
  name: string,
  keyOf: (first: A[0]) => string,
  force: (key: string) => Promise<void>,
): S {
  return Object.assign(Object.create(store) as S, {
    [name]: async (...args: A) => {
      await force(keyOf(args[0]));
      return method.apply(store, args);
    },
  });
}

/**
 * The dependencies of a booking request asking for `scenario`: the booking store records it
 * under the new booking's bookingRef before the booking is written, so a failed `open` leaves
 * an unused, expiring record, never a booking without its scenario. Unchanged without one; the
 * book is built only when a scenario is asked for.
 */
export function withBookingScenario<D extends { readonly bookings: BookingStore }>(
  deps: D,
  scenario: BookingScenario | undefined,
  book: () => SandboxScenarioBook,
): D {
  if (!scenario) return deps;
  const b = deps.bookings;
  return {
    ...deps,
    bookings: forcingFirst(
      b,
      b.open,
      'open',
      (booking) => booking.bookingRef,
      (key) => book().force(key, scenario),
    ),
  };
}

/** What `adjust` answers for an amendment recorded as `amendment-fails`: the step after the channel could not be completed. */
export const AMENDMENT_FAILS: AdjustOutcome = { kind: 'failed', reason: 'Sandbox scenario amendment-fails: the step after the channel failed.' };

/**
 * The dependencies of an amendment's steps on a stage that allows sandbox scenarios: the
 * amendment request (with the scenario its header asked for, if any) and the sweeper (none).
 * The amendment store records `scenario` under the amendment's id before the amendment is
 * begun, so a failed `begin` leaves an unused, expiring record: the simulator refuses the
 * modification of an `amendment-refused` one. Its `adjust` answers `failed`, writing nothing,
 * for an amendment recorded as `amendment-fails`, so the use case compensates it; that record
 * is known without a read for the amendment these dependencies began, and read from the book
 * for any other (a resend joining one in flight, the sweeper finishing one whose process died).
 * Production stages never build this: their store never reads the book.
 */
export function withAmendmentScenario<D extends { readonly amendments: AmendmentStore }>(
  deps: D,
  scenario: AmendmentScenario | undefined,
  book: () => SandboxScenarioBook,
): D {
  const store = deps.amendments;
  const begun = new Map<string, AmendmentScenario | undefined>();
  const recorded = async (amendmentId: string) => (begun.has(amendmentId) ? begun.get(amendmentId) : book().forced(amendmentId));
  const amendments: AmendmentStore = Object.assign(Object.create(store) as AmendmentStore, {
    begin: async (...args: Parameters<AmendmentStore['begin']>) => {
      const id = args[0].amendmentId;
      if (scenario) await book().force(id, scenario);
      begun.set(id, scenario);
      return store.begin(...args);
    },
    adjust: async (...args: Parameters<AmendmentStore['adjust']>) =>
      (await recorded(args[0].amendmentId)) === 'amendment-fails' ? AMENDMENT_FAILS : store.adjust(...args),
  });
  return { ...deps, amendments };
}

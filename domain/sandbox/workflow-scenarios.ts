import type { AmendmentStore } from '../ports/amendment-store.ts';
import type { BookingStore } from '../ports/booking-store.ts';

/**
 * Sandbox scenarios of the booking and amendment workflows (docs/sandbox.md). They act in the
 * property system, long after the request (a worker may look at a booking minutes later), so the
 * request records them with the simulated property system, keyed by the booking or the
 * amendment, and the simulator answers by them; the booking and amendment records and use cases
 * carry none (`amendment-fails` is the one exception, docs/decisions/sandbox.md).
 */
export const BOOKING_SCENARIOS = ['booking-processing', 'booking-failed', 'booking-late'] as const;
export type BookingScenario = (typeof BOOKING_SCENARIOS)[number];

export const AMENDMENT_SCENARIOS = ['amendment-refused', 'amendment-fails'] as const;
export type AmendmentScenario = (typeof AMENDMENT_SCENARIOS)[number];

/** The scenarios the simulated property system answers by. */
export type ForcedScenario = BookingScenario | 'amendment-refused';

/**
 * Where a request records the scenario the simulated property system must follow for one
 * booking (its bookingRef) or one amendment (its amendmentId, the modification's key). Only
 * sandbox stages build one; the record expires on its own.
 */
export interface SandboxScenarioBook {
  force(key: string, scenario: ForcedScenario): Promise<void>;
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

/**
 * The dependencies of an amendment request asking for `amendment-refused`: the amendment store
 * records it under the amendment's id before the amendment is begun, and the simulator refuses
 * that modification. `amendment-fails` is not here: it acts after the channel, in the use case.
 */
export function withAmendmentScenario<D extends { readonly amendments: AmendmentStore }>(
  deps: D,
  scenario: AmendmentScenario | undefined,
  book: () => SandboxScenarioBook,
): D {
  if (scenario !== 'amendment-refused') return deps;
  const a = deps.amendments;
  return {
    ...deps,
    amendments: forcingFirst(
      a,
      a.begin,
      'begin',
      (amendment) => amendment.amendmentId,
      (key) => book().force(key, scenario),
    ),
  };
}

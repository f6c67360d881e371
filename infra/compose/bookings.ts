/**
 * The bookings area's wiring: orders, bookings and amendments (the bookings function, the booking
 * workflow and its sweeper) and the erasure of guest data (the daily job, the admin tool).
 * Handlers import this module and `core.ts`, never another area's (docs/decisions/platform.md, "Composition per area").
 */
import type { AmendDeps } from '../../domain/bookings/amend-booking.ts';
import type { CancelDeps } from '../../domain/bookings/cancel-booking.ts';
import type { PlaceBookingDeps } from '../../domain/bookings/place-booking.ts';
import type { GuestErasureDeps } from '../../domain/guests/erase-guest-data.ts';
import type { OrderDeps } from '../../domain/orders/manage-orders.ts';
import { withAmendmentScenario, type AmendmentScenario } from '../../domain/sandbox/workflow-scenarios.ts';
import { sha256Hex } from '../crypto/api-keys.ts';
import { derivedId } from '../crypto/derived-id.ts';
import type { Services } from './core.ts';
import { bookingCallbackPublisher } from './deliveries.ts';

/** What erasing guest data needs: the daily job and the admin tool's `guests erase`. */
export function guestErasureDeps(svc: Services): GuestErasureDeps {
  return {
    bookings: svc.bookings,
    bookingReads: svc.bookingReads,
    amendments: svc.amendments,
    deliveries: svc.deliveries,
    orders: svc.orders,
    propertySystem: svc.propertySystem,
    guestData: svc.guestData,
    tenants: svc.tenants,
    clock: svc.clock,
    ids: svc.ids,
    retentionDays: svc.config.guestRetentionDays,
  };
}

/** What the order endpoints need: catalogue reads, the order store, clock, ids and the courtesy window. */

export function orderDeps(svc: Services): OrderDeps {
  return { catalogue: svc.catalogue, clock: svc.clock, orders: svc.orders, ids: svc.ids, orderValidityMinutes: svc.config.orderValidityMinutes };
}

/** Booking, cancellation, amendments, the workflow worker and the sweeper share one set of dependencies. */
export type BookingDeps = PlaceBookingDeps & CancelDeps & AmendDeps;

export function bookingDeps(svc: Services): BookingDeps {
  return {
    ...orderDeps(svc),
    bookings: svc.bookings,
    bookingReads: svc.bookingReads,
    amendments: svc.amendments,
    queue: svc.bookingQueue,
    propertySystem: svc.propertySystem,
    ledger: svc.ledger,
    urlGuard: svc.urlGuard,
    timings: { windowSeconds: svc.config.booking.windowSeconds, watchSeconds: svc.config.booking.watchSeconds },
    syncWaitMs: svc.config.booking.syncWaitMs,
    publishCallback: bookingCallbackPublisher(svc),
    metrics: svc.metrics,
    derivedId,
    sha256: sha256Hex,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

/**
 * bookingDeps for whatever drives an amendment's steps: the amendment request (with the scenario
 * its X-Test-Scenario asked for) and the sweeper. On stages that allow sandbox scenarios the
 * amendment store follows the scenario book (withAmendmentScenario); production stages get
 * bookingDeps as it is, whose store never reads the book.
 */
export function amendingDeps(svc: Services, scenario?: AmendmentScenario): BookingDeps {
  const deps = bookingDeps(svc);
  return svc.config.isSandbox ? withAmendmentScenario(deps, scenario, () => svc.scenarioBook) : deps;
}

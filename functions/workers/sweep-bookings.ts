import { sweepAmendments } from '../../domain/bookings/amend-booking.ts';
import { sweepBookings } from '../../domain/bookings/sweep-bookings.ts';
import { amendingDeps } from '../../infra/compose/bookings.ts';
import { groupClocks, services, wire } from '../../infra/compose/core.ts';
import { logger } from '../../infra/logger.ts';
import { bookingAdapters } from '../../infra/compose/adapters/bookings.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(bookingAdapters);

/**
 * Scheduled every minute; also invocable by hand (offline's Lambda port:
 * POST /2015-03-31/functions/<service>-<stage>-sweepBookings/invocations).
 * Advances bookings whose workflow is overdue, and amendments left part-way, each on its
 * group's clock (a sandbox test clock, if the group has one).
 */
export const handler = async () => {
  const svc = services();
  // amendingDeps: an amendment whose request asked for a sandbox scenario follows it here too.
  const deps = { ...amendingDeps(svc), groups: groupClocks(svc, amendingDeps) };
  const [bookings, amendments] = await Promise.all([sweepBookings(deps), sweepAmendments(deps)]);
  logger.info('booking sweep', { ...bookings, amendmentsLooked: amendments.looked, amendmentsFailed: amendments.failed });
  return { ...bookings, amendments };
};

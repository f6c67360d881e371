import { sweepBookings } from '../../domain/bookings/sweep-bookings.ts';
import { bookingDeps, services } from '../../infra/container.ts';
import { logger } from '../../infra/logger.ts';

/**
 * Scheduled every minute; also invocable by hand (offline's Lambda port:
 * POST /2015-03-31/functions/<service>-<stage>-sweepBookings/invocations).
 * Advances bookings whose workflow is overdue.
 */
export const handler = async () => {
  const result = await sweepBookings(bookingDeps(services()));
  logger.info('booking sweep', { ...result });
  return result;
};

import { eraseExpiredGuestData } from '../../domain/guests/erase-guest-data.ts';
import { groupClocks, services, wire } from '../../infra/compose/core.ts';
import { guestErasureDeps } from '../../infra/compose/bookings.ts';
import { logger } from '../../infra/logger.ts';
import { bookingAdapters } from '../../infra/compose/adapters/bookings.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(bookingAdapters);

/**
 * Scheduled once a day after midnight India time; also invocable by hand (offline's Lambda
 * port: POST /2015-03-31/functions/<service>-<stage>-eraseGuestData/invocations). Erases the
 * guest data of every booking whose retention (GUEST_RETENTION_DAYS after check-out or
 * cancellation) ran out, in bounded batches (docs/personal-data.md), on each group's clock (a
 * sandbox test clock, if the group has one). Only ids reach the log.
 */
export const handler = async () => {
  const svc = services();
  const result = await eraseExpiredGuestData({ ...guestErasureDeps(svc), groups: groupClocks(svc, guestErasureDeps) }, (address, error) =>
    logger.error('guest data erasure failed; the next run retries', { ...address, error: error instanceof Error ? error.name : String(error) }),
  );
  logger.info('guest data retention run', { ...result });
  return result;
};

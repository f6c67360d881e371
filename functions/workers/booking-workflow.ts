import type { SQSRecord } from 'aws-lambda';
import { concurrentRecords } from './sqs-batch.ts';
import { handleBookingCheck, type WorkflowDeps } from '../../domain/bookings/workflow.ts';
import { decodeBookingCheck } from '../../events/booking-check-message.ts';
import { bookingDeps } from '../../infra/compose/bookings.ts';
import { groupServices, services, type Services, wire } from '../../infra/compose/core.ts';
import { logger } from '../../infra/logger.ts';
import { bookingAdapters } from '../../infra/compose/adapters/bookings.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(bookingAdapters);

/**
 * SQS consumer of the booking workflow queue: each message is "look at booking R, due at
 * D". A record that throws is reported in batchItemFailures so SQS redelivers it; the
 * steps it had taken are durable and are not repeated.
 */
async function handleRecord(svc: Services, record: SQSRecord): Promise<void> {
  const check = decodeBookingCheck(record.body);
  if (!check) throw new Error('not a booking check message');
  // The workflow runs at the group's sandbox test clock, if it has one.
  const deps: WorkflowDeps = bookingDeps(await groupServices(svc, check.agentGroupId));
  const report = await handleBookingCheck(deps, check);
  logger.info('booking check handled', { bookingRef: check.bookingRef, agentGroupId: check.agentGroupId, report });
}

export const handler = concurrentRecords('booking check', services, handleRecord);

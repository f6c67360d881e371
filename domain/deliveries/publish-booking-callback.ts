import type { BookingCallbackEventType, BookingCallbackOutcome } from './booking-callback.ts';
import type { DeliveryDeps } from './deps.ts';
import type { CallbackDelivery } from './delivery.ts';
import { firstAttempt } from './publish-catalogue-events.ts';
import { attemptDueAt, CALLBACK_SCHEDULE_SECONDS } from './schedule.ts';

export type PublishCallbackDeps = Pick<DeliveryDeps, 'deliveries' | 'queue' | 'clock' | 'random' | 'timeScale' | 'encodeCallback'>;

export interface PublishCallbackResult {
  /** False when a delivery for this event already existed: the call changed nothing. */
  readonly created: boolean;
  /** Whether the first attempt's message was queued now; when not, the sweeper queues it. */
  readonly queued: boolean;
}

/** The status each event reports; the body carries both, so they must agree. */
const STATUS_OF: Record<BookingCallbackEventType, BookingCallbackOutcome['status']> = {
  'booking.confirmed': 'CONFIRMED',
  'booking.failed': 'FAILED',
  'booking.cancelled': 'CANCELLED',
  'booking.amended': 'CONFIRMED',
};

/**
 * A callback delivery's id is its event id. The workflow keeps the event id stable for one
 * outcome of one booking, so "one delivery per outcome" is the table's own key uniqueness:
 * a second publish of the same outcome meets the first delivery and leaves it alone.
 */
export const callbackDeliveryId = (eventId: string): string => eventId;

/** The workflow's outcome must be one the body can say truthfully; a mismatch is a bug upstream, not a partner error. */
function checkOutcome(o: BookingCallbackOutcome): void {
  const problems = [
    o.eventId.trim() === '' && 'eventId is empty',
    o.bookingRef.trim() === '' && 'bookingRef is empty',
    o.callbackUrl.trim() === '' && 'callbackUrl is empty',
    Number.isNaN(Date.parse(o.occurredAt)) && 'occurredAt is not an instant',
    STATUS_OF[o.eventType] !== o.status && `status ${o.status} does not match ${o.eventType}`,
    o.status === 'FAILED' && o.reasonCode === null && 'a failure needs a reasonCode',
    o.status !== 'FAILED' && o.reasonCode !== null && 'reasonCode is non-null only on failure',
    (o.eventType === 'booking.amended') !== (o.amendment !== undefined) && 'the amendment fields go with booking.amended and only with it',
  ].filter((p): p is string => typeof p === 'string');
  if (problems.length > 0) throw new TypeError(`booking callback ${o.eventId}: ${problems.join('; ')}`);
}

/**
 * Publishes one booking outcome to the booking's callbackUrl: a durable PENDING delivery
 * of kind 'callback', body fixed now, then the first attempt's message. Idempotent on the
 * outcome's eventId: a workflow step that runs twice creates one delivery, and the second
 * call reports `created: false` and queues nothing. A message that could not be queued is
 * not lost: the delivery is PENDING and overdue, which is what the sweeper re-queues.
 */
export async function publishBookingCallback(deps: PublishCallbackDeps, outcome: BookingCallbackOutcome): Promise<PublishCallbackResult> {
  checkOutcome(outcome);
  const now = deps.clock.now();
  const at = now.toISOString();
  const delivery: CallbackDelivery = {
    deliveryId: callbackDeliveryId(outcome.eventId),
    kind: 'callback',
    partnerId: outcome.partnerId,
    agentGroupId: outcome.agentGroupId,
    bookingRef: outcome.bookingRef,
    callbackUrl: outcome.callbackUrl,
    eventId: outcome.eventId,
    eventType: outcome.eventType,
    payload: deps.encodeCallback(outcome),
    status: 'PENDING',
    attempts: [],
    nextAttemptAt: attemptDueAt(now, 1, deps.timeScale, deps.random, CALLBACK_SCHEDULE_SECONDS).toISOString(),
    failureReason: null,
    resendOf: null,
    requeues: 0,
    createdAt: at,
    updatedAt: at,
  };
  if (!(await deps.deliveries.createOnce(delivery))) return { created: false, queued: false };
  const { failed } = await deps.queue.send([firstAttempt(delivery, now)]);
  return { created: true, queued: failed === 0 };
}

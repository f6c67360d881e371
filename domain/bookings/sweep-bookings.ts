import { depsOfGroup, dueAcrossClocks, type AtGroupClocks } from '../test-clocks/group-clocks.ts';
import { advanceBooking, type WorkflowDeps } from './workflow.ts';

/**
 * How far past its due time a booking must be before the sweeper believes its message was
 * lost. Not divided by any time scale: it must outlast a queue hop and a cold start.
 */
export const BOOKING_SWEEP_GRACE_SECONDS = 60;
export const BOOKING_SWEEP_BATCH = 100;

export interface BookingSweepResult {
  readonly looked: number;
  readonly failed: number;
}

/**
 * Finds bookings whose workflow is overdue (the POST that started it died, a message was
 * lost, a worker crashed between steps and its redelivery ran out) and advances them
 * here. Safe beside the worker: every step is a conditional write. A booking of a group on a
 * sandbox test clock is found when it is overdue on that clock and advanced at the clock's time.
 */
export async function sweepBookings(deps: AtGroupClocks<WorkflowDeps>, opts: { limit?: number; graceSeconds?: number } = {}): Promise<BookingSweepResult> {
  const graceMs = (opts.graceSeconds ?? BOOKING_SWEEP_GRACE_SECONDS) * 1000;
  const due = await dueAcrossClocks(
    deps,
    ({ at, agentGroupId }) =>
      deps.bookings.listDue(new Date(at.clock.now().getTime() - graceMs).toISOString(), opts.limit ?? BOOKING_SWEEP_BATCH, agentGroupId),
    (b) => `${b.agentGroupId}#${b.bookingRef}`,
  );
  // Counted even when zero, so the alarm on it sees a steady series rather than gaps.
  deps.metrics.count('OverdueBookings', due.length);
  const settled = await Promise.allSettled(due.map(async (b) => advanceBooking(await depsOfGroup(deps, b.agentGroupId), b.agentGroupId, b.bookingRef)));
  return { looked: due.length, failed: settled.filter((s) => s.status === 'rejected').length };
}

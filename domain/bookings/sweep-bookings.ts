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
 * here. Safe beside the worker: every step is a conditional write.
 */
export async function sweepBookings(deps: WorkflowDeps, opts: { limit?: number; graceSeconds?: number } = {}): Promise<BookingSweepResult> {
  const now = deps.clock.now().getTime();
  const dueBefore = new Date(now - (opts.graceSeconds ?? BOOKING_SWEEP_GRACE_SECONDS) * 1000).toISOString();
  const due = await deps.bookings.listDue(dueBefore, opts.limit ?? BOOKING_SWEEP_BATCH);
  // Counted even when zero, so the alarm on it sees a steady series rather than gaps.
  deps.metrics.count('OverdueBookings', due.length);
  const settled = await Promise.allSettled(due.map((b) => advanceBooking(deps, b.agentGroupId, b.bookingRef)));
  return { looked: due.length, failed: settled.filter((s) => s.status === 'rejected').length };
}

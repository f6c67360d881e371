import { DELIVERY_METRICS } from './attempt-delivery.ts';
import type { DeliveryDeps } from './deps.ts';

export type SweepDeps = Pick<DeliveryDeps, 'deliveries' | 'queue' | 'clock' | 'metrics'>;

/**
 * How far past its due time a PENDING delivery must be before the sweeper believes its
 * message was lost. Not divided by the time scale: it must outlast a queue hop, a cold
 * start and a send at any scale, and a scheduled sweep on a test stage must not race the
 * worker.
 */
export const SWEEP_GRACE_SECONDS = 120;

/** Re-queues without a recorded attempt in between before the delivery is given up as FAILED. */
export const MAX_REQUEUES = 5;

/** Deliveries handled per run; the next run takes the rest. */
export const SWEEP_BATCH = 500;

export interface SweepResult {
  readonly requeued: number;
  readonly abandoned: number;
  readonly notQueued: number;
}

/**
 * Finds PENDING deliveries well past their due time (their message was lost: a failed
 * SendMessage, a crash between recording and queuing, a message dropped by a local
 * poller) and queues their next attempt again. Safe beside the worker: the re-queued
 * message carries the attempt number the record expects, so if the original turns up
 * after all, only one of the two gets to send.
 */
export async function sweepDeliveries(deps: SweepDeps, opts: { limit?: number } = {}): Promise<SweepResult> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - SWEEP_GRACE_SECONDS * 1000).toISOString();
  const overdue = await deps.deliveries.listOverdue(cutoff, opts.limit ?? SWEEP_BATCH);
  // Counted even when zero, so the alarm on it sees a steady series rather than gaps.
  deps.metrics.count('OverdueDeliveries', overdue.length);
  let requeued = 0;
  let abandoned = 0;
  const commands = [];
  for (const d of overdue) {
    if (d.requeues >= MAX_REQUEUES) {
      if (await deps.deliveries.abandon(d, `Re-queued ${MAX_REQUEUES} times without an attempt being recorded; given up.`, now.toISOString())) {
        abandoned += 1;
        deps.metrics.count(DELIVERY_METRICS[d.kind].failed);
      }
      continue;
    }
    if (!(await deps.deliveries.markRequeued(d, now.toISOString()))) continue;
    requeued += 1;
    commands.push({ command: { kind: d.kind, partnerId: d.partnerId, deliveryId: d.deliveryId, attempt: d.attempts.length + 1 }, delaySeconds: 0 });
  }
  const { failed } = await deps.queue.send(commands);
  return { requeued, abandoned, notQueued: failed };
}

import { NotFoundError } from '../errors.ts';
import type { BillingRunLog, FanOutProgress } from '../ports/billing-fan-out.ts';

/** Time as a follower lives it: read and waited out through one seam, so a test decides how fast it passes. */
export interface Waiting {
  /** Milliseconds on any monotonic scale. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

/**
 * Where a run over every group stands. It has ended when every group has an outcome: COMPLETED
 * when none failed, FAILED when any group's latest attempt failed. A failed group's message
 * may still be delivered again (up to five receives, half an hour apart on a cloud stage), but
 * the run's answer is due now: the operator learns of the failure, and `billing runs --run`
 * shows a later redelivery's success.
 */
export type RunState = 'RUNNING' | 'COMPLETED' | 'FAILED';

export const runStateOf = (p: FanOutProgress): RunState => (p.pending > 0 ? 'RUNNING' : p.failed > 0 ? 'FAILED' : 'COMPLETED');

export interface FollowOptions {
  /** Between two reads of the run log. */
  readonly everyMs: number;
  /** The whole wait: past it the follower stops with the run still RUNNING. */
  readonly timeoutMs: number;
  /** Each reading that differs from the one before (the first included). */
  readonly onChange?: (p: FanOutProgress, elapsedMs: number) => void;
}

export interface Followed {
  readonly progress: FanOutProgress;
  readonly state: RunState;
  /** The wait ran out with groups still pending. */
  readonly timedOut: boolean;
}

/** What changes a reading's meaning (not the run's fixed fields), so an unchanged run prints nothing. */
const readingOf = (p: FanOutProgress): string =>
  JSON.stringify([p.billed, p.upToDate, p.failed, p.pending, p.invoicesIssued, p.failures.map((f) => [f.agentGroupId, f.attempts])]);

/**
 * Reads a run's record until every group has an outcome or the wait runs out. The run log is
 * the only source: the workers that bill the groups may be anywhere (Lambda, another machine),
 * and a follower that stops (timeout, Ctrl-C) changes nothing about the run.
 */
export async function followBillingRun(
  deps: { readonly billingRuns: Pick<BillingRunLog, 'progress'>; readonly waiting: Waiting },
  runId: string,
  opts: FollowOptions,
): Promise<Followed> {
  const started = deps.waiting.now();
  let last: string | undefined;
  for (;;) {
    const progress = await deps.billingRuns.progress(runId);
    if (!progress) throw new NotFoundError('Billing run');
    const elapsed = deps.waiting.now() - started;
    const reading = readingOf(progress);
    if (reading !== last) opts.onChange?.(progress, elapsed);
    last = reading;
    const state = runStateOf(progress);
    if (state !== 'RUNNING') return { progress, state, timedOut: false };
    if (elapsed >= opts.timeoutMs) return { progress, state, timedOut: true };
    await deps.waiting.sleep(Math.min(opts.everyMs, opts.timeoutMs - elapsed));
  }
}

/**
 * When each delivery attempt is due. Offsets are measured from the event (the delivery's
 * creation), not from the previous attempt, so a slow receiver does not stretch the whole
 * sequence (docs/product-rules.md "Webhooks and callbacks").
 */

/** Attempt N (1-based) is due about this many seconds after the event. */
export const CATALOGUE_SCHEDULE_SECONDS = [0, 30, 120, 600, 1800, 3600, 10_800, 21_600] as const;

/**
 * Booking callbacks (docs/product-rules.md "Webhooks and callbacks"): 0, 1 min, 5 min, 15 min,
 * 1 h 15 min, 4 h 15 min after the outcome; the sixth attempt is the last.
 */
export const CALLBACK_SCHEDULE_SECONDS = [0, 60, 300, 900, 4500, 15_300] as const;

/** A callback gets exactly one attempt per scheduled offset, then is FAILED. */
export const CALLBACK_MAX_ATTEMPTS = CALLBACK_SCHEDULE_SECONDS.length;

/**
 * Endpoints may ask for up to 15 attempts while the product names 8 offsets; each attempt
 * past the 8th comes this long after the one before it, so 15 attempts span two days.
 */
export const CATALOGUE_TAIL_GAP_SECONDS = 21_600;

/** ±10 % around each offset, so a burst of deliveries to one receiver does not retry in lockstep. */
export const JITTER = 0.1;

/** SQS refuses DelaySeconds above this; longer waits are chained (see `delaySecondsUntil`). */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** Seconds after the event at which attempt `attempt` is due, before jitter and time scale. */
export function nominalOffsetSeconds(attempt: number, schedule: readonly number[] = CATALOGUE_SCHEDULE_SECONDS): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  const last = schedule.length;
  if (attempt <= last) return schedule[attempt - 1]!;
  return schedule[last - 1]! + (attempt - last) * CATALOGUE_TAIL_GAP_SECONDS;
}

/**
 * The instant attempt `attempt` is due: the nominal offset with ±10 % jitter, divided by
 * the time scale (1 in production; large on test stages so a whole sequence takes seconds).
 * `random` is uniform in [0, 1); `schedule` is the catalogue's unless a callback asks for its own.
 */
export function attemptDueAt(
  eventAt: Date,
  attempt: number,
  timeScale: number,
  random: () => number,
  schedule: readonly number[] = CATALOGUE_SCHEDULE_SECONDS,
): Date {
  const factor = 1 + JITTER * (2 * random() - 1);
  const offsetMs = (nominalOffsetSeconds(attempt, schedule) * 1000 * factor) / timeScale;
  return new Date(eventAt.getTime() + Math.round(offsetMs));
}

/**
 * How long a message should wait in the queue so it arrives no earlier than `dueAt`:
 * whole seconds (SQS's unit) rounded up, capped at the SQS maximum. A message that arrives
 * with time still to go re-enqueues itself with the remainder, so a six-hour gap is a
 * chain of 900 s hops and no attempt is ever sent early.
 */
export function delaySecondsUntil(dueAt: Date, now: Date): number {
  const remainingMs = dueAt.getTime() - now.getTime();
  if (remainingMs <= 0) return 0;
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil(remainingMs / 1000));
}

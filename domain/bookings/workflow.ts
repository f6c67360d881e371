import type { BookingCallbackEventType, BookingCallbackOutcome } from '../deliveries/booking-callback.ts';
import { delaySecondsUntil } from '../deliveries/schedule.ts';
import type { BookingEffect, BookingQueue, BookingStore } from '../ports/booking-store.ts';
import type { Clock } from '../ports/clock.ts';
import type { MetricName, Metrics } from '../ports/metrics.ts';
import { channelStayOf, type PropertySystem, type ReservationState } from '../ports/property-system.ts';
import { systemOrigin, type AuditDraft } from '../audit/audit-event.ts';
import type { Booking } from './booking.ts';
import { bookingAudit } from './booking-audit.ts';

/** The booking workflow's clock, from configuration (docs/product-rules.md "Bookings"). */
export interface WorkflowTimings {
  readonly windowSeconds: number;
  readonly watchSeconds: number;
}

export interface WorkflowDeps {
  readonly bookings: BookingStore;
  readonly queue: BookingQueue;
  readonly propertySystem: PropertySystem;
  readonly clock: Clock;
  readonly timings: WorkflowTimings;
  /** Hands a terminal outcome to the callback delivery engine; idempotent on outcome.eventId. */
  readonly publishCallback: (outcome: BookingCallbackOutcome) => Promise<unknown>;
  /** A UUID fixed by `name`: the same outcome of the same booking always gets the same event id. */
  readonly derivedId: (name: string) => string;
  /** Confirmations and failures are counted here, once each, when their write wins. */
  readonly metrics: Metrics;
  /**
   * Test seam for crash injection: called after each step is durable, with the step's
   * name; a throw there is a worker dying between that step and the next.
   */
  readonly afterStep?: (step: WorkflowStep) => void | Promise<void>;
}

export type WorkflowStep = 'landed' | 'failed' | 'cancelled' | 'inventory-taken' | 'inventory-returned' | 'callback-published' | 'rescheduled';

/** What one look at a booking decided: a write to make (with its effect), or nothing. */
export type Decision =
  | { readonly kind: 'write'; readonly step: WorkflowStep; readonly next: Booking; readonly effect?: BookingEffect }
  | { readonly kind: 'publish'; readonly eventType: BookingCallbackEventType }
  | { readonly kind: 'idle' };

const plusMs = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();
const minIso = (a: string, b: string): string => (a < b ? a : b);

/** While PROCESSING without a hint from the property system: about 30 looks per window, at least a second apart. */
export const processingPollMs = (t: WorkflowTimings): number => Math.max(1000, (t.windowSeconds * 1000) / 30);
/** After a failure without a hint: about 24 looks over the watch, at least a second apart. */
export const watchPollMs = (t: WorkflowTimings): number => Math.max(1000, (t.watchSeconds * 1000) / 24);

/** The callback an outcome owes, if the booking has a callbackUrl and it is not yet published. */
function owedCallback(b: Booking): BookingCallbackEventType | undefined {
  if (!b.callbackUrl) return undefined;
  const owed: BookingCallbackEventType[] = [];
  // A booking that failed and then landed owes both, in that order (docs/callbacks.md: the later outcome is the truth).
  if (b.failure) owed.push('booking.failed');
  if (b.status === 'CONFIRMED' || b.status === 'CANCELLED') owed.push('booking.confirmed');
  if (b.status === 'CANCELLED') owed.push('booking.cancelled');
  return owed.find((t) => !b.steps.callbacksPublished.includes(t));
}

/** Whether anything after the outcome is still to do; settled bookings leave the open-work index. */
function pendingAfterOutcome(b: Booking): boolean {
  if (b.status === 'CONFIRMED' && !b.steps.inventoryTaken) return true;
  if (b.status === 'CANCELLED' && b.steps.inventoryTaken && !b.steps.inventoryReturned) return true;
  return owedCallback(b) !== undefined;
}

/**
 * nextCheckAt after a write: now while steps remain, the next watch while a failed booking
 * may still land, otherwise null (settled).
 */
function nextCheck(b: Booking, now: string, t: WorkflowTimings): string | null {
  if (pendingAfterOutcome(b)) return now;
  if (b.status === 'FAILED' && now < b.watchUntil) return minIso(plusMs(now, watchPollMs(t)), b.watchUntil);
  return null;
}

type WriteDecision = Extract<Decision, { kind: 'write' }>;

const touched = (b: Booking, changes: Partial<Booking>, now: string): Booking => ({ ...b, ...changes, updatedAt: now, version: b.version + 1 });

/**
 * Moves only the due time: version up (the write is conditional like any other), updatedAt
 * kept, so a look that changed nothing a partner can see does not move the booking in the feed.
 */
const reschedule = (b: Booking, nextCheckAt: string | null): WriteDecision => ({
  kind: 'write',
  step: 'rescheduled',
  next: { ...b, nextCheckAt, version: b.version + 1 },
});

/** Applies changes and recomputes nextCheckAt for what is left. */
function write(step: WorkflowStep, b: Booking, changes: Partial<Booking>, now: string, t: WorkflowTimings, effect?: BookingEffect): WriteDecision {
  const next = touched(b, changes, now);
  return { kind: 'write', step, next: { ...next, nextCheckAt: nextCheck(next, now, t) }, ...(effect ? { effect } : {}) };
}

/**
 * The workflow's rule, pure: given the booking, the time and (when the booking is waiting
 * on the property system) where its reservation stands, the one thing to do next.
 */
export function decide(b: Booking, now: string, t: WorkflowTimings, reservation: ReservationState | undefined): Decision {
  const landing = (bookingId: string): Decision =>
    write('landed', b, { status: 'CONFIRMED', bookingId, confirmedAt: now }, now, t, { kind: 'land', bookingId });

  if (b.status === 'PROCESSING') {
    if (reservation?.state === 'CONFIRMED') return landing(reservation.bookingId);
    if (reservation?.state === 'REFUSED') {
      const failure = {
        reasonCode: 'CHANNEL_REFUSED' as const,
        reason: "The property's channel manager refused the reservation; the credit authorization was released.",
        failedAt: now,
      };
      return write('failed', b, { status: 'FAILED', failure }, now, t, { kind: 'release' });
    }
    if (now >= b.deadline) {
      const failure = {
        reasonCode: 'BOOKING_NOT_COMPLETED' as const,
        reason: 'The property did not confirm the booking within the booking window; the credit authorization was released.',
        failedAt: now,
      };
      return write('failed', b, { status: 'FAILED', failure }, now, t, { kind: 'release' });
    }
    const hint = reservation?.state === 'PENDING' ? reservation.checkAgainAt : null;
    const due = minIso(hint && hint > now ? hint : plusMs(now, processingPollMs(t)), b.deadline);
    // Only move the due time when it has passed: a look that changes nothing else writes nothing.
    if (b.nextCheckAt !== null && b.nextCheckAt > now) return { kind: 'idle' };
    return reschedule(b, due);
  }

  if (b.status === 'CONFIRMED' && !b.steps.inventoryTaken) {
    return write('inventory-taken', b, { steps: { ...b.steps, inventoryTaken: true } }, now, t, { kind: 'inventory', direction: 'take' });
  }
  if (b.status === 'CANCELLED' && b.steps.inventoryTaken && !b.steps.inventoryReturned) {
    return write('inventory-returned', b, { steps: { ...b.steps, inventoryReturned: true } }, now, t, { kind: 'inventory', direction: 'return' });
  }
  const owed = owedCallback(b);
  if (owed) return { kind: 'publish', eventType: owed };

  // A refused reservation cannot land later: nothing left to watch for.
  if (b.status === 'FAILED' && now < b.watchUntil && reservation?.state !== 'REFUSED') {
    if (reservation?.state === 'CONFIRMED') return landing(reservation.bookingId);
    if (b.nextCheckAt !== null && b.nextCheckAt > now) return { kind: 'idle' };
    const hint = reservation?.state === 'PENDING' ? reservation.checkAgainAt : null;
    const due = minIso(hint && hint > now ? hint : plusMs(now, watchPollMs(t)), b.watchUntil);
    return reschedule(b, due);
  }
  // Settled, or a failed booking whose watch is over: leave the open-work index.
  if (b.nextCheckAt !== null) return reschedule(b, null);
  return { kind: 'idle' };
}

/** Whether deciding needs the property system's word: only while waiting for a landing. */
const needsReservation = (b: Booking, now: string): boolean =>
  b.status === 'PROCESSING' || (b.status === 'FAILED' && now < b.watchUntil && owedCallback(b) === undefined);

/** The callback body's outcome fields for a booking's event. */
export function callbackOutcome(b: Booking, eventType: BookingCallbackEventType, eventId: string, now: string): BookingCallbackOutcome {
  const status = eventType === 'booking.failed' ? 'FAILED' : eventType === 'booking.cancelled' ? 'CANCELLED' : 'CONFIRMED';
  const occurredAt =
    eventType === 'booking.failed'
      ? (b.failure?.failedAt ?? now)
      : eventType === 'booking.cancelled'
        ? (b.cancellation?.cancelledAt ?? now)
        : (b.confirmedAt ?? now);
  return {
    eventId,
    eventType,
    bookingRef: b.bookingRef,
    agentGroupId: b.agentGroupId,
    partnerId: b.partnerId,
    callbackUrl: b.callbackUrl!,
    occurredAt,
    status,
    externalBookingId: b.externalBookingId,
    bookingId: b.bookingId,
    reasonCode: eventType === 'booking.failed' ? (b.failure?.reasonCode ?? 'BOOKING_NOT_COMPLETED') : null,
    reason: eventType === 'booking.failed' ? (b.failure?.reason ?? null) : eventType === 'booking.cancelled' ? (b.cancellation?.reason ?? null) : null,
  };
}

/** Steps one look may take before handing the booking back; a booking needs at most five. */
const MAX_STEPS = 12;

/**
 * Moves a booking as far as it can go now: asks the property system when it must, then
 * takes the steps one at a time, each a conditional write. Safe to run twice at once and
 * to rerun after a crash between any two steps: a step already taken is seen in the record
 * and not repeated, a lost race re-reads. Returns the booking as left.
 */
export async function advanceBooking(deps: WorkflowDeps, agentGroupId: string, bookingRef: string, known?: Booking): Promise<Booking | undefined> {
  // A caller that has just written the booking passes it; a stale copy only costs a lost conditional write and a re-read.
  let booking = known ?? (await deps.bookings.get(agentGroupId, bookingRef));
  for (let i = 0; booking && i < MAX_STEPS; i++) {
    const now = deps.clock.now().toISOString();
    const reservation = needsReservation(booking, now) ? await askPropertySystem(deps, booking) : undefined;
    const decision = decide(booking, now, deps.timings, reservation);
    if (decision.kind === 'idle') return booking;
    let step: WriteDecision;
    if (decision.kind === 'publish') {
      await deps.publishCallback(callbackOutcome(booking, decision.eventType, deps.derivedId(`${booking.bookingRef}:${decision.eventType}`), now));
      await deps.afterStep?.('callback-published');
      step = write(
        'callback-published',
        booking,
        { steps: { ...booking.steps, callbacksPublished: [...booking.steps.callbacksPublished, decision.eventType] } },
        now,
        deps.timings,
      );
    } else {
      step = decision;
    }
    booking = await commit(deps, booking, step);
    const due = step.next.nextCheckAt;
    if (booking === step.next && due !== null && due > now) {
      // Whoever writes a future due time sends the message for it (the write is conditional,
      // so only one writer does); a failed send leaves the booking overdue for the sweeper.
      await scheduleCheck(deps, step.next, due);
      return booking;
    }
  }
  return booking;
}

/** Queues the look at `dueAt`, chained in hops of at most 15 minutes by the worker. */
export async function scheduleCheck(deps: Pick<WorkflowDeps, 'queue' | 'clock'>, b: Booking, dueAt: string): Promise<void> {
  await deps.queue.send({ agentGroupId: b.agentGroupId, bookingRef: b.bookingRef, dueAt }, delaySecondsUntil(new Date(dueAt), deps.clock.now()));
}

/** What the worker did with one message; logged, and asserted on by tests. */
export type CheckReport = 'advanced' | 'deferred' | 'superseded' | 'unknown';

/**
 * Handles one "look at booking R at D" message. A message whose due time is no longer the
 * booking's (a later reschedule sent its own) is dropped, so chains never multiply; one
 * that arrives early goes back on the queue for the remainder.
 */
export async function handleBookingCheck(deps: WorkflowDeps, check: { agentGroupId: string; bookingRef: string; dueAt: string }): Promise<CheckReport> {
  const booking = await deps.bookings.get(check.agentGroupId, check.bookingRef);
  if (!booking) return 'unknown';
  const now = deps.clock.now();
  if (booking.nextCheckAt === null || (booking.nextCheckAt !== check.dueAt && booking.nextCheckAt > now.toISOString())) return 'superseded';
  if (check.dueAt > now.toISOString()) {
    await scheduleCheck(deps, booking, check.dueAt);
    return 'deferred';
  }
  await advanceBooking(deps, check.agentGroupId, check.bookingRef);
  return 'advanced';
}

/** The steps that settle an outcome, and what each counts. */
const OUTCOME_METRICS: Partial<Record<WorkflowStep, MetricName>> = { landed: 'BookingConfirmed', failed: 'BookingFailed' };

/** The job the audit trail names for the workflow's own steps (actorKind system). */
export const WORKFLOW_ACTOR = 'booking-workflow';

/**
 * The event of a step that moves money: landing posts the charge (a late landing, after the
 * booking had failed, posts it again), failing releases the hold. Inventory, rescheduling and
 * callback steps move no money and no access, so they write none (docs/audit.md). The ids
 * derive from the booking, the step and the version it is written from: a retried step names
 * the same event.
 */
export function workflowAudit(deps: Pick<WorkflowDeps, 'derivedId'>, current: Booking, decision: WriteDecision): AuditDraft | undefined {
  const effect = decision.effect?.kind;
  if (effect !== 'land' && effect !== 'release') return undefined;
  const action = effect === 'release' ? 'booking.failed' : current.status === 'FAILED' ? 'booking.landed-late' : 'booking.confirmed';
  const name = `${current.bookingRef}:${decision.step}:${current.version}`;
  const origin = systemOrigin(WORKFLOW_ACTOR, deps.derivedId(`${name}:run`));
  return bookingAudit(origin, deps.derivedId(`${name}:audit`), decision.next.updatedAt, action, current, decision.next);
}

/** Writes a decision (with its event when it moves money); on a lost race, the booking as the winner left it. */
async function commit(deps: WorkflowDeps, current: Booking, decision: WriteDecision): Promise<Booking | undefined> {
  if (await deps.bookings.update(current, decision.next, decision.effect, workflowAudit(deps, current, decision))) {
    const counted = OUTCOME_METRICS[decision.step];
    if (counted) deps.metrics.count(counted);
    await deps.afterStep?.(decision.step);
    return decision.next;
  }
  return deps.bookings.get(current.agentGroupId, current.bookingRef);
}

function askPropertySystem(deps: WorkflowDeps, b: Booking): Promise<ReservationState> {
  // Reserving is idempotent on bookingRef, so while PROCESSING every look is a reserve: a
  // crash before the first one reached the property system cannot leave the booking unplaced.
  if (b.status === 'PROCESSING') {
    return deps.propertySystem.reserve({
      bookingRef: b.bookingRef,
      listingId: b.listingId,
      checkIn: b.checkIn,
      checkOut: b.checkOut,
      selectedProperties: b.selectedProperties,
      primaryGuest: b.primaryGuest,
      requestedAt: b.createdAt,
      stay: channelStayOf(b),
    });
  }
  return deps.propertySystem.status(b.bookingRef);
}

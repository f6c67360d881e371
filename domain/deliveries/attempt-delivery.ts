import type { DeliveryCommand } from '../ports/delivery-queue.ts';
import type { AttemptVerdict } from '../ports/delivery-store.ts';
import type { TransportResult } from '../ports/webhook-transport.ts';
import { MAX_ATTEMPTS } from '../webhooks/endpoint.ts';
import type { DeliveryDeps } from './deps.ts';
import { MAX_ATTEMPT_ERROR_LENGTH, type CallbackDelivery, type Delivery, type DeliveryAttempt, type WebhookDelivery } from './delivery.ts';
import { attemptDueAt, CALLBACK_MAX_ATTEMPTS, CALLBACK_SCHEDULE_SECONDS, CATALOGUE_SCHEDULE_SECONDS, delaySecondsUntil } from './schedule.ts';

export type AttemptDeps = Pick<
  DeliveryDeps,
  'deliveries' | 'webhooks' | 'queue' | 'transport' | 'callbackTransport' | 'callbackSecrets' | 'clock' | 'ids' | 'random' | 'timeScale' | 'metrics'
>;

/** The counts one kind of delivery feeds (domain/ports/metrics.ts). */
export const DELIVERY_METRICS = {
  webhook: { attempt: 'WebhookAttempt', failed: 'WebhookPermanentFailure' },
  callback: { attempt: 'CallbackAttempt', failed: 'CallbackPermanentFailure' },
} as const;

/**
 * How long a callback receiver has to answer. Callbacks have no endpoint record to carry
 * a timeout; 10 s is generous for "store it and answer 2xx" and keeps a dead receiver from
 * holding a worker for long.
 */
export const CALLBACK_TIMEOUT_SECONDS = 10;

/** What the worker did with one message; logged, and asserted on by tests. */
export type AttemptReport =
  | { readonly action: 'sent'; readonly attempt: DeliveryAttempt; readonly verdict: AttemptVerdict }
  /** The attempt is not due yet: the message went back on the queue for (part of) the remainder. */
  | { readonly action: 'deferred'; readonly delaySeconds: number }
  /** The delivery ended without sending: its endpoint is gone or disabled, or its group has no signing secret. */
  | { readonly action: 'abandoned'; readonly reason: string }
  /** Nothing to do: unknown delivery, already final, the attempt already made, or another worker holds it. */
  | { readonly action: 'skipped'; readonly reason: 'unknown' | 'final' | 'stale' | 'claimed' };

/**
 * Beyond the endpoint's own timeout, how long a claim holds: enough for the DynamoDB
 * writes around the send. After it lapses a re-queued message may try again.
 */
export const CLAIM_MARGIN_SECONDS = 30;

/**
 * The verdict after an attempt, for catalogue webhooks (docs/webhooks.md): 2xx
 * succeeds; a 4xx is a permanent contract error; a 3xx is a failure and is never
 * followed; a URL the guard refuses will be refused again; 5xx, timeouts and connection
 * errors are retried until the endpoint's maxAttempts.
 */
export function verdictFor(result: TransportResult, attempt: number, maxAttempts: number, nextDueAt: () => Date): AttemptVerdict {
  switch (result.outcome) {
    case 'success':
      return { status: 'SUCCEEDED' };
    case 'permanent':
      return { status: 'FAILED', failureReason: `The receiver answered ${result.statusCode ?? 'with an error'}: a 4xx is permanent and is not retried.` };
    case 'redirect':
      return { status: 'FAILED', failureReason: `The receiver answered ${result.statusCode ?? 'a redirect'}: redirects are never followed.` };
    case 'blocked':
      return { status: 'FAILED', failureReason: result.error ?? 'The endpoint URL was refused by the outbound guard.' };
    case 'retryable': {
      const limit = Math.min(maxAttempts, MAX_ATTEMPTS.max);
      if (attempt >= limit)
        return { status: 'FAILED', failureReason: `No success after ${attempt} attempt${attempt === 1 ? '' : 's'} (the endpoint's maxAttempts is ${limit}).` };
      return { status: 'PENDING', nextAttemptAt: nextDueAt().toISOString() };
    }
  }
}

/**
 * The verdict after a booking callback attempt (docs/callbacks.md): only a 2xx
 * succeeds. Any other answer (a 3xx, never followed; a 4xx, unlike webhooks; a 5xx), a
 * timeout or a connection error is retried on the callback schedule, and after the last
 * scheduled attempt the delivery is FAILED. A URL the guard refuses at send time fails at
 * once: the refusal is a property of where the URL points now, and retrying it would only
 * knock on a private address five more times.
 */
export function callbackVerdictFor(result: TransportResult, attempt: number, nextDueAt: () => Date): AttemptVerdict {
  switch (result.outcome) {
    case 'success':
      return { status: 'SUCCEEDED' };
    case 'blocked':
      return { status: 'FAILED', failureReason: `Not retried: ${result.error ?? 'the callback URL was refused by the outbound guard'}` };
    case 'permanent':
    case 'redirect':
    case 'retryable': {
      if (attempt < CALLBACK_MAX_ATTEMPTS) return { status: 'PENDING', nextAttemptAt: nextDueAt().toISOString() };
      const last = result.error ?? (result.statusCode === undefined ? 'no answer' : `HTTP ${result.statusCode}`);
      return {
        status: 'FAILED',
        failureReason: `No 2xx after ${attempt} attempts, the whole callback schedule (last: ${last}). The booking's outcome stays readable through GET /v1/bookings.`,
      };
    }
  }
}

/** Where one attempt goes and how it is judged, once the delivery's kind is known. */
interface AttemptPlan {
  /** Bounds the send; the claim outlasts it by CLAIM_MARGIN_SECONDS. */
  readonly timeoutSeconds: number;
  readonly send: () => Promise<TransportResult>;
  readonly verdict: (result: TransportResult, attempt: number, nextDueAt: () => Date) => AttemptVerdict;
  readonly schedule: readonly number[];
}

/** A plan for the attempt, or why the delivery must end without one. */
type Planned = { readonly plan: AttemptPlan } | { readonly abandon: string };

async function planWebhook(deps: AttemptDeps, delivery: WebhookDelivery, attempt: number): Promise<Planned> {
  const endpoint = await deps.webhooks.get(delivery.partnerId, delivery.endpointId);
  if (!endpoint) return { abandon: 'The endpoint was deleted; nothing was sent.' };
  if (endpoint.status !== 'ACTIVE') return { abandon: 'The endpoint is DISABLED; nothing was sent.' };
  return {
    plan: {
      timeoutSeconds: endpoint.timeoutSeconds,
      send: () => deps.transport.send(endpoint, delivery, attempt),
      verdict: (result, n, next) => verdictFor(result, n, endpoint.maxAttempts, next),
      schedule: CATALOGUE_SCHEDULE_SECONDS,
    },
  };
}

async function planCallback(deps: AttemptDeps, delivery: CallbackDelivery): Promise<Planned> {
  // Read at every attempt, not at publish: a secret rotated by a key replacement signs the very next attempt.
  const sealed = await deps.callbackSecrets.getCallbackSecret(delivery.agentGroupId);
  if (!sealed) return { abandon: `Agent group ${delivery.agentGroupId} has no callback signing secret (no API key was ever issued to it); nothing was sent.` };
  return {
    plan: {
      timeoutSeconds: CALLBACK_TIMEOUT_SECONDS,
      send: () => deps.callbackTransport.send(delivery, sealed),
      verdict: callbackVerdictFor,
      schedule: CALLBACK_SCHEDULE_SECONDS,
    },
  };
}

const planFor = (deps: AttemptDeps, delivery: Delivery, attempt: number): Promise<Planned> =>
  delivery.kind === 'webhook' ? planWebhook(deps, delivery, attempt) : planCallback(deps, delivery);

const attemptRecord = (attempt: number, at: Date, result: TransportResult): DeliveryAttempt => ({
  attempt,
  at: at.toISOString(),
  outcome: result.outcome,
  ...(result.statusCode === undefined ? {} : { statusCode: result.statusCode }),
  ...(result.error === undefined ? {} : { error: result.error.slice(0, MAX_ATTEMPT_ERROR_LENGTH) }),
  durationMs: result.durationMs,
});

/**
 * Handles one "attempt N of delivery D" message. At-least-once on both sides: a duplicate
 * or late copy finds the attempt count moved on (or the claim held) and does nothing; a
 * message that arrives early goes back on the queue, so nothing is sent before its time.
 */
export async function attemptDelivery(deps: AttemptDeps, command: DeliveryCommand): Promise<AttemptReport> {
  const delivery = await deps.deliveries.get(command.partnerId, command.deliveryId);
  if (!delivery) return { action: 'skipped', reason: 'unknown' };
  if (delivery.status !== 'PENDING') return { action: 'skipped', reason: 'final' };
  if (delivery.attempts.length !== command.attempt - 1) return { action: 'skipped', reason: 'stale' };

  const arrivedAt = deps.clock.now();
  const dueAt = new Date(delivery.nextAttemptAt ?? delivery.createdAt);
  const wait = delaySecondsUntil(dueAt, arrivedAt);
  if (wait > 0) {
    const { failed } = await deps.queue.send([{ command, delaySeconds: wait }]);
    if (failed > 0) throw new Error(`could not re-queue delivery ${delivery.deliveryId} for its due time`);
    return { action: 'deferred', delaySeconds: wait };
  }

  const planned = await planFor(deps, delivery, command.attempt);
  if ('abandon' in planned) {
    if (await deps.deliveries.abandon(delivery, planned.abandon, arrivedAt.toISOString())) deps.metrics.count(DELIVERY_METRICS[delivery.kind].failed);
    return { action: 'abandoned', reason: planned.abandon };
  }
  const { plan } = planned;

  const claimId = deps.ids.uuid();
  const claimUntil = new Date(arrivedAt.getTime() + (plan.timeoutSeconds + CLAIM_MARGIN_SECONDS) * 1000);
  if (!(await deps.deliveries.claim(delivery, claimId, claimUntil.toISOString(), arrivedAt.toISOString()))) return { action: 'skipped', reason: 'claimed' };

  const startedAt = deps.clock.now();
  const result = await plan.send();
  const finishedAt = deps.clock.now();
  const attempt = attemptRecord(command.attempt, startedAt, result);
  const eventAt = new Date(delivery.createdAt);
  const verdict = plan.verdict(result, command.attempt, () => {
    const due = attemptDueAt(eventAt, command.attempt + 1, deps.timeScale, deps.random, plan.schedule);
    return due > finishedAt ? due : finishedAt;
  });
  if (!(await deps.deliveries.recordAttempt(delivery, claimId, attempt, verdict, finishedAt.toISOString()))) {
    // The claim lapsed during a very slow send and another worker took over; it records its own attempt.
    return { action: 'skipped', reason: 'claimed' };
  }
  deps.metrics.count(DELIVERY_METRICS[delivery.kind].attempt);
  if (verdict.status === 'FAILED') deps.metrics.count(DELIVERY_METRICS[delivery.kind].failed);
  if (verdict.status === 'PENDING') {
    // A failure here leaves the delivery PENDING and overdue, which is exactly what the sweeper looks for.
    await deps.queue.send([
      { command: { ...command, attempt: command.attempt + 1 }, delaySeconds: delaySecondsUntil(new Date(verdict.nextAttemptAt), finishedAt) },
    ]);
  }
  return { action: 'sent', attempt, verdict };
}

import { systemOrigin, type AuditOrigin } from '../audit/audit-event.ts';
import type { BillingHandOff, BillingJob, BillingQueue } from '../ports/billing-fan-out.ts';
import { daysBetween } from '../catalogue/calendar.ts';
import { ValidationError } from '../errors.ts';
import { RateLimitedError } from '../errors.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import type { TenantDirectory } from '../ports/tenant-directory.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import type { BucketPolicy } from '../rate-limit.ts';
import { indiaToday, requireCalendarDate } from '../reads/date-window.ts';
import type { AgentGroup } from '../tenants.ts';
import { cutoffOf, lastClosedPeriod } from './billing-period.ts';
import type { BillingRunResult, BillingTrigger } from './invoice.ts';
import { runBilling, type BillingDeps, type BillingRequest } from './run-billing.ts';

/** About two runs a minute (docs/invoicing.md "Throttle"), keyed on the account, not the credential. */
export const BILLING_RUN_POLICY: BucketPolicy = { perMinute: 2, burst: 2 };
/** Longest window a run may cover, and most booking ids it may name. */
export const MAX_BILLING_DAYS = 365;
export const MAX_BILLING_BOOKING_IDS = 100;
/**
 * How long a run holds the group's lock unless it finishes first: longer than any run
 * takes, short enough that a crashed run blocks billing only briefly.
 */
export const BILLING_LEASE_SECONDS = 300;

export interface BillingRunCommand {
  readonly from?: string;
  readonly to?: string;
  readonly bookingIds?: readonly string[];
}

export interface RequestBillingDeps extends BillingDeps {
  readonly rateLimiter: RateLimiter;
  readonly tenants: Pick<TenantDirectory, 'getAgentGroup'>;
  /** Where a run cut short by the request's budget sends its continuation. */
  readonly billingQueue: BillingQueue;
}

/** A billing run refused for being too soon after the last ones, or while another runs. */
export class BillingRunThrottledError extends RateLimitedError {
  constructor(retryAfterSeconds: number, why: string) {
    super(retryAfterSeconds);
    this.message = `${why}; try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`;
  }
}

/** The period and cutoff a command asks for (validated), on `today` (India) for a group. */
export function billingRequestOf(
  cmd: BillingRunCommand,
  group: Pick<AgentGroup, 'billingCycle' | 'billingAnchorDay'>,
  now: Date,
  trigger: BillingTrigger,
): BillingRequest {
  const today = indiaToday(now);
  if (cmd.bookingIds !== undefined) {
    if (cmd.from !== undefined || cmd.to !== undefined)
      throw new ValidationError('bookingIds', 'bookingIds cannot be combined with from/to: bill either named bookings or a period.');
    if (cmd.bookingIds.length > MAX_BILLING_BOOKING_IDS)
      throw new ValidationError('bookingIds', `bookingIds takes at most ${MAX_BILLING_BOOKING_IDS} ids; got ${cmd.bookingIds.length}.`);
    if (cmd.bookingIds.length === 0)
      throw new ValidationError('bookingIds', 'bookingIds must name at least one booking; send an empty body to bill the last closed period.');
    return { period: { from: today, to: today }, cutoff: now.toISOString(), bookingIds: [...new Set(cmd.bookingIds)], trigger };
  }
  if ((cmd.from === undefined) !== (cmd.to === undefined)) {
    const missing = cmd.from === undefined ? 'from' : 'to';
    throw new ValidationError(missing, `${missing} is required with ${missing === 'from' ? 'to' : 'from'}: a period needs both dates.`);
  }
  if (cmd.from !== undefined && cmd.to !== undefined) {
    for (const [name, value] of [
      ['from', cmd.from],
      ['to', cmd.to],
    ] as const)
      requireCalendarDate(name, value);
    if (cmd.to < cmd.from) throw new ValidationError('to', `to (${cmd.to}) must not be before from (${cmd.from}).`);
    if (daysBetween(cmd.from, cmd.to) + 1 > MAX_BILLING_DAYS)
      throw new ValidationError(
        'to',
        `a billing period covers at most ${MAX_BILLING_DAYS} days; from ${cmd.from} to ${cmd.to} is ${daysBetween(cmd.from, cmd.to) + 1}.`,
      );
    if (cmd.to > today) throw new ValidationError('to', `to must not be after today (${today}, India time): a period is billed up to the end of its last day.`);
    return { period: { from: cmd.from, to: cmd.to }, cutoff: cutoffOf(cmd.to), trigger };
  }
  const period = lastClosedPeriod(group.billingCycle, group.billingAnchorDay, today);
  return { period, cutoff: cutoffOf(period.to), trigger };
}

/**
 * POST /v1/invoices: validate, take the group's lock (429 while another run holds it), pass
 * the account's billing throttle (429 past two runs a minute), run, release. A run that
 * crashes leaves the lock to expire with its lease. `timeUp` is the request's budget: a run
 * still writing lines when it passes answers with its DRAFTs (ids, lines so far) and, once the
 * lock is released, queues its continuation for the billing worker, which fills and issues
 * those same DRAFTs.
 */
export async function requestBillingRun(
  deps: RequestBillingDeps,
  principal: AgentGroupPrincipal,
  cmd: BillingRunCommand,
  origin: AuditOrigin,
  opts: { readonly timeUp?: () => boolean } = {},
): Promise<BillingRunResult> {
  const group = await deps.tenants.getAgentGroup(principal.agentGroupId);
  if (!group) throw new Error(`agent group ${principal.agentGroupId} authenticated but has no profile`);
  const now = deps.clock.now();
  const request: BillingRequest = { ...billingRequestOf(cmd, group, now, 'API'), ...(opts.timeUp ? { timeUp: opts.timeUp } : {}) };
  const result = await withBillingLock(deps, group.agentGroupId, async () => {
    // Counted once the run holds the lock: a run refused as in progress does not use up the
    // minute's allowance, so the retry its Retry-After asks for is not refused again for it.
    const decision = await deps.rateLimiter.consume(`billing#${group.agentGroupId}`, BILLING_RUN_POLICY, now.getTime());
    if (!decision.allowed)
      throw new BillingRunThrottledError(decision.retryAfter, `Billing runs are limited to ${BILLING_RUN_POLICY.perMinute} a minute for your account`);
    return runBilling(deps, group, request, origin);
  });
  if (result.handedOff) await queueContinuation(deps, request, result);
  return result;
}

/**
 * The continuation of a handed-off run, on the billing queue. Not sent, the DRAFTs are still
 * safe: the group is then a group with open work, and its next run (the partner's, or the
 * daily run's) finishes them; the answer stays the run's, and the miss is counted.
 */
async function queueContinuation(deps: RequestBillingDeps, req: BillingRequest, result: BillingRunResult): Promise<void> {
  const job: BillingJob = {
    runId: result.runId,
    agentGroupId: result.agentGroupId,
    day: indiaToday(deps.clock.now()),
    trigger: 'API',
    force: false,
    openWork: true,
    handOff: { period: req.period, cutoff: req.cutoff, ...(req.bookingIds ? { bookingIds: req.bookingIds } : {}), invoiceIds: result.invoiceIds },
  };
  try {
    await deps.billingQueue.enqueue([job]);
  } catch {
    deps.metrics.count('BillingHandOffNotQueued');
  }
}

/**
 * The billing worker's part of a handed-off run: the same request, under the group's lock,
 * writing the rest of its lines into the DRAFTs it left and issuing them. A redelivered
 * message finds them issued and bills nothing twice (the engine never does).
 */
export async function continueBillingRun(
  deps: BillingDeps,
  job: BillingJob & { readonly handOff: BillingHandOff },
  group: AgentGroup,
): Promise<BillingRunResult> {
  const h = job.handOff;
  const request: BillingRequest = {
    period: h.period,
    cutoff: h.cutoff,
    trigger: 'API',
    continues: h.invoiceIds,
    ...(h.bookingIds ? { bookingIds: h.bookingIds } : {}),
  };
  return withBillingLock(deps, group.agentGroupId, () => runBilling(deps, group, request, systemOrigin('billing-continuation', job.runId)));
}

/**
 * An operator's run for one group (the admin tool's `billing run --group`, the console's "Bill now"):
 * the period asked for (its last closed one by default) on the group's own clock, without the
 * partner throttle, under the group's billing lock (429 while another run holds it).
 */
export function runBillingAsOperator(deps: BillingDeps, group: AgentGroup, cmd: BillingRunCommand, origin: AuditOrigin): Promise<BillingRunResult> {
  const request = billingRequestOf(cmd, group, deps.clock.now(), 'ADMIN');
  return withBillingLock(deps, group.agentGroupId, () => runBilling(deps, group, request, origin));
}

/** Runs `work` holding the group's billing lock; refused with 429 while another run holds it. */
export async function withBillingLock<T>(
  deps: Pick<BillingDeps, 'billingControl' | 'clock' | 'ids'>,
  agentGroupId: string,
  work: () => Promise<T>,
): Promise<T> {
  const owner = deps.ids.uuid();
  const now = deps.clock.now();
  const taken = await deps.billingControl.acquireLock(
    agentGroupId,
    owner,
    now.toISOString(),
    new Date(now.getTime() + BILLING_LEASE_SECONDS * 1000).toISOString(),
  );
  if (!taken.acquired) {
    const wait = Math.max(1, Math.ceil((Date.parse(taken.lock.leaseUntil) - now.getTime()) / 1000));
    // Runs usually take seconds; the lease is only the bound for a crashed one, so suggest a short wait.
    throw new BillingRunThrottledError(Math.min(wait, 10), 'Another billing run for your account is in progress');
  }
  try {
    return await work();
  } finally {
    await deps.billingControl.releaseLock(agentGroupId, owner);
  }
}

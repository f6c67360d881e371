import { systemOrigin, type AuditOrigin } from '../audit/audit-event.ts';
import { NotFoundError } from '../errors.ts';
import type { BillingJob, BillingQueue, BillingRunLog, FanOutRun } from '../ports/billing-fan-out.ts';
import type { AuditRecorder } from '../ports/audit-trail.ts';
import { writeAhead } from '../audit/write-ahead.ts';
import type { TenantDirectory } from '../ports/tenant-directory.ts';
import { indiaToday } from '../reads/date-window.ts';
import { evaluateCreditHold } from '../receivables/credit-control.ts';
import type { AgentGroup } from '../tenants.ts';
import { cutoffOf, lastClosedPeriod } from './billing-period.ts';
import type { BillingRunResult, BillingTrigger } from './invoice.ts';
import { withBillingLock } from './request-billing-run.ts';
import { keepBalancesAfterRun } from '../ledger/balance-checkpoints.ts';
import { runBilling, type BillingDeps } from './run-billing.ts';
import { mailPaymentReminders } from '../mail/reminder-mail.ts';
import { mailMonthlyStatement } from '../mail/statement-mail.ts';

/** What billing one group of a run needs: the engine's parts and the run record. */
export interface GroupBillingDeps extends BillingDeps {
  readonly billingRuns: BillingRunLog;
}

/** What starting a run over every group needs. */
export interface StartBillingDeps extends Pick<BillingDeps, 'invoices' | 'clock' | 'ids'> {
  readonly tenants: Pick<TenantDirectory, 'listAgentGroups'>;
  readonly billingRuns: BillingRunLog;
}

export type ScheduledBillingDeps = GroupBillingDeps &
  StartBillingDeps & {
    /** One group's dependencies, where they differ: at its own clock when it has a sandbox test clock (docs/sandbox.md). */
    readonly forGroup?: (agentGroupId: string) => Promise<GroupBillingDeps>;
  };

/**
 * A job as the group lives it: a group on a sandbox test clock is billed as of its own India
 * day, not the run's (the clock may be months ahead); every other group keeps the run's day,
 * so a message redelivered after midnight still bills the period it was sent for.
 */
export const jobAtGroupClock = (job: BillingJob, runClock: BillingDeps['clock'], own: BillingDeps): BillingJob =>
  own.clock === runClock ? job : { ...job, day: indiaToday(own.clock.now()) };

/** What happened to one group in a run over every group. */
export type GroupBillingOutcome =
  | { readonly agentGroupId: string; readonly outcome: 'BILLED'; readonly result: BillingRunResult }
  | { readonly agentGroupId: string; readonly outcome: 'UP_TO_DATE'; readonly periodTo: string }
  | { readonly agentGroupId: string; readonly outcome: 'FAILED'; readonly error: string };

export interface AllGroupsOptions {
  readonly trigger: BillingTrigger;
  /** Bill every group's last closed period even when a scheduled run already did (the admin tool's run over all groups). */
  readonly force?: boolean;
}

/**
 * The run over every group, as jobs: one per group, each billing that group's last closed
 * period as of the run's India day. The daily run's id is its day, so the schedule firing
 * twice (EventBridge retries a failed invocation) continues the same run rather than
 * starting a second; an operator's run gets its own id. The record is written before any
 * job leaves, so every outcome has a run to land in.
 */
async function planRun(deps: StartBillingDeps, opts: AllGroupsOptions): Promise<{ run: FanOutRun; jobs: BillingJob[]; groups: AgentGroup[] }> {
  const [groups, open] = await Promise.all([deps.tenants.listAgentGroups(), deps.invoices.groupsWithOpenInvoices()]);
  const withOpenWork = new Set(open);
  const now = deps.clock.now();
  const day = indiaToday(now);
  const runId = opts.trigger === 'SCHEDULE' ? `daily-${day}` : deps.ids.uuid();
  const run: FanOutRun = { runId, trigger: opts.trigger, day, startedAt: now.toISOString(), enqueued: groups.length };
  await deps.billingRuns.startRun(run);
  const jobs = groups.map((g) => ({
    runId,
    agentGroupId: g.agentGroupId,
    day,
    trigger: opts.trigger,
    force: opts.force ?? false,
    openWork: withOpenWork.has(g.agentGroupId),
  }));
  return { run, jobs, groups };
}

/**
 * The daily schedule's whole part (and `billing run --all` where a billing queue is
 * configured): one message per group on the billing queue; the billing worker bills each
 * (billQueuedGroup). Cost: one listing of the groups, one of the groups with open invoices,
 * a send per ten groups; no group is billed here.
 */
export async function queueBillingRun(deps: StartBillingDeps & { readonly billingQueue: BillingQueue }, opts: AllGroupsOptions): Promise<FanOutRun> {
  const { run, jobs } = await planRun(deps, opts);
  await deps.billingQueue.enqueue(jobs);
  return run;
}

/** The chain a run over every group started by a person is recorded on, as the admin tool's `billing run --all`. */
export const ALL_GROUPS_RUN_TARGET = 'billing:stage';

/**
 * A run over every group started by a person (the console's finance operator), on the trail
 * under that person as the admin tool records its `billing run`: write-ahead, because the run
 * queues one message per group and cannot share a transaction with its event. `started` is
 * written before the first message (a run whose `started` cannot be written is refused with
 * nothing queued), then `completed` with the run's id and groups queued, or `failed` with the
 * error's name; both share the person's request id. Each group's own `billing.run` follows in
 * the worker, as for every run.
 */
export async function queueBillingRunAs(
  deps: StartBillingDeps & { readonly billingQueue: BillingQueue; readonly audit: AuditRecorder },
  opts: AllGroupsOptions,
  origin: AuditOrigin,
): Promise<FanOutRun> {
  return writeAhead(
    deps,
    { origin, action: 'billing.all-groups-run', target: ALL_GROUPS_RUN_TARGET, started: { trigger: opts.trigger, force: opts.force ?? false } },
    () => queueBillingRun(deps, opts),
    (run) => ({ runId: run.runId, enqueued: run.enqueued }),
  );
}

/**
 * One group of a run (the billing worker's message): credit control and, when the group's
 * period closed since the last scheduled run (or it has open work, or the run is forced),
 * billing under the group's lock; otherwise the day's balance checkpoint. The outcome is
 * kept in the run record. Idempotent per (group, period): a second delivery of the same
 * message finds the period recorded and bills nothing, and the engine itself never bills
 * one charge twice. `group` is the directory's record, undefined when it is gone.
 */
export async function billQueuedGroup(deps: GroupBillingDeps, job: BillingJob, group: AgentGroup | undefined): Promise<GroupBillingOutcome> {
  const outcome: GroupBillingOutcome = group
    ? await billGroup(deps, group, job)
    : { agentGroupId: job.agentGroupId, outcome: 'FAILED', error: 'agent group not found' };
  await deps.billingRuns.recordGroup(job.runId, {
    agentGroupId: job.agentGroupId,
    outcome: outcome.outcome,
    detail: outcome.outcome === 'FAILED' ? outcome.error : outcome.outcome === 'BILLED' ? outcome.result.runId : null,
    invoicesIssued: outcome.outcome === 'BILLED' ? issuedBy(outcome.result) : 0,
    at: deps.clock.now().toISOString(),
  });
  return outcome;
}

/** A run's invoices less those it left DRAFT: the ones numbered and issued. */
const issuedBy = (r: BillingRunResult): number => Math.max(0, r.invoiceIds.length - r.draftsLeft);

/**
 * The same run in this process, `concurrency` groups at once: what the admin tool does
 * locally (no billing queue), and tests. Each group goes through billQueuedGroup exactly as
 * a worker would take its message, so this and the queue are one code path; a failed group
 * is reported, not retried (the next run, or the operator, takes it again).
 */
export async function billAllGroups(
  deps: ScheduledBillingDeps,
  opts: AllGroupsOptions & { readonly concurrency?: number; readonly onGroup?: (outcome: GroupBillingOutcome, done: number, of: number) => void },
): Promise<GroupBillingOutcome[]> {
  const { jobs, groups } = await planRun(deps, opts);
  const outcomes: GroupBillingOutcome[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      const own = deps.forGroup ? await deps.forGroup(jobs[i]!.agentGroupId) : deps;
      outcomes[i] = await billQueuedGroup(own, jobAtGroupClock(jobs[i]!, deps.clock, own), groups[i]);
      opts.onGroup?.(outcomes[i], ++done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, jobs.length)) }, lane));
  return outcomes;
}

/**
 * One group's share of the daily run, exactly as the run does it: a sandbox test clock's
 * advance runs it at the group's new time, so the periods that closed are billed and credit
 * control looks again.
 */
export async function billOneGroup(
  deps: BillingDeps & { readonly tenants: Pick<TenantDirectory, 'getAgentGroup'> },
  agentGroupId: string,
  opts: Pick<AllGroupsOptions, 'trigger'>,
): Promise<GroupBillingOutcome> {
  const [group, open] = await Promise.all([deps.tenants.getAgentGroup(agentGroupId), deps.invoices.groupsWithOpenInvoices()]);
  if (!group) throw new NotFoundError('Agent group');
  const job: BillingJob = {
    runId: deps.ids.uuid(),
    agentGroupId,
    day: indiaToday(deps.clock.now()),
    trigger: opts.trigger,
    force: false,
    openWork: open.includes(agentGroupId),
  };
  // Unlike the run over all groups, a failure is the caller's answer (a run holding the group's lock is a 429 with Retry-After).
  return billGroupOrThrow(deps, group, job);
}

async function billGroup(deps: BillingDeps, group: AgentGroup, job: BillingJob): Promise<GroupBillingOutcome> {
  try {
    return await billGroupOrThrow(deps, group, job);
  } catch (err) {
    deps.metrics.count('BillingRunFailed');
    return { agentGroupId: group.agentGroupId, outcome: 'FAILED', error: err instanceof Error ? err.message : String(err) };
  }
}

async function billGroupOrThrow(deps: BillingDeps, group: AgentGroup, job: BillingJob): Promise<GroupBillingOutcome> {
  const g = group.agentGroupId;
  const period = lastClosedPeriod(group.billingCycle, group.billingAnchorDay, job.day);
  const last = await deps.billingControl.lastScheduledPeriod(g);
  // Overdue is a matter of days passing, not of billing: credit control looks at every group every day.
  await evaluateCreditHold(deps, group);
  const origin = systemOrigin(job.trigger === 'ADMIN' ? 'billing-run' : 'scheduled-billing', job.runId);
  if (!job.force && !job.openWork && last !== undefined && last >= period.to) {
    // No run today, but the day's boundary is still checkpointed, so statement openings stay a day's read.
    await keepBalancesAfterRun(deps, g);
    await remind(deps, group, origin);
    return { agentGroupId: g, outcome: 'UP_TO_DATE', periodTo: period.to };
  }
  const result = await withBillingLock(deps, g, () => runBilling(deps, group, { period, cutoff: cutoffOf(period.to), trigger: job.trigger }, origin));
  if (last === undefined || last < period.to) await deps.billingControl.recordScheduledPeriod(g, period.to);
  await remind(deps, group, origin);
  return { agentGroupId: g, outcome: 'BILLED', result };
}

/** The day's payment reminders, after the run (so credit it allocated counts), and the previous month's statement until it is sent. */
async function remind(deps: BillingDeps, group: AgentGroup, origin: AuditOrigin): Promise<void> {
  if (!deps.mail) return;
  await mailPaymentReminders({ ...deps, ...deps.mail }, group, origin);
  // Statements are not reminders: an operator's hold or a reminder opt-out does not stop them.
  await mailMonthlyStatement({ ...deps, ...deps.mail }, group, origin);
}

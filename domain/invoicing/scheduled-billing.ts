import { NotFoundError } from '../errors.ts';
import { systemOrigin } from '../audit/audit-event.ts';
import type { TenantDirectory } from '../ports/tenant-directory.ts';
import { indiaToday } from '../reads/date-window.ts';
import { evaluateCreditHold } from '../receivables/credit-control.ts';
import type { AgentGroup } from '../tenants.ts';
import { cutoffOf, lastClosedPeriod } from './billing-period.ts';
import type { BillingRunResult, BillingTrigger } from './invoice.ts';
import { withBillingLock } from './request-billing-run.ts';
import { keepBalancesAfterRun } from '../ledger/balance-checkpoints.ts';
import { runBilling, type BillingDeps } from './run-billing.ts';

export interface ScheduledBillingDeps extends BillingDeps {
  readonly tenants: Pick<TenantDirectory, 'listAgentGroups'>;
  /** One group's dependencies, where they differ: at its own clock when it has a sandbox test clock (docs/sandbox.md). */
  readonly forGroup?: (agentGroupId: string) => Promise<BillingDeps>;
}

/** What happened to one group in a run over every group. */
export type GroupBillingOutcome =
  | { readonly agentGroupId: string; readonly outcome: 'BILLED'; readonly result: BillingRunResult }
  | { readonly agentGroupId: string; readonly outcome: 'UP_TO_DATE'; readonly periodTo: string }
  | { readonly agentGroupId: string; readonly outcome: 'FAILED'; readonly error: string };

export interface AllGroupsOptions {
  readonly trigger: BillingTrigger;
  /** Bill every group's last closed period even when a scheduled run already did (the admin tool's run over all groups). */
  readonly force?: boolean;
  /** Told each group's outcome as it is known (the admin tool prints a line per group). */
  readonly onGroup?: (outcome: GroupBillingOutcome, done: number, of: number) => void;
}

/**
 * The daily run (and the admin tool's run over all groups): every group whose billing
 * period closed since the last scheduled run, or that has invoices a run left open, is
 * billed for its last closed period with the same engine as POST /v1/invoices. Groups run
 * one after another; one group's failure is recorded and the rest carry on. Idempotent:
 * running it twice bills nothing twice.
 */
export async function billAllGroups(deps: ScheduledBillingDeps, opts: AllGroupsOptions): Promise<GroupBillingOutcome[]> {
  const [groups, open] = await Promise.all([deps.tenants.listAgentGroups(), deps.invoices.groupsWithOpenInvoices()]);
  const withOpenWork = new Set(open);
  const outcomes: GroupBillingOutcome[] = [];
  for (const group of groups) {
    const own = deps.forGroup ? await deps.forGroup(group.agentGroupId) : deps;
    const outcome = await billGroup(own, group, withOpenWork.has(group.agentGroupId), opts);
    outcomes.push(outcome);
    opts.onGroup?.(outcome, outcomes.length, groups.length);
  }
  return outcomes;
}

/**
 * One group's share of the daily run, exactly as the run does it: a sandbox test clock's
 * advance runs it at the group's new time, so the periods that closed are billed and credit
 * control looks again.
 */
export async function billOneGroup(deps: BillingDeps & { readonly tenants: Pick<TenantDirectory, 'getAgentGroup'> }, agentGroupId: string, opts: Pick<AllGroupsOptions, 'trigger'>): Promise<GroupBillingOutcome> {
  const [group, open] = await Promise.all([deps.tenants.getAgentGroup(agentGroupId), deps.invoices.groupsWithOpenInvoices()]);
  if (!group) throw new NotFoundError('Agent group');
  // Unlike the run over all groups, a failure is the caller's answer (a run holding the group's lock is a 429 with Retry-After).
  return billGroupOrThrow(deps, group, open.includes(agentGroupId), opts);
}

async function billGroup(deps: BillingDeps, group: AgentGroup, hasOpenWork: boolean, opts: AllGroupsOptions): Promise<GroupBillingOutcome> {
  try {
    return await billGroupOrThrow(deps, group, hasOpenWork, opts);
  } catch (err) {
    deps.metrics.count('BillingRunFailed');
    return { agentGroupId: group.agentGroupId, outcome: 'FAILED', error: err instanceof Error ? err.message : String(err) };
  }
}

async function billGroupOrThrow(deps: BillingDeps, group: AgentGroup, hasOpenWork: boolean, opts: Pick<AllGroupsOptions, 'trigger' | 'force'>): Promise<GroupBillingOutcome> {
  const g = group.agentGroupId;
  const period = lastClosedPeriod(group.billingCycle, group.billingAnchorDay, indiaToday(deps.clock.now()));
  const last = await deps.invoices.lastScheduledPeriod(g);
  // Overdue is a matter of days passing, not of billing: credit control looks at every group every day.
  await evaluateCreditHold(deps, group);
  if (!opts.force && !hasOpenWork && last !== undefined && last >= period.to) {
    // No run today, but the day's boundary is still checkpointed, so statement openings stay a day's read.
    await keepBalancesAfterRun(deps, g);
    return { agentGroupId: g, outcome: 'UP_TO_DATE', periodTo: period.to };
  }
  const result = await withBillingLock(deps, g, () => runBilling(deps, group, { period, cutoff: cutoffOf(period.to), trigger: opts.trigger }, systemOrigin('scheduled-billing', deps.ids.uuid())));
  if (last === undefined || last < period.to) await deps.invoices.recordScheduledPeriod(g, period.to);
  return { agentGroupId: g, outcome: 'BILLED', result };
}

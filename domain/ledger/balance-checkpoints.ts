import { addDays } from '../catalogue/calendar.ts';
import type { Minor } from '../money.ts';
import type { BalanceCheckpoint, BalanceStore } from '../ports/balance-store.ts';
import type { Clock } from '../ports/clock.ts';
import type { CreditLedger } from '../ports/credit-ledger.ts';
import type { Metrics } from '../ports/metrics.ts';
import { indiaMidnight, indiaToday } from '../reads/date-window.ts';
import { postedBalance, type LedgerEntry } from './ledger.ts';

/*
 * Balance checkpoints (docs/ledger.md "How the opening balance is found"): the group's net
 * POSTED position of everything that occurred before an India midnight, so a statement's
 * opening balance costs one checkpoint plus the entries between it and `from`, never the
 * whole history.
 *
 * An entry is dated when it is recorded (occurredAt) and never moves in time, but its
 * status can: a charge is AUTHORIZED first and POSTED when the booking lands, or RELEASED
 * when the booking window closes and POSTED again if the booking lands late (watched for
 * the watch period after the failure). A checkpoint that summed the entries before a
 * boundary while one of them could still turn POSTED would go stale. So a boundary is
 * checkpointed only once it is settled: further in the past than the booking window, the
 * late-landing watch and a margin together, after which no entry before it can change
 * status any more. Refunds, payments and adjustments are POSTED when written.
 */

/** Beyond the booking window and the watch: room for clock skew between processes and a write retried after its entry was dated. */
export const SETTLE_MARGIN_SECONDS = 3_600;

/** Re-exported: callers of the checkpoints name boundaries by it. */
export { indiaMidnight };

/** The India midnight strictly after an instant. */
const nextMidnightAfter = (instant: string): string => indiaMidnight(addDays(indiaToday(new Date(instant)), 1));

/**
 * Seconds after which no entry before a boundary can change status: the booking window (an
 * AUTHORIZED charge is POSTED or RELEASED by then), the late-landing watch (a RELEASED one
 * can be POSTED until then), and the margin.
 */
export const settleSecondsOf = (timings: { readonly windowSeconds: number; readonly watchSeconds: number }): number =>
  timings.windowSeconds + timings.watchSeconds + SETTLE_MARGIN_SECONDS;

/** The latest India midnight that is settled at `now`. */
export function lastSettledBoundary(now: Date, settleSeconds: number): string {
  return indiaMidnight(indiaToday(new Date(now.getTime() - settleSeconds * 1000)));
}

/**
 * The checkpoints from `previous` (exclusive; the start of the ledger when absent) up to
 * `boundary` (inclusive), one per India midnight, given every entry that occurred from
 * `previous.at` (or ever) to before `boundary`, in any order. Without a previous checkpoint
 * the first is the midnight after the first entry (or `boundary` itself for an empty
 * ledger). Stops before the first boundary an entry still AUTHORIZED would fall under: that
 * booking outlived the window, so the boundary is not settled after all.
 */
export function checkpointsUpTo(
  agentGroupId: string,
  previous: Pick<BalanceCheckpoint, 'at' | 'balance'> | undefined,
  entries: readonly Pick<LedgerEntry, 'status' | 'amount' | 'occurredAt'>[],
  boundary: string,
): Omit<BalanceCheckpoint, 'writtenAt'>[] {
  const sorted = [...entries].sort((a, b) => (a.occurredAt < b.occurredAt ? -1 : a.occurredAt > b.occurredAt ? 1 : 0));
  const unsettled = sorted.find((e) => e.status === 'AUTHORIZED')?.occurredAt;
  const first = previous ? nextMidnightAfter(previous.at) : sorted.length ? nextMidnightAfter(sorted[0]!.occurredAt) : boundary;
  const out: Omit<BalanceCheckpoint, 'writtenAt'>[] = [];
  let balance: Minor = previous?.balance ?? 0;
  let i = 0;
  for (let at = first; at <= boundary; at = nextMidnightAfter(at)) {
    if (unsettled !== undefined && unsettled < at) break;
    const upTo = i;
    while (i < sorted.length && sorted[i]!.occurredAt < at) i++;
    balance += postedBalance(sorted.slice(upTo, i));
    out.push({ agentGroupId, at, balance });
  }
  return out;
}

export interface BalanceDeps {
  readonly balances: BalanceStore;
  readonly ledger: Pick<CreditLedger, 'queryEntries'>;
  readonly clock: Clock;
  /** How long after a boundary it is settled (settleSecondsOf the booking timings). */
  readonly settleSeconds: number;
  readonly metrics: Metrics;
}

/**
 * Writes the group's missing checkpoints up to the last settled boundary. Reads the latest
 * checkpoint and the entries since it (one billing period's worth when runs keep pace);
 * up to date, it costs that one read. Idempotent: a checkpoint is a fact about settled
 * entries, so two runs writing the same boundary write the same figure.
 */
export async function keepBalanceCheckpoints(deps: Omit<BalanceDeps, 'metrics'>, agentGroupId: string): Promise<number> {
  const now = deps.clock.now();
  const boundary = lastSettledBoundary(now, deps.settleSeconds);
  const previous = await deps.balances.latest(agentGroupId, boundary);
  if (previous?.at === boundary) return 0;
  const { entries } = await deps.ledger.queryEntries(agentGroupId, { ...(previous ? { from: previous.at } : {}), before: boundary, order: 'oldest-first' });
  const writtenAt = now.toISOString();
  const checkpoints = checkpointsUpTo(agentGroupId, previous, entries, boundary).map((c) => ({ ...c, writtenAt }));
  await deps.balances.put(checkpoints);
  return checkpoints.length;
}

/**
 * The billing run's hook: a checkpoint that cannot be written now is written by the next
 * run (statements meanwhile start from an older one), so a failure here is counted, never
 * failing the run whose invoices are already issued.
 */
export async function keepBalancesAfterRun(deps: BalanceDeps, agentGroupId: string): Promise<void> {
  try {
    await keepBalanceCheckpoints(deps, agentGroupId);
  } catch {
    deps.metrics.count('BalanceCheckpointFailed');
  }
}

/**
 * The net POSTED position of everything that occurred before `from`: the latest checkpoint
 * at or before `from`, plus the POSTED entries from it to before `from`. Without a
 * checkpoint (a group no run has reached yet) the entries are read from the start.
 */
export async function openingBalance(deps: Pick<BalanceDeps, 'balances' | 'ledger'>, agentGroupId: string, from: string): Promise<Minor> {
  const checkpoint = await deps.balances.latest(agentGroupId, from);
  const { entries } = await deps.ledger.queryEntries(agentGroupId, {
    ...(checkpoint ? { from: checkpoint.at } : {}),
    before: from,
    statuses: ['POSTED'],
    order: 'oldest-first',
  });
  return (checkpoint?.balance ?? 0) + postedBalance(entries);
}

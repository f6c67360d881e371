import { daysBetween } from '../catalogue/calendar.ts';
import type { Minor } from '../money.ts';
import type { Clock } from '../ports/clock.ts';
import type { ReceivablesStore } from '../ports/receivables-store.ts';
import { indiaToday } from '../reads/date-window.ts';
import type { AgentGroup } from '../tenants.ts';

/** An open invoice as credit control sees it. */
export interface InvoiceDue {
  readonly dueDate: string;
  readonly amountDue: Minor;
}

/**
 * Credit control's rule: the account goes on hold while any invoice still owing is overdue
 * by more than the group's `overdueHoldDays` (India calendar days after its due date);
 * a group without the setting is never held automatically.
 */
export function overdueHold(group: Pick<AgentGroup, 'overdueHoldDays'>, dues: readonly InvoiceDue[], today: string): boolean {
  const days = group.overdueHoldDays;
  if (days === undefined || days === null) return false;
  return dues.some((d) => d.amountDue > 0 && daysBetween(d.dueDate, today) > days);
}

export interface CreditControlDeps {
  readonly receivables: Pick<ReceivablesStore, 'openDues' | 'setCreditHold'>;
  readonly clock: Clock;
}

/**
 * Evaluates the rule now and stores the verdict where the credit gate reads it (the group's
 * credit counter), so bookings and amendment increases are refused ACCOUNT_ON_HOLD while
 * it holds. Run by the daily billing run for every group and after every payment.
 */
export async function evaluateCreditHold(deps: CreditControlDeps, group: Pick<AgentGroup, 'agentGroupId' | 'overdueHoldDays'>): Promise<boolean> {
  const now = deps.clock.now();
  const hold = overdueHold(group, await deps.receivables.openDues(group.agentGroupId), indiaToday(now));
  await deps.receivables.setCreditHold(group.agentGroupId, hold, now.toISOString());
  return hold;
}

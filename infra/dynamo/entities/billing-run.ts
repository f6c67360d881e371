import type { BillingRunResult } from '../../../domain/invoicing/invoice.ts';
import { itemOf, recordOf } from '../items.ts';
import { keys } from '../keys.ts';

/* The BillingRun item, a group's run: PK = GROUP#<g>, SK = BILLINGRUN#<startedAt>#<runId>; on GSI1 (BILLINGRUNS) for every group's. */
export const billingRunEntity = {
  name: 'BillingRun',
  toItem: (result: BillingRunResult, expiresAt: number) =>
    itemOf(
      'BillingRun',
      { ...keys.billingRun(result.agentGroupId, result.startedAt, result.runId), ...keys.billingRunIndex(result.startedAt, result.agentGroupId, result.runId) },
      { ...result, expiresAt },
    ),
  fromItem: (item: Record<string, unknown>): BillingRunResult => recordOf<BillingRunResult>(item),
} as const;

/* The BillingFanOutGroup item: one group's outcome in a run over every group (PK = BILLINGFANOUT#<run>, SK = GROUP#<g>). */
export const billingFanOutGroupEntity = {
  name: 'BillingFanOutGroup',
  key: keys.billingFanOutGroup,
  conditions: {
    /** A success stays (`:failed` → 'FAILED'): a redelivery after BILLED finds the group up to date and must not say so over it. */
    noSuccessYet: 'attribute_not_exists(outcome) OR outcome = :failed',
  },
} as const;

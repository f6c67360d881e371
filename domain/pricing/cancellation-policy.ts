import { addDays } from '../catalogue/calendar.ts';
import type { CancellationPlan } from '../catalogue/cancellation.ts';
import type { Listing } from '../catalogue/listing.ts';
import { ValidationError } from '../errors.ts';
import type { CancellationPolicyStep } from './priced-order.ts';

/**
 * The plan the order uses: the requested one if the listing offers it, else the
 * listing's default. A plan the listing does not offer is refused, never swapped.
 */
export function choosePlan(listing: Listing, plans: readonly CancellationPlan[], requested: string | undefined): CancellationPlan {
  const planId = requested ?? listing.defaultCancellationPlanId;
  const plan = listing.cancellationPlanIds.includes(planId) ? plans.find((p) => p.planId === planId) : undefined;
  if (plan) return plan;
  if (requested !== undefined) {
    throw new ValidationError(
      'cancellationPlanId',
      `cancellationPlanId ${requested} is not offered for this listing; choose one of ${listing.cancellationPlanIds.join(', ')}.`,
    );
  }
  throw new RangeError(`listing ${listing.id} has no default cancellation plan ${planId}`);
}

/**
 * The refund schedule for a stay: each step of the plan becomes "cancel on or before
 * checkIn − daysBeforeCheckIn, get refundPercentage back". Steps whose date is already
 * before `today` can no longer be used and are left out. A closing step, dated checkIn
 * with 0 %, says what happens after the last refund date, so the schedule always answers
 * "what do I get back if I cancel on day X" (and a non-refundable plan is not empty); it
 * is left out when the plan's own last step already ends at check-in or refunds nothing.
 */
export function cancellationPolicy(plan: CancellationPlan, checkIn: string, today: string): CancellationPolicyStep[] {
  const steps: CancellationPolicyStep[] = [];
  for (const step of plan.schedule) {
    const cancelBy = addDays(checkIn, -step.daysBeforeCheckIn);
    if (cancelBy >= today) steps.push({ cancelBy, refundPercentage: step.refundPercentage, label: step.label });
  }
  const last = steps.at(-1);
  const label =
    plan.schedule.length === 0
      ? 'Non-refundable: no refund on cancellation'
      : last
        ? `No refund for cancellations after ${last.cancelBy}`
        : 'No refund on cancellation from now on';
  if (!last || (last.refundPercentage > 0 && last.cancelBy < checkIn)) steps.push({ cancelBy: checkIn, refundPercentage: 0, label });
  return steps;
}

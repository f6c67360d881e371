export const PLAN_TYPES = ['FLEXIBLE', 'MODERATE', 'STRICT', 'NON_REFUNDABLE'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export interface RefundStep {
  /** Cancelling at least this many days before check-in refunds refundPercentage. */
  readonly daysBeforeCheckIn: number;
  readonly refundPercentage: number;
  readonly label: string;
}

/** A cancellation plan a listing offers; a discount buys a stricter schedule. */
export interface CancellationPlan {
  readonly planId: string;
  readonly name: string;
  readonly planType: PlanType;
  /** Whole percent off the stay for choosing this plan. */
  readonly discountPercent: number;
  /** Strictly decreasing daysBeforeCheckIn; closer than the last step refunds nothing. */
  readonly schedule: readonly RefundStep[];
}

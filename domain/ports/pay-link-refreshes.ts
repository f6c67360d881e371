/**
 * Where a change of what a group's invoices owe (a payment, a refund, a dispute lost, a credit note, a link Razorpay ended) asks
 * for the group's pay links to follow it at once. The use cases that make such a change ask, after it commits, whoever calls
 * them (API, console, admin tool, workers, billing runs). In AWS it is the billing queue, whose worker carries Razorpay's SDK (the
 * functions that record such changes mostly do not; docs/performance.md); the billing worker itself refreshes in-process.
 */
export interface PayLinkRefreshes {
  /**
   * Never throws: the change it follows is already committed, and failing its caller would invite a retry of the change (a
   * second credit note). An ask that is lost is logged, and the hourly reconciliation refreshes every link.
   */
  ask(agentGroupId: string): Promise<void>;
}

/** For a caller that refreshes every group it touched itself, last (payment reconciliation): nothing to ask on the way. */
export const refreshedByCaller: PayLinkRefreshes = { ask: async () => {} };

/**
 * Where a change of what a group's invoices owe (a payment, a refund, a dispute, a credit note, a link Razorpay ended) asks for
 * the group's pay links to follow it at once: the billing queue, whose worker carries Razorpay's SDK (the functions that record
 * such changes mostly do not; docs/performance.md). The hourly reconciliation refreshes every link too, so a request lost between
 * the change and the queue only waits for it.
 */
export interface PayLinkRefreshes {
  /** Throws when the request could not be queued. */
  ask(agentGroupId: string): Promise<void>;
}

export interface BillingLock {
  readonly owner: string;
  readonly leaseUntil: string;
}

/** Who may bill an agent group now (its lease), and where its scheduled billing stands. */
export interface BillingRunControl {
  /** Takes the group's billing lock unless another owner holds an unexpired lease; the lock as it stands after. */
  acquireLock(agentGroupId: string, owner: string, now: string, leaseUntil: string): Promise<{ readonly acquired: boolean; readonly lock: BillingLock }>;
  releaseLock(agentGroupId: string, owner: string): Promise<void>;
  /** Where the group's billing stands: the last period a scheduled run closed. */
  lastScheduledPeriod(agentGroupId: string): Promise<string | undefined>;
  recordScheduledPeriod(agentGroupId: string, periodTo: string): Promise<void>;
}

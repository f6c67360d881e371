import type { BillingLock, BillingRunControl } from '../../../domain/ports/billing-run-control.ts';

/** Each group's billing lock and last scheduled period in memory (test/support/contracts/billing-run-control-contract.ts runs against it and DynamoBillingRunControl). */
export class InMemoryBillingRunControl implements BillingRunControl {
  private readonly locks = new Map<string, BillingLock>();
  private readonly periods = new Map<string, string>();

  async acquireLock(agentGroupId: string, owner: string, now: string, leaseUntil: string): Promise<{ readonly acquired: boolean; readonly lock: BillingLock }> {
    const held = this.locks.get(agentGroupId);
    if (held && held.leaseUntil >= now && held.owner !== owner) return { acquired: false, lock: held };
    const lock = { owner, leaseUntil };
    this.locks.set(agentGroupId, lock);
    return { acquired: true, lock };
  }

  async releaseLock(agentGroupId: string, owner: string): Promise<void> {
    if (this.locks.get(agentGroupId)?.owner === owner) this.locks.delete(agentGroupId);
  }

  async lastScheduledPeriod(agentGroupId: string): Promise<string | undefined> {
    return this.periods.get(agentGroupId);
  }

  async recordScheduledPeriod(agentGroupId: string, periodTo: string): Promise<void> {
    this.periods.set(agentGroupId, periodTo);
  }
}

import type { BillingLock } from '../../../domain/ports/billing-run-control.ts';
import { itemOf } from '../items.ts';
import { keys } from '../keys.ts';

/* The BillingLock item (PK = GROUP#<g>, SK = BILLING_LOCK) and the BillingState item beside it (SK = BILLING_STATE). */
export const billingLockEntity = {
  name: 'BillingLock',
  key: keys.billingLock,
  toItem: (agentGroupId: string, lock: BillingLock, takenAt: string) => itemOf('BillingLock', keys.billingLock(agentGroupId), { ...lock, takenAt }),
  /** The lock as read; one released meanwhile reads as held until `now`, so the caller waits a moment and retries. */
  fromItem: (item: Record<string, unknown> | undefined, now: string): BillingLock => ({
    owner: (item?.owner as string) ?? '',
    leaseUntil: (item?.leaseUntil as string) ?? now,
  }),
  /** Placeholders: `#owner` → owner, `:owner` the caller, `:now` the time. */
  conditions: {
    /** A lease: free, expired, or already ours (a retry of the same run). */
    lockFree: 'attribute_not_exists(PK) OR leaseUntil < :now OR #owner = :owner',
    /** Only the holder releases, so a run whose lease expired cannot free a lock another run took since. */
    lockHeld: '#owner = :owner',
  },
} as const;

export const billingStateEntity = {
  name: 'BillingState',
  key: keys.billingState,
  toItem: (agentGroupId: string, lastPeriodTo: string) => itemOf('BillingState', keys.billingState(agentGroupId), { lastPeriodTo }),
  fromItem: (item: Record<string, unknown> | undefined): string | undefined => item?.lastPeriodTo as string | undefined,
} as const;

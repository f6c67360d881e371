import type { AuditDraft } from '../audit/audit-event.ts';
import type { GroupMailSettings } from '../mail/finance-contacts.ts';

/**
 * A group's mail settings (finance contacts, the operator's pause), one record per group. Every
 * change replaces the record it was computed from, with its audit event, in one transaction.
 */
export interface FinanceContactStore {
  get(agentGroupId: string): Promise<GroupMailSettings | undefined>;
  /** The groups with a finance contact at `email` (lower-cased), as of their last stored change. */
  groupsWithAddress(email: string): Promise<string[]>;
  /**
   * Stores `next` if the group's record is still at `expectedVersion` (0: none yet) and records
   * `audit` with it; false when another change landed first (nothing written).
   */
  replace(next: GroupMailSettings, expectedVersion: number, audit: AuditDraft): Promise<boolean>;
  /**
   * Makes `groupsWithAddress` find each of `settings`' contacts where the lookup was written after
   * they were (contacts stored before it existed); nothing when the group's record is no longer at
   * `settings.version` (a change since wrote the lookup for its contacts). Answers how many
   * addresses it wrote: 0 once done, however often it runs.
   */
  indexAddresses(settings: GroupMailSettings): Promise<number>;
}

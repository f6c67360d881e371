import type { AuditDraft } from '../../../domain/audit/audit-event.ts';
import type { GroupMailSettings } from '../../../domain/mail/finance-contacts.ts';
import type { FinanceContactStore } from '../../../domain/ports/finance-contacts.ts';

/**
 * Groups' mail settings in memory for rule tests in the unit tier; the port's contract
 * (test/support/contracts/finance-contact-store-contract.ts) runs against it and the DynamoDB
 * adapter. `events` holds the audit drafts each applied change carried.
 */
export class InMemoryFinanceContactStore implements FinanceContactStore {
  private readonly settings = new Map<string, GroupMailSettings>();
  readonly events: AuditDraft[] = [];

  async get(agentGroupId: string): Promise<GroupMailSettings | undefined> {
    return this.settings.get(agentGroupId);
  }

  async groupsWithAddress(email: string): Promise<string[]> {
    return [...this.settings.values()].filter((s) => s.contacts.some((c) => c.email === email)).map((s) => s.agentGroupId);
  }

  /** `groupsWithAddress` here reads the contacts themselves: there is no lookup to fill in. */
  async indexAddresses(): Promise<number> {
    return 0;
  }

  async replace(next: GroupMailSettings, expectedVersion: number, audit: AuditDraft): Promise<boolean> {
    if ((this.settings.get(next.agentGroupId)?.version ?? 0) !== expectedVersion) return false;
    this.settings.set(next.agentGroupId, next);
    this.events.push(audit);
    return true;
  }
}

import type { AuditDraft, AuditEvent, ChainHead } from '../audit/audit-event.ts';

/** Where a page of an account's events ended; the next page starts strictly after it. */
export interface AuditPosition {
  readonly at: string;
  readonly id: string;
}

export interface AuditPage {
  readonly events: AuditEvent[];
  readonly next: AuditPosition | null;
}

/**
 * The read side of the audit trail. Events are written only by the stores that make the
 * change they record, in the same transaction; nothing here writes.
 */
export interface AuditTrail {
  /** An account's events, oldest first, `limit` at a time, at ≥ from and ≤ to when given. */
  listAccount(account: string, page: { limit: number; after?: AuditPosition; from?: string; to?: string }): Promise<AuditPage>;
  /** One target's chain, oldest first. */
  listTarget(target: string): Promise<AuditEvent[]>;
  /** Every event with from ≤ at ≤ to (canonical instants), oldest first. Operator-sized. */
  listWindow(from: string, to: string): Promise<AuditEvent[]>;
  /** Every chain's target. Operator-sized. */
  chainTargets(): Promise<string[]>;
  /** One chain's events (ascending position, read consistently) and its head. */
  readChain(target: string): Promise<{ events: AuditEvent[]; head: ChainHead | null }>;
}

/**
 * A change that cannot share a transaction with its event (a billing run queues one message
 * per group) records it on its own, write-ahead: `started` before the first change, the
 * outcome after the last (docs/audit.md "Admin commands").
 */
export interface AuditRecorder {
  /** Appends the event to its target's chain, alone. */
  record(draft: AuditDraft): Promise<void>;
}

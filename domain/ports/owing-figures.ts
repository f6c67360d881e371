import type { OpenFigures } from '../invoicing/invoice.ts';
import type { Minor } from '../money.ts';

/** What the outstanding figures of a list are computed from: every listed invoice of the group. */
export interface ReceivableFigures {
  readonly id: string;
  readonly total: Minor;
  readonly amountPaid: Minor;
  readonly creditedAmount: Minor;
  readonly dueDate: string;
  /** Set on credit notes, which owe nothing. */
  readonly creditNoteFor?: string;
}

/** What an agent group owes across its invoices: the figures kept as documents are issued and paid, and what they are defined from. */
export interface OwingFigures {
  /** Every listed invoice's figures: what the open figures are defined from (a read of the whole list; operators and tests only). */
  receivables(agentGroupId: string): Promise<ReceivableFigures[]>;
  /** What the group owes across its invoices, at a cost independent of how many it has (equal to openFiguresOf(receivables)). */
  openFigures(agentGroupId: string): Promise<OpenFigures>;
  /** The kept open figures alone, or undefined while they do not count every invoice still owing (the drift check). */
  keptOpenFigures(agentGroupId: string): Promise<OpenFigures | undefined>;
  /** Counts in the kept figures every invoice still owing that they do not count yet (issued before them), then marks them complete; how many it counted. Idempotent. */
  backfillOpenFigures(agentGroupId: string): Promise<number>;
}
